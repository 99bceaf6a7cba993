"""A complex FIR written as a float64 Tuple update from Python (red-team round 8): y(n) += h(r) *
x(n + r) as (re, im). Halide's definition gives each value a let of the signal's index, behind which
the loads looked invariant over the taps to Diet, which then took the taps into vector lanes
(per-lane partial results: 2.8-4.9x slower than vectors along n). Checks that the schedule keeps its
vectors along n and that the output matches numpy at several (N, T), including T = 1 and N = 1.

usage: test_tuple_fir_python.py PLUGIN TARGET. Prints 'N passed, N failed'; exits non-zero on a failure."""
import sys

try:
    import halide as hl
    import numpy as np
except ImportError as e:
    print("skipped: Halide's Python bindings or numpy are missing (%s); Debian: apt-get install python3-halide python3-numpy" % e)
    sys.exit(77)

plugin, target_string = sys.argv[1], sys.argv[2]
target = hl.Target(target_string)
hl.load_plugin(plugin)
F64 = hl.Float(64)
N = hl.Param(hl.Int(32), "N", 4000); N.set_range(1, 4000)
T = hl.Param(hl.Int(32), "T", 33); T.set_range(1, 33)
xr, xi, hr, hi_ = (hl.ImageParam(F64, 1, s) for s in ("xr", "xi", "hr", "hi"))
n = hl.Var("n")
r = hl.RDom([hl.Range(0, T)], "r")
y = hl.Func("y")
y[n] = (hl.f64(0), hl.f64(0))
ar, ai, br, bi = hr[r], hi_[r], xr[n + r], xi[n + r]
y[n] = (y[n][0] + ar * br - ai * bi, y[n][1] + ar * bi + ai * br)
for b in (xr, xi):
    b.dim(0).set_estimate(0, N + T)
for b in (hr, hi_):
    b.dim(0).set_estimate(0, T)
y.set_estimate(n, 0, N)
p = hl.Pipeline(y)
source = p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40)).schedule_source
p.compile_jit(target)

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAILED: " + what)


check("per-lane partial results" not in source and ".rfactor(" not in source,
      "the schedule takes the taps into vector lanes:\n" + "\n".join(l for l in source.splitlines() if l.startswith("//")))
rng = np.random.default_rng(0)
for nv, tv in [(1, 1), (7, 3), (501, 5), (4000, 33), (64, 1)]:
    x = rng.standard_normal(nv + tv) + 1j * rng.standard_normal(nv + tv)
    h = rng.standard_normal(tv) + 1j * rng.standard_normal(tv)
    arrays = [np.ascontiguousarray(a) for a in (x.real, x.imag, h.real, h.imag)]  # alive while the pipeline reads them
    for ip, a in zip((xr, xi, hr, hi_), arrays):
        ip.set(hl.Buffer(a))
    N.set(nv); T.set(tv)
    out = [hl.Buffer(F64, [nv]), hl.Buffer(F64, [nv])]
    p.realize(out, target)
    want = np.array([np.sum(h * x[k:k + tv]) for k in range(nv)])
    got = np.asarray(out[0]) + 1j * np.asarray(out[1])
    check(np.allclose(got, want, rtol=1e-12, atol=1e-12), "N=%d T=%d: max |diff| %g" % (nv, tv, np.max(np.abs(got - want))))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
