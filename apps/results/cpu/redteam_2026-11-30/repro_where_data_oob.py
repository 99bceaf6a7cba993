"""Diet: a reduction whose RDom.where() predicate reads the input (sum of positive values per row) goes
out of bounds at shapes inside the range: 'Input buffer inp is accessed at 15, which is beyond the max (8)
in dimension 1' (T=9). Cause: the update's pure var t is split by 8 with GuardWithIf; Halide evaluates the
RDom predicate (inp[r, t] > 0) for the padded t lanes outside the guard. (Adams2019 and Mullapudi2016 hit the
same Halide-level problem with their own splits.) Run: /usr/bin/python3 repro_where_data_oob.py"""
import numpy as np, halide as hl
hl.load_plugin("/work/main/build/libautoschedule_diet.so")
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
inp = hl.ImageParam(hl.Float(32), 2, "inp")
N = hl.Param(hl.Int(32), "N", 700); N.set_range(1, 700)
T = hl.Param(hl.Int(32), "T", 128); T.set_range(1, 128)
t = hl.Var("t")
r = hl.RDom([hl.Range(0, inp.width())], "r")
r.where(inp[r, t] > 0.0)
a = hl.Func("possum")
a[t] = 0.0
a[t] += inp[r, t]
inp.dim(0).set_estimate(0, N); inp.dim(1).set_estimate(0, T)
a.set_estimate(t, 0, T)
p = hl.Pipeline(a)
p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(target)
fails = 0
for n, tt in [(1, 1), (3, 3), (1, 9), (3, 9), (2, 31), (2, 33), (1, 63), (700, 128), (700, 127)]:
    x = np.random.default_rng(0).standard_normal((n, tt)).astype(np.float32)
    b = hl.Buffer(hl.Float(32), [n, tt]); np.asarray(b)[...] = x
    inp.set(b); N.set(n); T.set(tt)
    out = hl.Buffer(hl.Float(32), [tt])
    try:
        p.realize(out, target)
        err = np.max(np.abs(np.asarray(out) - np.where(x > 0, x, 0).sum(0)))
        print("N=%d T=%d ok, max err %g" % (n, tt, err))
    except RuntimeError as e:
        fails += 1
        print("N=%d T=%d FAILED: %s" % (n, tt, str(e).strip()))
print("FAIL" if fails else "PASS")
