"""S-repro (round 20): contractions written as updates on an output that Diet sends to its default stage rules instead of
its micro-kernels (its notes: 'an output with 2 contraction updates', 'the reduction is an output that other stages also
read', and the Tuple update). Each family is timed in variants (Diet / Adams2019 at the constant shape / compute_root ref,
median of 10 realizes; outputs checked against ref).  usage: python3 repro_updates20.py [rnn|logits|cgemm ...]"""
import sys
import numpy as np, halide as hl
from repro_util20 import time_all, TA, TB, fa

F32 = hl.Float(32)


def ip(name, *e):
    p = hl.ImageParam(F32, len(e), name)
    for k, x in enumerate(e):
        p.dim(k).set_estimate(0, x)
    return p


def rnn(variant):
    def build(S, sched):
        M, N, KX, KH = S['M'], S['N'], S['KX'], S['KH']
        j, i = hl.Var("j"), hl.Var("i")
        Xi, Wx, Hh, Wh, b = ip("Xi", KX, M), ip("Wx", N, KX), ip("Hh", KH, M), ip("Wh", N, KH), ip("b", N)
        out = hl.Func("out"); out[j, i] = b[j]
        rx = hl.RDom([hl.Range(0, KX)], "rx"); rh = hl.RDom([hl.Range(0, KH)], "rh")
        if variant == "two updates (as specified)":
            out[j, i] += Xi[rx, i] * Wx[j, rx]
            out[j, i] += Hh[rh, i] * Wh[j, rh]
        elif variant == "one update, both products in it (KX = KH)":
            out[j, i] += Xi[rx, i] * Wx[j, rx] + Hh[rx, i] * Wh[j, rx]
        else:  # first update only
            out[j, i] += Xi[rx, i] * Wx[j, rx]
        out.set_estimate(j, 0, N).set_estimate(i, 0, M)
        return [out], [Xi, Wx, Hh, Wh, b], []
    return build


def logits(variant):
    def build(S, sched):
        M, N, K = S['M'], S['N'], S['K']
        j, i = hl.Var("j"), hl.Var("i")
        Xi, W = ip("Xi", K, M), ip("W", N, K)
        k = hl.RDom([hl.Range(0, K)], "k")
        lg = hl.Func("lg"); lg[j, i] = 0.0; lg[j, i] += Xi[k, i] * W[j, k]
        rn = hl.RDom([hl.Range(0, N)], "rn"); rs = hl.RDom([hl.Range(0, N)], "rs")
        mx = hl.Func("mx"); mx[i] = hl.maximum(lg[rn, i])
        ex = hl.Func("ex"); ex[j, i] = hl.exp(lg[j, i] - mx[i])
        den = hl.Func("den"); den[i] = hl.sum(ex[rs, i])
        pr = hl.Func("pr"); pr[j, i] = ex[j, i] / den[i]
        outs = {"logits + probs outputs (as specified)": [lg, pr], "logits output only": [lg], "probs output only (logits internal)": [pr]}[variant]
        for o in outs:
            o.set_estimate(j, 0, N).set_estimate(i, 0, M)
        return outs, [Xi, W], [f for f in (lg, mx, ex, den) if f not in outs]
    return build


def cgemm(variant):
    def build(S, sched):
        M, N, K = S['M'], S['N'], S['K']
        j, i = hl.Var("j"), hl.Var("i")
        Ar, Ai, Br, Bi = ip("Ar", K, M), ip("Ai", K, M), ip("Br", N, K), ip("Bi", N, K)
        k = hl.RDom([hl.Range(0, K)], "k")
        ar, ai, br, bi = Ar[k, i], Ai[k, i], Br[j, k], Bi[j, k]
        if variant == "Tuple update (as specified)":
            out = hl.Func("out"); out[j, i] = (hl.f32(0), hl.f32(0))
            out[j, i] = (out[j, i][0] + (ar * br - ai * bi), out[j, i][1] + (ar * bi + ai * br))
            outs = [out]
        else:  # two Funcs, one += update each
            re = hl.Func("re"); re[j, i] = 0.0; re[j, i] += ar * br - ai * bi
            im = hl.Func("im"); im[j, i] = 0.0; im[j, i] += ar * bi + ai * br
            outs = [re, im]
        for o in outs:
            o.set_estimate(j, 0, N).set_estimate(i, 0, M)
        return outs, [Ar, Ai, Br, Bi], []
    return build


rng = np.random.default_rng(1)
R = lambda *s: fa(rng.standard_normal(s).astype(np.float32))
sel = sys.argv[1:] or ["rnn", "logits", "cgemm"]
if "rnn" in sel:
    RAN = {'M': (1, 128), 'N': (1, 192), 'KX': (1, 128), 'KH': (1, 192)}
    for v in (dict(M=128, N=192, KX=128, KH=128), dict(M=17, N=25, KX=17, KH=17)):
        d = [R(v['KX'], v['M']), R(v['N'], v['KX']), R(v['KH'], v['M']), R(v['N'], v['KH']), R(v['N'])]
        for var in ("two updates (as specified)", "one update, both products in it (KX = KH)", "first update only"):
            time_all("rnn %s %s" % (var, v), rnn(var), RAN, v, d, [(F32, [v['N'], v['M']])], TB)
if "logits" in sel:
    RAN = {'M': (1, 128), 'N': (1, 256), 'K': (1, 128)}
    for v in (dict(M=128, N=256, K=128), dict(M=17, N=33, K=17)):
        d = [R(v['K'], v['M']), (R(v['N'], v['K']) * 0.2).astype(np.float32)]
        for var, no in (("logits + probs outputs (as specified)", 2), ("logits output only", 1), ("probs output only (logits internal)", 1)):
            time_all("logits %s %s" % (var, v), logits(var), RAN, v, d, [(F32, [v['N'], v['M']])] * no, TA)
if "cgemm" in sel:
    RAN = {'M': (1, 128), 'N': (1, 128), 'K': (1, 128)}
    for v in (dict(M=128, N=128, K=128), dict(M=17, N=17, K=17)):
        d = [R(v['K'], v['M']), R(v['K'], v['M']), R(v['N'], v['K']), R(v['N'], v['K'])]
        for var in ("Tuple update (as specified)", "two Funcs, one update each"):
            time_all("cgemm %s %s" % (var, v), cgemm(var), RAN, v, d, [(F32, [v['N'], v['M']])] * 2, TA)
