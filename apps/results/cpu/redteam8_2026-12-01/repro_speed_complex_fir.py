"""Speed repro: complex FIR as an f64 Tuple (re, im) update, y[n] += h[t] * x[n+t] over RDom(0,T).
Diet's schedule (specialization T >= 4) rfactors the TAP loop into 8 lanes ("per-lane partial results reduced per
row") instead of vectorizing along the long, contiguous output dim n. Compared with a plain manual schedule
(n split by 16 and vectorized, taps inside, n tasks parallel: what Adams2019 picks at a constant shape).
usage: /usr/bin/python3 repro_speed_complex_fir.py /tmp/rt8_diet.so [A|B]"""
import sys, time
import numpy as np
import halide as hl
plugin = sys.argv[1]
tg = {"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
      "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[2] if len(sys.argv) > 2 else "A"]
target = hl.Target(tg)
hl.load_plugin(plugin)
F64 = hl.Float(64)


def build(diet):
    N = hl.Param(hl.Int(32), "N", 4000); N.set_range(1, 4000)
    T = hl.Param(hl.Int(32), "T", 33); T.set_range(1, 33)
    xr, xi, hr, hi_ = (hl.ImageParam(F64, 1, s) for s in ("xr", "xi", "hr", "hi"))
    n = hl.Var("n")
    r = hl.RDom([hl.Range(0, T)], "r")
    y = hl.Func("y")
    y[n] = (hl.f64(0), hl.f64(0))
    ar, ai, br, bi = hr[r], hi_[r], xr[n + r], xi[n + r]
    y[n] = (y[n][0] + ar * br - ai * bi, y[n][1] + ar * bi + ai * br)
    eN, eT = (N, T) if diet else (4000, 33)
    for b in (xr, xi):
        b.dim(0).set_estimate(0, eN + eT)
    for b in (hr, hi_):
        b.dim(0).set_estimate(0, eT)
    y.set_estimate(n, 0, eN)
    p = hl.Pipeline(y)
    if diet:
        p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    else:
        no, ni, nii = hl.Var("no"), hl.Var("ni"), hl.Var("nii")
        y.compute_root().vectorize(n, 16)
        y.update(0).split(n, no, ni, 512, hl.TailStrategy.GuardWithIf).split(ni, ni, nii, 16, hl.TailStrategy.GuardWithIf) \
            .vectorize(nii).reorder(nii, r.x, ni, no).parallel(no)
    p.compile_jit(target)
    return p, (N, T, xr, xi, hr, hi_)


def bench(p, ps, Nv, Tv):
    N, T, xr, xi, hr, hi_ = ps
    rng = np.random.default_rng(0)
    bufs = [hl.Buffer(rng.standard_normal(Nv + Tv)) for _ in range(2)] + [hl.Buffer(rng.standard_normal(Tv)) for _ in range(2)]
    for ip, b in zip((xr, xi, hr, hi_), bufs):
        ip.set(b)
    N.set(Nv); T.set(Tv)
    out = [hl.Buffer(F64, [Nv]), hl.Buffer(F64, [Nv])]
    p.realize(out, target)
    ts = []
    for _ in range(30):
        t0 = time.perf_counter(); p.realize(out, target); ts.append(time.perf_counter() - t0)
    return np.median(ts) * 1e3, np.asarray(out[0]).copy()


pd, psd = build(True)
pm, psm = build(False)
for Nv, Tv in ((4000, 33), (501, 5), (4000, 8)):
    for rnd in range(3):
        td, od = bench(pd, psd, Nv, Tv); tm, om = bench(pm, psm, Nv, Tv)
        print("N=%d T=%d round %d: Diet %.4f ms, manual n-vectorized %.4f ms, ratio %.2f, max|diff| %.2g"
              % (Nv, Tv, rnd, td, tm, td / tm, np.max(np.abs(od - om))))
