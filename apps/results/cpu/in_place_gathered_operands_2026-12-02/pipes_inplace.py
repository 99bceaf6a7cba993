"""Variants of the in-place rule (a boundary condition read at data-dependent coordinates inside a
contraction), written for this change's robustness check: each is checked against the
unscheduled pipeline by round 9's harness (runany.py / gridone.py). Same spec format as
../redteam12_2026-12-02/pipes12.py, whose helpers it imports."""
import importlib.util
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_s12 = importlib.util.spec_from_file_location("pipes_round12", os.path.join(_here, "..", "redteam12_2026-12-02", "pipes12.py"))
_r12 = importlib.util.module_from_spec(_s12)
_s12.loader.exec_module(_r12)
V, est_in, est_out, rimg, RD, runif, randint = _r12.V, _r12.est_in, _r12.est_out, _r12.rimg, _r12.RD, _r12.runif, _r12.randint
F32, I32, U8, I8 = _r12.F32, _r12.I32, _r12.U8, _r12.I8
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _r12._round3.registry()


@spec("ip_embed_repeat_edge_tokens_inner", "out[t, n] = sum_k E_re[k, ids[t]] * W[k, n], E_re = repeat_edge of the table (ids clamped), tokens innermost: the gathered operand moves with the vectors",
      {'T': (1, 300), 'V': (1, 2000)},
      outs=lambda v: [(F32, [v['T'], 96])],
      data=lambda v, r: [rimg(r, (64, v['V'])), randint(r, (v['T'],), -5, v['V'] + 5, np.int32), runif(r, (64, 96), -0.1, 0.1)],
      tol=1e-4, target='A')
def ip1(S, E):
    Et = hl.ImageParam(F32, 2, "E"); ids = hl.ImageParam(I32, 1, "ids"); W = hl.ImageParam(F32, 2, "W")
    t, n = V("t", "n")
    re = BF.repeat_edge(Et, [(0, 64), (0, S['V'])])
    k = RD((0, 64), name="k")
    o = F("ip1_out"); o[t, n] = hl.sum(re[k.x, ids[t]] * W[k.x, n])
    est_in(Et, 64, E['V']); est_in(ids, E['T']); est_in(W, 64, 96); est_out(o, [t, n], E['T'], 96)
    return [o], [Et, ids, W]


@spec("ip_embed_bias_gelu_epilogue", "acc[n, t] = sum_k W[n, k] * ce[k, ids[t]] (ce constant_exterior), then a bias and tanh-GELU epilogue Func into the output",
      {'T': (1, 256), 'V': (1, 1000)},
      outs=lambda v: [(F32, [128, v['T']])],
      data=lambda v, r: [rimg(r, (96, v['V'])), randint(r, (v['T'],), -3, v['V'] + 2, np.int32), runif(r, (128, 96), -0.1, 0.1), runif(r, (128,), -1, 1)],
      tol=1e-4, target='B')
def ip2(S, E):
    Et = hl.ImageParam(F32, 2, "E"); ids = hl.ImageParam(I32, 1, "ids"); W = hl.ImageParam(F32, 2, "W"); b = hl.ImageParam(F32, 1, "b")
    n, t = V("n", "t")
    ce = BF.constant_exterior(Et, 0.0, [(0, 96), (0, S['V'])])
    k = RD((0, 96), name="k")
    acc = F("ip2_acc"); acc[n, t] = 0.0
    acc[n, t] += W[n, k.x] * ce[k.x, ids[t]]
    x = acc[n, t] + b[n]
    o = F("ip2_out"); o[n, t] = 0.5 * x * (1.0 + hl.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
    est_in(Et, 96, E['V']); est_in(ids, E['T']); est_in(W, 128, 96); est_in(b, 128); est_out(o, [n, t], 128, E['T'])
    return [o], [Et, ids, W, b]


@spec("ip_embed_batched_ids", "out[n, t, b] += W[n, k] * ce[k, ids[t, b]] over a batch B (both T and B run-time)",
      {'T': (1, 64), 'B': (1, 8), 'V': (1, 500)},
      outs=lambda v: [(F32, [64, v['T'], v['B']])],
      data=lambda v, r: [rimg(r, (64, v['V'])), randint(r, (v['T'], v['B']), -2, v['V'] + 2, np.int32), runif(r, (64, 64), -0.1, 0.1)],
      tol=1e-4, target='A')
def ip3(S, E):
    Et = hl.ImageParam(F32, 2, "E"); ids = hl.ImageParam(I32, 2, "ids"); W = hl.ImageParam(F32, 2, "W")
    n, t, b = V("n", "t", "b")
    ce = BF.constant_exterior(Et, 0.0, [(0, 64), (0, S['V'])])
    k = RD((0, 64), name="k")
    o = F("ip3_out"); o[n, t, b] = 0.0
    o[n, t, b] += W[n, k.x] * ce[k.x, ids[t, b]]
    est_in(Et, 64, E['V']); est_in(ids, E['T'], E['B']); est_in(W, 64, 64); est_out(o, [n, t, b], 64, E['T'], E['B'])
    return [o], [Et, ids, W]


@spec("ip_permuted_weight_rows", "out[n, t] = sum_k ce[k, perm[n]] * x[k, t]: weight rows gathered by an index buffer along the output's vector dimension (ce constant_exterior of the weights)",
      {'T': (1, 200), 'N': (1, 160)},
      outs=lambda v: [(F32, [v['N'], v['T']])],
      data=lambda v, r: [rimg(r, (48, 160)), randint(r, (v['N'],), -4, 170, np.int32), rimg(r, (48, v['T']))],
      tol=1e-4, target='B')
def ip4(S, E):
    Wt = hl.ImageParam(F32, 2, "Wt"); perm = hl.ImageParam(I32, 1, "perm"); x = hl.ImageParam(F32, 2, "x")
    n, t = V("n", "t")
    ce = BF.constant_exterior(Wt, 0.0, [(0, 48), (0, 160)])
    k = RD((0, 48), name="k")
    o = F("ip4_out"); o[n, t] = hl.sum(ce[k.x, perm[n]] * x[k.x, t])
    est_in(Wt, 48, 160); est_in(perm, E['N']); est_in(x, 48, E['T']); est_out(o, [n, t], E['N'], E['T'])
    return [o], [Wt, perm, x]


@spec("ip_deformable_1d_offsets", "out[co, x] += w[co, ci, r] * e[ci, x + r - 1 + off[x, r]] (e constant_exterior, offsets an i32 buffer): a 1-D deformable convolution, channels innermost",
      {'X': (1, 400), 'C': (1, 24)},
      outs=lambda v: [(F32, [v['C'], v['X']])],
      data=lambda v, r: [rimg(r, (v['C'], v['X'])), randint(r, (v['X'], 3), -3, 3, np.int32), runif(r, (v['C'], v['C'], 3), -0.2, 0.2)],
      tol=1e-4, target='A')
def ip5(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); off = hl.ImageParam(I32, 2, "off"); w = hl.ImageParam(F32, 3, "w")
    co, x = V("co", "x")
    e = BF.constant_exterior(inp, 0.0, [(0, S['C']), (0, S['X'])])
    r = RD((0, S['C']), (0, 3), name="r")
    o = F("ip5_out"); o[co, x] = 0.0
    o[co, x] += w[co, r.x, r.y] * e[r.x, x + r.y - 1 + off[x, r.y]]
    est_in(inp, E['C'], E['X']); est_in(off, E['X'], 3); est_in(w, E['C'], E['C'], 3); est_out(o, [co, x], E['C'], E['X'])
    return [o], [inp, off, w]


@spec("ip_embed_u8_i8_widening", "integer embedding projection: out[n, t] += i32(ce[k, ids[t]]) * i32(W[n, k]) with a u8 table behind constant_exterior and i8 weights",
      {'T': (1, 200), 'V': (1, 700)},
      outs=lambda v: [(I32, [64, v['T']])],
      data=lambda v, r: [rimg(r, (64, v['V']), np.uint8), randint(r, (v['T'],), -3, v['V'] + 2, np.int32), rimg(r, (64, 64), np.int8)],
      tol=0, target='A')
def ip6(S, E):
    Et = hl.ImageParam(U8, 2, "E"); ids = hl.ImageParam(I32, 1, "ids"); W = hl.ImageParam(I8, 2, "W")
    n, t = V("n", "t")
    ce = BF.constant_exterior(Et, hl.u8(0), [(0, 64), (0, S['V'])])
    k = RD((0, 64), name="k")
    o = F("ip6_out"); o[n, t] = 0
    o[n, t] += hl.i32(ce[k.x, ids[t]]) * hl.i32(W[n, k.x])
    est_in(Et, 64, E['V']); est_in(ids, E['T']); est_in(W, 64, 64); est_out(o, [n, t], 64, E['T'])
    return [o], [Et, ids, W]


@spec("ip_table_gathered_and_plain", "out[n, t] = sum_k ce[k, ids[t]] * ce[k, n]: the same boundary condition read at gathered rows and at plain ones (similarity of the first 32 table rows to the tokens' rows)",
      {'T': (1, 200), 'V': (32, 500)},
      outs=lambda v: [(F32, [32, v['T']])],
      data=lambda v, r: [rimg(r, (64, v['V'])), randint(r, (v['T'],), -3, v['V'] + 2, np.int32)],
      tol=1e-4, target='A')
def ip7(S, E):
    Et = hl.ImageParam(F32, 2, "E"); ids = hl.ImageParam(I32, 1, "ids")
    n, t = V("n", "t")
    ce = BF.constant_exterior(Et, 0.0, [(0, 64), (0, S['V'])])
    k = RD((0, 64), name="k")
    o = F("ip7_out"); o[n, t] = hl.sum(ce[k.x, ids[t]] * ce[k.x, n])
    est_in(Et, 64, E['V']); est_in(ids, E['T']); est_out(o, [n, t], 32, E['T'])
    return [o], [Et, ids]
