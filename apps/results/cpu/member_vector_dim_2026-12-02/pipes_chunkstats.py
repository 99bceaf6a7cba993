"""Variants of the member-vector-dimension rule (a member whose readers reduce over its dimension 0
and read dimension 1 at their vectors takes its vectors along dimension 1), written for this
change's robustness check: statistics computed per chunk, then merged per row, as people write
them for numerical care or cache blocking. Same spec format as ../redteam12_2026-12-02/pipes12.py,
whose helpers it imports; run by round 9's harness (runany.py / gridone.py)."""
import importlib.util
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_s12 = importlib.util.spec_from_file_location("pipes_round12", os.path.join(_here, "..", "redteam12_2026-12-02", "pipes12.py"))
_r12 = importlib.util.module_from_spec(_s12)
_s12.loader.exec_module(_r12)
V, est_in, est_out, rimg, RD, runif, randint = _r12.V, _r12.est_in, _r12.est_out, _r12.rimg, _r12.RD, _r12.runif, _r12.randint
F32, I32, U8, U16 = _r12.F32, _r12.I32, _r12.U8, hl.UInt(16)
SPECS, spec, CREATED, F = _r12._round3.registry()
fa, TARGETS = _r12.fa, _r12.TARGETS


@spec("cs_chunk_sums_layernorm", "LayerNorm over d = 32*NC of x[d, t] from per-chunk sums and sums of squares (Funcs [c, t] over 32-wide chunks), merged per token by sums over RDom(NC)",
      {'NC': (1, 24), 'T': (1, 256)},
      outs=lambda v: [(F32, [32 * v['NC'], v['T']])],
      data=lambda v, r: [fa((r.standard_normal((32 * v['NC'], v['T'])) + 1).astype(np.float32))], tol=1e-3, target='A')
def cs1(S, E):
    x = hl.ImageParam(F32, 2, "x")
    c, t, d = V("c", "t", "d")
    r = RD((0, 32))
    ps = F("cs1_ps"); ps[c, t] = 0.0; ps[c, t] += x[c * 32 + r.x, t]
    pq = F("cs1_pq"); pq[c, t] = 0.0; pq[c, t] += x[c * 32 + r.x, t] * x[c * 32 + r.x, t]
    rc = RD((0, S['NC']), name="rc")
    s = F("cs1_s"); s[t] = 0.0; s[t] += ps[rc.x, t]
    q = F("cs1_q"); q[t] = 0.0; q[t] += pq[rc.x, t]
    D = hl.f32(32) * hl.Expr(S['NC'])
    mean = s[t] / D
    o = F("cs1_out"); o[d, t] = (x[d, t] - mean) / hl.sqrt(q[t] / D - mean * mean + 1e-5)
    est_in(x, 32 * E['NC'], E['T']); est_out(o, [d, t], 32 * E['NC'], E['T'])
    return [o], [x]


@spec("cs_online_softmax_chunks", "softmax over a vocabulary v = 64*NC of logits[v, t], the online way: per 64-wide chunk its max and its sum of exp(x - chunk max) (Funcs [c, t]), merged per token (global max over the chunk maxima, rescaled sum)",
      {'NC': (1, 16), 'T': (1, 128)},
      outs=lambda v: [(F32, [64 * v['NC'], v['T']])],
      data=lambda v, r: [fa((r.standard_normal((64 * v['NC'], v['T'])) * 3).astype(np.float32))], tol=1e-4, target='A')
def cs2(S, E):
    x = hl.ImageParam(F32, 2, "logits")
    c, t, v = V("c", "t", "v")
    r = RD((0, 64))
    cm = F("cs2_cmax"); cm[c, t] = hl.f32(-3e38); cm[c, t] = hl.max(cm[c, t], x[c * 64 + r.x, t])
    ce = F("cs2_csum"); ce[c, t] = 0.0; ce[c, t] += hl.exp(x[c * 64 + r.x, t] - cm[c, t])
    rc = RD((0, S['NC']), name="rc")
    gm = F("cs2_gmax"); gm[t] = hl.f32(-3e38); gm[t] = hl.max(gm[t], cm[rc.x, t])
    gs = F("cs2_gsum"); gs[t] = 0.0; gs[t] += ce[rc.x, t] * hl.exp(cm[rc.x, t] - gm[t])
    o = F("cs2_out"); o[v, t] = hl.exp(x[v, t] - gm[t]) / gs[t]
    est_in(x, 64 * E['NC'], E['T']); est_out(o, [v, t], 64 * E['NC'], E['T'])
    return [o], [x]


@spec("cs_row_block_means_u16", "a u16 image's rows normalized by their mean, the mean from 16-pixel block sums (Func [bx, y], u32) merged per row over RDom(NB): out = img - mean as f32",
      {'NB': (1, 40), 'H': (1, 300)},
      outs=lambda v: [(F32, [16 * v['NB'], v['H']])],
      data=lambda v, r: [fa(r.integers(0, 65535, (16 * v['NB'], v['H'])).astype(np.uint16))], tol=1e-2, target='B')
def cs3(S, E):
    img = hl.ImageParam(U16, 2, "img")
    bx, y, x = V("bx", "y", "x")
    r = RD((0, 16))
    bs = F("cs3_bsum"); bs[bx, y] = hl.u32(0); bs[bx, y] += hl.u32(img[bx * 16 + r.x, y])
    rb = RD((0, S['NB']), name="rb")
    rs = F("cs3_rsum"); rs[y] = hl.u32(0); rs[y] += bs[rb.x, y]
    o = F("cs3_out"); o[x, y] = hl.f32(img[x, y]) - hl.f32(rs[y]) / (hl.f32(16) * hl.Expr(S['NB']))
    est_in(img, 16 * E['NB'], E['H']); est_out(o, [x, y], 16 * E['NB'], E['H'])
    return [o], [img]


@spec("cs_dense_channel_sums_then_merge", "negative control: m[c, t] = sum over r of x[c, r, t] (dense along c, C up to 64), then s[t] = sum over c of m[c, t], out[c, t] = m[c, t] / s[t] (m also read pointwise)",
      {'C': (1, 64), 'T': (1, 128)},
      outs=lambda v: [(F32, [v['C'], v['T']])],
      data=lambda v, r: [fa(r.uniform(0.5, 1.5, (v['C'], 16, v['T'])).astype(np.float32))], tol=1e-4, target='A')
def cs4(S, E):
    x = hl.ImageParam(F32, 3, "x")
    c, t = V("c", "t")
    r = RD((0, 16))
    m = F("cs4_m"); m[c, t] = 0.0; m[c, t] += x[c, r.x, t]
    rc = RD((0, S['C']), name="rc")
    s = F("cs4_s"); s[t] = 0.0; s[t] += m[rc.x, t]
    o = F("cs4_out"); o[c, t] = m[c, t] / s[t]
    est_in(x, E['C'], 16, E['T']); est_out(o, [c, t], E['C'], E['T'])
    return [o], [x]


@spec("cs_welford_chunks_batched", "the Welford chunk LayerNorm with a batch: x[d, t, b], chunk statistics [c, t, b] (Tuple of 3 over 16-wide chunks), Chan's merge per (t, b)",
      {'NC': (1, 12), 'T': (1, 64), 'B': (1, 4)},
      outs=lambda v: [(F32, [16 * v['NC'], v['T'], v['B']])],
      data=lambda v, r: [fa((r.standard_normal((16 * v['NC'], v['T'], v['B'])) * 2 + 3).astype(np.float32))], tol=1e-4, target='B')
def cs5(S, E):
    xi = hl.ImageParam(F32, 3, "x")
    c, t, b, d = V("c", "t", "b", "d")
    ch = F("cs5_chunk"); ch[c, t, b] = (hl.f32(0), hl.f32(0), hl.f32(0))
    r = RD((0, 16))
    v = xi[c * 16 + r.x, t, b]
    n0, m0, q0 = ch[c, t, b][0], ch[c, t, b][1], ch[c, t, b][2]
    n1 = n0 + 1.0; dl = v - m0; m1 = m0 + dl / n1
    ch[c, t, b] = (n1, m1, q0 + dl * (v - m1))
    mg = F("cs5_merge"); mg[t, b] = (hl.f32(0), hl.f32(0), hl.f32(0))
    rc = RD((0, S['NC']), name="rc")
    nA, mA, qA = mg[t, b][0], mg[t, b][1], mg[t, b][2]
    nB, mB, qB = ch[rc.x, t, b][0], ch[rc.x, t, b][1], ch[rc.x, t, b][2]
    n = nA + nB; de = mB - mA
    mg[t, b] = (n, mA + de * nB / n, qA + qB + de * de * nA * nB / n)
    o = F("cs5_out"); o[d, t, b] = (xi[d, t, b] - mg[t, b][1]) / hl.sqrt(mg[t, b][2] / mg[t, b][0] + 1e-5)
    est_in(xi, 16 * E['NC'], E['T'], E['B']); est_out(o, [d, t, b], 16 * E['NC'], E['T'], E['B'])
    return [o], [xi]
