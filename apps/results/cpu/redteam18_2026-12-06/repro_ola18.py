"""Standalone repro for the iSTFT overlap-add slow row (AVX2 target, N=512, F=128, HOP=256, output 33024 samples):
  where:   the spec: ONE Tuple Func (num, den)[t] updated over RDom(0, F) with where(0 <= t - f HOP < N) (predicate on the pure t)
  select:  the same update without where(), the out-of-window terms zeroed by select
  bounded: the frame RDom made dependent on nothing but restricted by a second RDom over the (at most ceil(N/HOP)) frames
           that can cover t: f = t / HOP - k, k in [0, ceil(N / HOP)), with where(0 <= f < F)
Diet vs the unscheduled reference, median of 15 realizes.
usage: DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_ola18.py"""
import os, sys, time, math
import numpy as np
import halide as hl

hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt18/libautoschedule_diet.so"))
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
n_, f_, hop_ = 512, 128, 256


def run(kind, sched):
    N = hl.Param(hl.Int(32), "N", n_); N.set_range(16, 512)
    Fp = hl.Param(hl.Int(32), "F", f_); Fp.set_range(1, 128)
    HOP = hl.Param(hl.Int(32), "HOP", hop_); HOP.set_range(1, 256)
    fr = hl.ImageParam(hl.Float(32), 2, "frames")
    t, n = hl.Var("t"), hl.Var("n")
    w = hl.Func("win"); w[n] = 0.5 - 0.5 * hl.cos(2.0 * math.pi * hl.f32(n) / hl.f32(N))
    acc = hl.Func("acc"); acc[t] = (hl.f32(0), hl.f32(0))
    if kind == "bounded":
        r = hl.RDom([hl.Range(0, (N + HOP - 1) / HOP)], "rk")
        f = t / HOP - r.x
    else:
        r = hl.RDom([hl.Range(0, Fp)], "rf")
        f = r.x
    off = t - f * HOP
    valid = (off >= 0) & (off < N) & (f >= 0) & (f < Fp)
    oc = hl.clamp(off, 0, N - 1); fc = hl.clamp(f, 0, Fp - 1)
    if kind == "select":
        acc[t] = (acc[t][0] + hl.select(valid, fr[oc, fc] * w[oc], 0.0), acc[t][1] + hl.select(valid, w[oc] * w[oc], 0.0))
    else:
        r.where(valid)
        acc[t] = (acc[t][0] + fr[oc, fc] * w[oc], acc[t][1] + w[oc] * w[oc])
    y = hl.Func("y"); y[t] = acc[t][0] / hl.max(acc[t][1], 1e-3)
    L = (f_ - 1) * hop_ + n_
    if sched == "Diet":
        fr.dim(0).set_estimate(0, N); fr.dim(1).set_estimate(0, Fp); y.set_estimate(t, 0, (Fp - 1) * HOP + N)
    else:
        fr.dim(0).set_estimate(0, n_); fr.dim(1).set_estimate(0, f_); y.set_estimate(t, 0, L)
    p = hl.Pipeline(y)
    if sched == "Diet":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    else:
        w.compute_root(); acc.compute_root()
    p.compile_jit(T)
    b = hl.Buffer(hl.Float(32), [n_, f_]); np.asarray(b)[...] = np.random.default_rng(2).standard_normal((n_, f_)); fr.set(b)
    ob = hl.Buffer(hl.Float(32), [L]); p.realize(ob, T); ts = []
    for _ in range(15):
        a = time.perf_counter(); p.realize(ob, T); ts.append(time.perf_counter() - a)
    return 1e3 * float(np.median(ts)), np.asarray(ob).copy()


base = None
for kind in (sys.argv[1:] or ["where", "select", "bounded"]):
    md, od = run(kind, "Diet"); mr, orf = run(kind, "ref")
    base = orf if base is None else base
    print("ola %-8s Diet %.3f ms  ref %.3f ms  Diet/ref %.2f  max|Diet-ref| %.2g  max|ref-ref(where)| %.2g" % (kind, md, mr, md / mr, np.max(np.abs(od - orf)), np.max(np.abs(orf - base))), flush=True)
