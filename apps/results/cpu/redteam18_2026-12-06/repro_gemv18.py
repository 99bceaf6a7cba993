"""Standalone repro for the power-iteration slow row: one gemv w[i] = hl.sum_j A[j, i] v[j] (A j-innermost, N = 1024,
AVX-512 target), where the vector operand v is
  input:   an input buffer
  normed:  a Func v[i] = u[i] / nrm[()] with a 0-D Func nrm = sqrt(hl.sum u^2) (as in power iteration steps 2 and 3)
  scaled:  a Func v[i] = 2 u[i] (a pointwise producer, no 0-D reduction)
Diet vs the unscheduled compute_root reference, median of 25 realizes, and Diet's note for the gemv's sum Func.
usage: DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_gemv18.py"""
import os, sys, time, io, contextlib
import numpy as np
import halide as hl

hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt18/libautoschedule_diet.so"))
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")


def run(kind, sched):
    Np = hl.Param(hl.Int(32), "N", 1024); Np.set_range(1, 1024)
    EN = Np if sched == "Diet" else 1024
    A = hl.ImageParam(hl.Float(32), 2, "A"); u = hl.ImageParam(hl.Float(32), 1, "u")
    i = hl.Var("i")
    fs = []
    if kind == "input":
        vv = u
    else:
        v = hl.Func("v"); fs.append(v)
        if kind == "normed":
            rn = hl.RDom([hl.Range(0, Np)], "rn")
            nrm = hl.Func("nrm"); nrm[()] = hl.sqrt(hl.sum(u[rn] * u[rn])); fs.append(nrm)
            v[i] = u[i] / nrm[()]
        else:
            v[i] = 2.0 * u[i]
        vv = v
    rj = hl.RDom([hl.Range(0, Np)], "rj")
    w = hl.Func("w"); w[i] = hl.sum(A[rj, i] * vv[rj])
    A.dim(0).set_estimate(0, EN); A.dim(1).set_estimate(0, EN); u.dim(0).set_estimate(0, EN); w.set_estimate(i, 0, EN)
    p = hl.Pipeline(w)
    if sched == "Diet":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    else:
        for f in fs:
            f.compute_root()
    p.compile_jit(T)
    n = 1024; r = np.random.default_rng(5)
    ab = hl.Buffer(hl.Float(32), [n, n]); np.asarray(ab)[...] = r.standard_normal((n, n)); A.set(ab)
    ub = hl.Buffer(hl.Float(32), [n]); np.asarray(ub)[...] = r.standard_normal(n); u.set(ub)
    Np.set(n)
    ob = hl.Buffer(hl.Float(32), [n]); p.realize(ob, T); ts = []
    for _ in range(25):
        a = time.perf_counter(); p.realize(ob, T); ts.append(time.perf_counter() - a)
    return 1e3 * float(np.median(ts)), np.asarray(ob).copy()


for kind in (sys.argv[1:] or ["input", "normed", "scaled"]):
    md, od = run(kind, "Diet"); mr, orf = run(kind, "ref")
    print("gemv v=%-7s Diet %.3f ms  ref %.3f ms  Diet/ref %.2f  max rel err %.2g" % (kind, md, mr, md / mr, np.max(np.abs(od - orf)) / np.max(np.abs(orf))), flush=True)
