"""Standalone repro for round 17's compressor row (Diet 1.9-2.5x slower than Adams2019c and the serial reference): a
short reduction over channels, det[t] = max_c |x[c, t]| of interleaved audio (c innermost, C a Param 1..8, T up to
262144). For C >= 8 Diet rfactors the C-long reduction into 16-lane per-lane partials (half the lanes idle at C = 8, one
horizontal reduction per t); below 8 it vectorizes along t. Times Diet and the unscheduled reference at C = 7 and C = 8.
usage: DIET_PLUGIN=/tmp/rt17/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_rfactor17.py"""
import os, time
import numpy as np
import halide as hl

TGT = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt17/libautoschedule_diet.so"))


def build(sched):
    T = hl.Param(hl.Int(32), "T", 262144); T.set_range(1, 262144)
    C = hl.Param(hl.Int(32), "C", 8); C.set_range(1, 8)
    xin = hl.ImageParam(hl.Float(32), 2, "x")
    t = hl.Var("t")
    rc = hl.RDom([hl.Range(0, C)], "rc")
    det = hl.Func("det"); det[t] = hl.maximum(hl.abs(xin[rc, t]))
    xin.dim(0).set_estimate(0, 8); xin.dim(1).set_estimate(0, 262144)
    det.set_estimate(t, 0, 262144)
    p = hl.Pipeline(det)
    if sched != "ref":
        p.auto_schedule("Diet", TGT, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(TGT)
    return p, T, C, xin


rng = np.random.default_rng(7)
built = {s: build(s) for s in ("ref", "Diet")}
for Cv in (7, 8):
    buf = hl.Buffer(hl.Float(32), [Cv, 262144]); np.asarray(buf)[...] = rng.standard_normal((Cv, 262144)).astype(np.float32)
    res = {}
    for sched, (p, T, C, xin) in built.items():
        T.set(262144); C.set(Cv); xin.set(buf)
        o = hl.Buffer(hl.Float(32), [262144]); p.realize(o, TGT)
        ts = []
        for _ in range(20):
            t0 = time.perf_counter(); p.realize(o, TGT); ts.append(time.perf_counter() - t0)
        res[sched] = (np.asarray(o).copy(), 1e3 * float(np.median(ts)))
    print("C=%d: Diet %.3f ms, ref (serial) %.3f ms, equal: %s" % (Cv, res["Diet"][1], res["ref"][1],
          np.array_equal(res["Diet"][0], res["ref"][0])), flush=True)
