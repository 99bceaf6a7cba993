"""S-repro (round 20): LRN across channels. Diet reads hl.sum(ce[x,y,c+r,n] * ce[x,y,c+r,n]) as a 'contraction' of
constant_exterior with itself over rc and gives it matmul micro-kernels. Variants (Diet / Adams2019 at the constant shape /
compute_root ref, median of 10 realizes, outputs checked against ref):
  as specified | the square in its own Func sq = ce^2, then hl.sum(sq[..c + r..]) | the window sum only as the output"""
import numpy as np, halide as hl
from repro_util20 import time_all, TA, fa

BF = hl.BoundaryConditions
RANGES = {'W': (1, 64), 'H': (1, 64), 'C': (1, 64), 'NB': (1, 4), 'R': (0, 3)}


def mk(variant):
    def build(S, sched):
        inp = hl.ImageParam(hl.Float(32), 4, "inp")
        x, y, c, n = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("n")
        R = S['R']
        ce = BF.constant_exterior(inp, hl.f32(0), [(0, S['W']), (0, S['H']), (0, S['C']), (0, S['NB'])])
        rd = hl.RDom([hl.Range(-R, 2 * R + 1)], "rc")
        funcs = []
        if variant == "sq Func":
            sq = hl.Func("sq"); sq[x, y, c, n] = ce[x, y, c, n] * ce[x, y, c, n]; funcs.append(sq)
            ssq = hl.Func("ssq"); ssq[x, y, c, n] = hl.sum(sq[x, y, c + rd, n])
        else:
            ssq = hl.Func("ssq"); ssq[x, y, c, n] = hl.sum(ce[x, y, c + rd, n] * ce[x, y, c + rd, n])
        if variant == "window sum only":
            out = ssq
        else:
            funcs.append(ssq)
            out = hl.Func("out"); out[x, y, c, n] = inp[x, y, c, n] / hl.pow(2.0 + (1e-4 / hl.f32(2 * R + 1)) * ssq[x, y, c, n], 0.75)
        for k, e in enumerate((S['W'], S['H'], S['C'], S['NB'])):
            inp.dim(k).set_estimate(0, e)
        out.set_estimate(x, 0, S['W']).set_estimate(y, 0, S['H']).set_estimate(c, 0, S['C']).set_estimate(n, 0, S['NB'])
        return [out], [inp], funcs
    return build


for v in (dict(W=64, H=64, C=64, NB=4, R=3), dict(W=9, H=9, C=9, NB=1, R=1)):
    data = [fa((np.random.default_rng(1).standard_normal((v['W'], v['H'], v['C'], v['NB'])) * 20).astype(np.float32))]
    for variant in ("as specified", "sq Func", "window sum only"):
        time_all("%s %s" % (variant, ",".join("%s=%d" % kv for kv in v.items())), mk(variant), RANGES, v, data,
                 [(hl.Float(32), [v['W'], v['H'], v['C'], v['NB']])], TA)
