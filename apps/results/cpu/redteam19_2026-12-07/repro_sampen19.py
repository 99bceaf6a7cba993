"""Round 19 repro (slow): the sample-entropy pair count c[i, s] = hl.sum over j of select(j != i and cheb[i, j, s] <= RT),
cheb[i, j, s] = inline hl.maximum over k < M of absd(x[i + k, s], x[j + k, s]). Diet computes cheb 'per tile and
reduction step' of the sum (a 16-lane buffer filled and re-read at every j) instead of fusing it into the sum's vector
loop. Variants: as specified (one count, then hl.sum over i); the max over k python-unrolled for a constant M = 4 (no
cheb Func). Diet vs Adams2019 (constant shape) vs ref at T=512, S=16, M=4, RT=50 and T=65, S=3. AVX-512.
Standalone: DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_sampen19.py"""
import numpy as np, halide as hl
from repro_util19 import time_all, TA, fa
U32 = hl.UInt(32)


def builder(variant):
    def build(S, sched):
        xs = hl.ImageParam(hl.Int(32), 2, "x")
        i, j, s = hl.Var("i"), hl.Var("j"), hl.Var("s")
        M = 4 if variant == "unrolled_M4" else S['M']
        NT = (S['T'] if isinstance(S['T'], int) else hl.Expr(S['T'])) - M
        rj = hl.RDom([hl.Range(0, NT)], "rj")
        funcs = []
        if variant == "unrolled_M4":
            d = hl.absd(xs[i, s], xs[rj, s])
            for k in range(1, 4):
                d = hl.max(d, hl.absd(xs[i + k, s], xs[rj + k, s]))
            cond = d
        else:
            rk = hl.RDom([hl.Range(0, M)], "rk")
            ch = hl.Func("cheb"); ch[i, j, s] = hl.maximum(hl.absd(xs[i + rk, s], xs[j + rk, s])); funcs.append(ch)
            cond = ch[i, rj, s]
        c = hl.Func("c"); c[i, s] = hl.sum(hl.select((rj != i) & (cond <= hl.u32(S['RT'])), hl.u32(1), hl.u32(0))); funcs.append(c)
        ri = hl.RDom([hl.Range(0, NT)], "ri")
        tot = hl.Func("tot"); tot[s] = hl.sum(c[ri, s]); funcs.append(tot)
        xs.dim(0).set_estimate(0, S['T']); xs.dim(1).set_estimate(0, S['S']); tot.set_estimate(s, 0, S['S'])
        return [tot], [xs], funcs
    return build


R = dict(T=(8, 512), S=(1, 16), M=(1, 4), RT=(0, 50))
for v in (dict(T=65, S=3, M=4, RT=7), dict(T=512, S=16, M=4, RT=50)):
    x = fa(np.cumsum(np.random.default_rng(1).integers(-20, 21, (v['T'], v['S'])), 0).astype(np.int32))
    for variant in ("as_specified", "unrolled_M4"):
        time_all("%s T=%d S=%d" % (variant, v['T'], v['S']), builder(variant), R, v, [x], [(U32, [v['S']])], TA)
