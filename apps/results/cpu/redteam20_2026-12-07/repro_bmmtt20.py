"""C-repro (round 20): Diet's JIT time on a batched f32 GEMM written as an update on the output, by operand layout.
For each layout: Diet auto_schedule seconds, JIT seconds, number of specialize() calls in its schedule, and then the
run times (Diet / Adams2019 at the constant shape / ref) at the large shape via repro_util20.time_all.
usage: python3 repro_bmmtt20.py [layout ...]   (layouts: TT NN NT TN)"""
import sys, time
import numpy as np, halide as hl
from repro_util20 import time_all, make, TB, fa

F32 = hl.Float(32)
RANGES = {'NB': (1, 16), 'M': (1, 96), 'N': (1, 96), 'K': (1, 96)}


def mk(layout):
    def build(S, sched):
        NB, M, N, K = S['NB'], S['M'], S['N'], S['K']
        j, i, b = hl.Var("j"), hl.Var("i"), hl.Var("b")
        ea = (M, K, NB) if layout[0] == "T" else (K, M, NB)   # A[i, k, b] (transposed) or A[k, i, b]
        eb = (K, N, NB) if layout[1] == "T" else (N, K, NB)   # B[k, j, b] (transposed) or B[j, k, b]
        A = hl.ImageParam(F32, 3, "A"); B = hl.ImageParam(F32, 3, "B")
        for p, e in ((A, ea), (B, eb)):
            for d, x in enumerate(e):
                p.dim(d).set_estimate(0, x)
        r = hl.RDom([hl.Range(0, K)], "rk")
        a = A[i, r, b] if layout[0] == "T" else A[r, i, b]
        bb = B[r, j, b] if layout[1] == "T" else B[j, r, b]
        out = hl.Func("out"); out[j, i, b] = 0.0
        out[j, i, b] += a * bb
        out.set_estimate(j, 0, N).set_estimate(i, 0, M).set_estimate(b, 0, NB)
        return [out], [A, B], []
    return build


T = hl.Target(TB)
v = dict(NB=16, M=96, N=96, K=96)
rng = np.random.default_rng(1)
for layout in sys.argv[1:] or ["TT", "NN", "NT", "TN"]:
    from repro_util20 import params
    S = params(RANGES)
    outs, ins, _ = mk(layout)(S, "Diet")
    p = hl.Pipeline(outs)
    t0 = time.time(); r = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)); t1 = time.time()
    p.compile_jit(T); t2 = time.time()
    print("%s: Diet auto_schedule %.2f s, JIT %.1f s, %d specialize() calls" % (layout, t1 - t0, t2 - t1, r.schedule_source.count("specialize(")), flush=True)
    ea = (v['M'], v['K'], v['NB']) if layout[0] == "T" else (v['K'], v['M'], v['NB'])
    eb = (v['K'], v['N'], v['NB']) if layout[1] == "T" else (v['N'], v['K'], v['NB'])
    data = [fa(rng.standard_normal(ea).astype(np.float32)), fa(rng.standard_normal(eb).astype(np.float32))]
    time_all("bmm %s %s" % (layout, v), mk(layout), RANGES, v, data, [(F32, [v['N'], v['M'], v['NB']])], TB)
