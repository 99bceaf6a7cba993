"""Red-team round 15 pipelines for Diet: new algorithms / writing styles not used by rounds 1-14. Same spec format as
round 14 (helpers imported from pipes14 -> pipes13 -> ... by importlib, not copied). target: 'A' = AVX-512 target,
'B' = AVX2 target. S: ranged int Params (CInt constants for Adams2019c), E: estimates (the Params for Diet, ints
otherwise). Every size and run-time scalar is a ranged int Param."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec14 = importlib.util.spec_from_file_location("pipes_round14", os.path.join(_here, "..", "redteam14_2026-12-03", "pipes14.py"))
_round14 = importlib.util.module_from_spec(_spec14)
_spec14.loader.exec_module(_round14)
_round3 = _round14._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round14.V, _round14.est_in, _round14.est_out, _round14.fa, _round14.rimg, _round14.RD, _round14.TARGETS
D, MX, runif, randint, fE, sq = _round14.D, _round14.MX, _round14.runif, _round14.randint, _round14.fE, _round14.sq
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round14.F32, _round14.F64, _round14.U8, _round14.U16, _round14.U32, _round14.U64,
                                                  _round14.I8, _round14.I16, _round14.I32, _round14.I64)
F16 = hl.Float(16)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def f16a(r, shape):
    return fa((r.standard_normal(shape) * 0.5).astype(np.float16))


# ============================================ ML / linear algebra =============================================

@spec("einsum_jihb_from_A_i_k_h_b_and_B_k_j_b_h_reduction_dim_middle_of_A_swapped_bh",
      "einsum out[j, i, h, b] = sum_k A[i, k, h, b] * B[k, j, b, h]: the reduction dim is dim 1 of A (between i and h), B has b and h swapped relative to A, output j innermost; inline hl.sum over RDom(0, K)",
      {'I': (1, 96), 'J': (1, 96), 'K': (1, 64), 'H': (1, 8), 'B': (1, 4)},
      outs=lambda v: [(F32, [v['J'], v['I'], v['H'], v['B']])],
      data=lambda v, r: [rimg(r, (v['I'], v['K'], v['H'], v['B'])), rimg(r, (v['K'], v['J'], v['B'], v['H']))], tol=1e-4, target='A')
def einmid(S, E):
    A = hl.ImageParam(F32, 4, "A"); Bm = hl.ImageParam(F32, 4, "Bm")
    j, i, h, b = V("j", "i", "h", "b")
    rk = RD((0, S['K']), name="rk")
    o = F("em_out"); o[j, i, h, b] = hl.sum(A[i, rk.x, h, b] * Bm[rk.x, j, b, h])
    est_in(A, E['I'], E['K'], E['H'], E['B']); est_in(Bm, E['K'], E['J'], E['B'], E['H']); est_out(o, [j, i, h, b], E['J'], E['I'], E['H'], E['B'])
    return [o], [A, Bm]


@spec("tcn_3_layers_causal_dilation_1_2_4_k3_t_innermost_select_guard_relu_residual_cout_param",
      "temporal conv net: 3 causal dilated conv layers (dilation 1, 2, 4, kernel 3) over [t, c] (t innermost, planar channels), causal padding by a hand-written select(t - d*k >= 0, ..., 0), explicit RDom(0, C) x kernel-tap updates, ReLU and residual add per layer; weights from one 4-D buffer w[k, ci, co, layer]",
      {'T': (1, 2048), 'C': (1, 32)},
      outs=lambda v: [(F32, [v['T'], v['C']])],
      data=lambda v, r: [rimg(r, (v['T'], v['C'])), fa((r.standard_normal((3, v['C'], v['C'], 3)) * (0.5 / math.sqrt(3 * v['C']))).astype(np.float32))], tol=1e-4, target='B')
def tcn(S, E):
    x = hl.ImageParam(F32, 2, "x"); w = hl.ImageParam(F32, 4, "w")
    t, c = V("t", "c")
    cur = F("tc_in"); cur[t, c] = x[t, c]
    for L, d in enumerate((1, 2, 4)):
        r = RD((0, 3), (0, S['C']), name="r%d" % L)
        acc = F("tc_acc%d" % L)
        acc[t, c] = 0.0
        tt = t - d * r.x
        acc[t, c] += w[r.x, r.y, c, L] * hl.select(tt >= 0, cur[hl.max(tt, 0), r.y], 0.0)
        nxt = F("tc_l%d" % L); nxt[t, c] = hl.max(acc[t, c], 0.0) + cur[t, c]
        cur = nxt
    est_in(x, E['T'], E['C']); est_in(w, 3, E['C'], E['C'], 3); est_out(cur, [t, c], E['T'], E['C'])
    return [cur], [x, w]


@spec("conv_transpose2d_s2_k3_gather_rdom_where_parity_even_ci_inner_cxy",
      "transposed conv stride 2, kernel 3, padding 1 written as a gather: out[co, X, Y] = bias + sum over RDom(ci, kx, ky).where((X + 1 - kx) % 2 == 0 && (Y + 1 - ky) % 2 == 0) of w[ci, co, kx, ky] * in[ci, (X+1-kx)/2, (Y+1-ky)/2] with the input index range checked by a select; channels innermost [c, x, y]; output 2W-1 x 2H-1",
      {'CI': (1, 16), 'CO': (1, 16), 'W': (1, 64), 'H': (1, 64)},
      outs=lambda v: [(F32, [v['CO'], 2 * v['W'] - 1, 2 * v['H'] - 1])],
      data=lambda v, r: [rimg(r, (v['CI'], v['W'], v['H'])), rimg(r, (v['CI'], v['CO'], 3, 3)), rimg(r, (v['CO'],))], tol=1e-4, target='A')
def convtw(S, E):
    x = hl.ImageParam(F32, 3, "x"); w = hl.ImageParam(F32, 4, "w"); bias = hl.ImageParam(F32, 1, "bias")
    co, X, Y = V("co", "X", "Y")
    r = RD((0, S['CI']), (0, 3), (0, 3), name="r")
    ux = X + 1 - r.y; uy = Y + 1 - r.z
    r.where(((ux % 2) == 0) & ((uy % 2) == 0))
    ix = ux / 2; iy = uy / 2
    inb = (ix >= 0) & (ix < S['W']) & (iy >= 0) & (iy < S['H'])
    o = F("ct_out")
    o[co, X, Y] = bias[co]
    o[co, X, Y] += w[r.x, co, r.y, r.z] * hl.select(inb, x[r.x, hl.clamp(ix, 0, S['W'] - 1), hl.clamp(iy, 0, S['H'] - 1)], 0.0)
    est_in(x, E['CI'], E['W'], E['H']); est_in(w, E['CI'], E['CO'], 3, 3); est_in(bias, E['CO'])
    est_out(o, [co, X, Y], E['CO'], 2 * E['W'] - 1, 2 * E['H'] - 1)
    return [o], [x, w, bias]


@spec("layernorm_tuple_sum_sumsq_update_then_linear_nt_then_gelu_erf_tokens_outer",
      "LayerNorm with (sum, sumsq) as a Tuple explicit update over RDom(0, D), gamma/beta buffers, then a linear layer with NT weights w[d, f] (d innermost of the weight, so both operands are k-contiguous) + bias, then exact GELU via hl.erf; [d, t] layout, tokens outer",
      {'D': (1, 256), 'FO': (1, 256), 'T': (1, 128)},
      outs=lambda v: [(F32, [v['FO'], v['T']])],
      data=lambda v, r: [rimg(r, (v['D'], v['T'])), runif(r, (v['D'],), 0.5, 1.5), runif(r, (v['D'],), -0.5, 0.5),
                         fa((r.standard_normal((v['D'], v['FO'])) / math.sqrt(v['D'])).astype(np.float32)), rimg(r, (v['FO'],))], tol=1e-4, target='B')
def lnlin(S, E):
    x = hl.ImageParam(F32, 2, "x"); g = hl.ImageParam(F32, 1, "g"); be = hl.ImageParam(F32, 1, "be")
    w = hl.ImageParam(F32, 2, "w"); bias = hl.ImageParam(F32, 1, "bias")
    d, t, f = V("d", "t", "f")
    rd = RD((0, S['D']), name="rd")
    st = F("ll_stats"); st[t] = (hl.f32(0), hl.f32(0))
    st[t] = (st[t][0] + x[rd.x, t], st[t][1] + x[rd.x, t] * x[rd.x, t])
    invD = 1.0 / fE(S['D'])
    mean = st[t][0] * invD
    var = hl.max(st[t][1] * invD - mean * mean, 0.0)
    ln = F("ll_norm"); ln[d, t] = (x[d, t] - mean) / hl.sqrt(var + 1e-5) * g[d] + be[d]
    rk = RD((0, S['D']), name="rk")
    lin = F("ll_lin"); lin[f, t] = bias[f]
    lin[f, t] += ln[rk.x, t] * w[rk.x, f]
    o = F("ll_gelu"); o[f, t] = 0.5 * lin[f, t] * (1.0 + hl.erf(lin[f, t] * (1.0 / math.sqrt(2.0))))
    est_in(x, E['D'], E['T']); est_in(g, E['D']); est_in(be, E['D']); est_in(w, E['D'], E['FO']); est_in(bias, E['FO'])
    est_out(o, [f, t], E['FO'], E['T'])
    return [o], [x, g, be, w, bias]


@spec("mha_head_view_x_d_plus_32h_scores_softmax_context_written_back_by_divmod_c",
      "multi-head attention where heads are a view of the model dim: q[d + 32*h, t], k[d + 32*h, s], v[d + 32*h, s] (DH = 32 constant, H heads a Param); scores[s, t, h] by hl.sum over d, softmax over s (hl.maximum then exp then hl.sum), context written straight to out[c, t] with h = c / 32, d = c % 32 computed indices",
      {'H': (1, 8), 'T': (1, 128), 'SL': (1, 128)},
      outs=lambda v: [(F32, [32 * v['H'], v['T']])],
      data=lambda v, r: [rimg(r, (32 * v['H'], v['T'])), rimg(r, (32 * v['H'], v['SL'])), rimg(r, (32 * v['H'], v['SL']))], tol=1e-4, target='A')
def mhaview(S, E):
    q = hl.ImageParam(F32, 2, "q"); k = hl.ImageParam(F32, 2, "k"); vv = hl.ImageParam(F32, 2, "v")
    s, t, h, c = V("s", "t", "h", "c")
    rd = RD((0, 32), name="rd")
    sc = F("mv_scores"); sc[s, t, h] = hl.sum(q[rd.x + 32 * h, t] * k[rd.x + 32 * h, s]) * (1.0 / math.sqrt(32.0))
    rs = RD((0, S['SL']), name="rs")
    mx = F("mv_max"); mx[t, h] = hl.maximum(sc[rs.x, t, h])
    ex = F("mv_exp"); ex[s, t, h] = hl.exp(sc[s, t, h] - mx[t, h])
    rs2 = RD((0, S['SL']), name="rs2")
    den = F("mv_den"); den[t, h] = hl.sum(ex[rs2.x, t, h])
    rs3 = RD((0, S['SL']), name="rs3")
    hh = c / 32; dd = c % 32
    o = F("mv_ctx"); o[c, t] = hl.sum(ex[rs3.x, t, hh] * vv[dd + 32 * hh, rs3.x]) / den[t, hh]
    est_in(q, 32 * E['H'], E['T']); est_in(k, 32 * E['H'], E['SL']); est_in(vv, 32 * E['H'], E['SL']); est_out(o, [c, t], 32 * E['H'], E['T'])
    return [o], [q, k, vv]


@spec("swiglu_tuple_valued_gate_up_matmul_one_func_silu_times_then_down_proj",
      "SwiGLU with the two projections sharing x written as ONE Tuple-valued Func gu[f, t] = (sum x*Wg, sum x*Wu) via an explicit Tuple update over RDom(0, D), then h = silu(gate) * up, then down-projection back to D; weights [f, d] (f innermost)",
      {'D': (1, 128), 'FF': (1, 256), 'T': (1, 64)},
      outs=lambda v: [(F32, [v['D'], v['T']])],
      data=lambda v, r: [rimg(r, (v['D'], v['T'])), fa((r.standard_normal((v['FF'], v['D'])) / math.sqrt(v['D'])).astype(np.float32)),
                         fa((r.standard_normal((v['FF'], v['D'])) / math.sqrt(v['D'])).astype(np.float32)),
                         fa((r.standard_normal((v['D'], v['FF'])) / math.sqrt(v['FF'])).astype(np.float32))], tol=1e-4, target='B')
def swtuple(S, E):
    x = hl.ImageParam(F32, 2, "x"); wg = hl.ImageParam(F32, 2, "wg"); wu = hl.ImageParam(F32, 2, "wu"); wd = hl.ImageParam(F32, 2, "wd")
    f, t, d = V("f", "t", "d")
    rk = RD((0, S['D']), name="rk")
    gu = F("sg_gu"); gu[f, t] = (hl.f32(0), hl.f32(0))
    gu[f, t] = (gu[f, t][0] + x[rk.x, t] * wg[f, rk.x], gu[f, t][1] + x[rk.x, t] * wu[f, rk.x])
    g = gu[f, t][0]
    hmid = F("sg_h"); hmid[f, t] = g / (1.0 + hl.exp(-g)) * gu[f, t][1]
    rf = RD((0, S['FF']), name="rf")
    o = F("sg_out"); o[d, t] = hl.sum(hmid[rf.x, t] * wd[d, rf.x])
    est_in(x, E['D'], E['T']); est_in(wg, E['FF'], E['D']); est_in(wu, E['FF'], E['D']); est_in(wd, E['D'], E['FF'])
    est_out(o, [d, t], E['D'], E['T'])
    return [o], [x, wg, wu, wd]


@spec("lora_linear_xW_plus_alpha_over_rank_x_A_B_rank_param_n_inner",
      "low-rank adapter: y[n, m] = sum_k x[k, m] W[n, k] + (alpha / R) * sum_r (sum_k x[k, m] A[r, k]) B[n, r]; rank R a Param (1..16), alpha an int Param; the down-projection xa[r, m] is its own Func, both sums inline hl.sum",
      {'M': (1, 128), 'K': (1, 256), 'N': (1, 256), 'R': (1, 16), 'AL': (1, 32)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), fa((r.standard_normal((v['N'], v['K'])) / math.sqrt(v['K'])).astype(np.float32)),
                         fa((r.standard_normal((v['R'], v['K'])) / math.sqrt(v['K'])).astype(np.float32)), rimg(r, (v['N'], v['R']))], tol=1e-4, target='A')
def lora(S, E):
    x = hl.ImageParam(F32, 2, "x"); W = hl.ImageParam(F32, 2, "W"); A = hl.ImageParam(F32, 2, "A"); Bm = hl.ImageParam(F32, 2, "Bm")
    n, m, rr = V("n", "m", "rr")
    rk = RD((0, S['K']), name="rk")
    xa = F("lo_xa"); xa[rr, m] = hl.sum(x[rk.x, m] * A[rr, rk.x])
    rk2 = RD((0, S['K']), name="rk2")
    base = F("lo_base"); base[n, m] = hl.sum(x[rk2.x, m] * W[n, rk2.x])
    rr_ = RD((0, S['R']), name="rr_")
    o = F("lo_out"); o[n, m] = base[n, m] + fE(S['AL']) / fE(S['R']) * hl.sum(xa[rr_.x, m] * Bm[n, rr_.x])
    est_in(x, E['K'], E['M']); est_in(W, E['N'], E['K']); est_in(A, E['R'], E['K']); est_in(Bm, E['N'], E['R'])
    est_out(o, [n, m], E['N'], E['M'])
    return [o], [x, W, A, Bm]


@spec("batched_8x8_sandwich_A_B_At_python_unrolled_sums_batch_outer",
      "many tiny 8x8 products C = A B A^T per batch element, [i, j, n] (n outermost), each written as a Python-generated unrolled 8-term sum expression (no RDom): T[i, j, n] = A[i,0,n] B[0,j,n] + ... ; C[i, j, n] = T[i,0,n] A[j,0,n] + ...",
      {'N': (1, 16384)},
      outs=lambda v: [(F32, [8, 8, v['N']])],
      data=lambda v, r: [rimg(r, (8, 8, v['N'])), rimg(r, (8, 8, v['N']))], tol=1e-4, target='B')
def bsand(S, E):
    A = hl.ImageParam(F32, 3, "A"); Bm = hl.ImageParam(F32, 3, "Bm")
    i, j, n = V("i", "j", "n")
    T = F("bs_T"); T[i, j, n] = sum(A[k, i, n] * Bm[j, k, n] for k in range(8))
    C = F("bs_C"); C[i, j, n] = sum(T[k, i, n] * A[k, j, n] for k in range(8))
    est_in(A, 8, 8, E['N']); est_in(Bm, 8, 8, E['N']); est_out(C, [i, j, n], 8, 8, E['N'])
    return [C], [A, Bm]


@spec("gemv_decode_T1_f16_weights_k_inner_f32_accum_hlsum_bias_silu_f16_out",
      "T = 1 decode step matrix-vector product: y[n] = silu(bias[n] + sum_k f32(W[k, n]) * f32(x[k])) with float16 storage of W, x, bias and the output (f32 accumulation, f16c on the target), K innermost of W",
      {'N': (1, 4096), 'K': (1, 1024)},
      outs=lambda v: [(F16, [v['N']])],
      data=lambda v, r: [f16a(r, (v['K'], v['N'])), f16a(r, (v['K'],)), f16a(r, (v['N'],))], tol=2e-3, target='A')
def gemvf16(S, E):
    W = hl.ImageParam(F16, 2, "W"); x = hl.ImageParam(F16, 1, "x"); bias = hl.ImageParam(F16, 1, "bias")
    n, = V("n")
    rk = RD((0, S['K']), name="rk")
    acc = F("gv_acc"); acc[n] = hl.f32(bias[n]) + hl.sum(hl.f32(W[rk.x, n]) * hl.f32(x[rk.x]))
    o = F("gv_out"); o[n] = hl.cast(F16, acc[n] / (1.0 + hl.exp(-acc[n])))
    est_in(W, E['K'], E['N']); est_in(x, E['K']); est_in(bias, E['N']); est_out(o, [n], E['N'])
    return [o], [W, x, bias]


@spec("qgemm_i16_per_row_and_per_col_zero_point_buffers_i32_acc_shift_param_i16_sat",
      "int16 GEMM with zero points: C[n, m] = i16_sat((sum_k (i32(a[k, m]) - za[m]) * (i32(b[n, k]) - zb[n])) >> SH) with per-row / per-column i16 zero-point buffers and a run-time shift SH",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 256), 'SH': (0, 16)},
      outs=lambda v: [(I16, [v['N'], v['M']])],
      data=lambda v, r: [randint(r, (v['K'], v['M']), -2000, 2000, np.int16), randint(r, (v['N'], v['K']), -2000, 2000, np.int16),
                         randint(r, (v['M'],), -50, 50, np.int16), randint(r, (v['N'],), -50, 50, np.int16)], target='B')
def qg16(S, E):
    a = hl.ImageParam(I16, 2, "a"); b = hl.ImageParam(I16, 2, "b"); za = hl.ImageParam(I16, 1, "za"); zb = hl.ImageParam(I16, 1, "zb")
    n, m = V("n", "m")
    rk = RD((0, S['K']), name="rk")
    acc = F("qg_acc"); acc[n, m] = 0
    acc[n, m] += (hl.i32(a[rk.x, m]) - hl.i32(za[m])) * (hl.i32(b[n, rk.x]) - hl.i32(zb[n]))
    o = F("qg_out"); o[n, m] = hl.i16_sat(acc[n, m] >> S['SH'])
    est_in(a, E['K'], E['M']); est_in(b, E['N'], E['K']); est_in(za, E['M']); est_in(zb, E['N']); est_out(o, [n, m], E['N'], E['M'])
    return [o], [a, b, za, zb]


# ============================================ image / vision ==================================================

@spec("canny_nms_dir_index_mux_gather_offsets_i16_sobel_constant_exterior_u16_mag_u8",
      "Canny-style non-maximum suppression: i16 Sobel on constant_exterior u8, u16 L1 magnitude, the gradient direction quantized to 4 bins by integer slope tests (|gy|*5 < |gx|*2 etc., no atan2) into an i32 Func, then the two neighbours read at computed offsets e[x + mux(dir, [1,1,0,-1]), y + mux(dir, [0,1,1,1])]; keep if >= both and >= run-time threshold TH",
      {'W': (1, 1024), 'H': (1, 768), 'TH': (0, 255)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def cannymux(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.constant_exterior(im, 0, [(0, S['W']), (0, S['H'])])
    p = lambda dx, dy: hl.i16(e[x + dx, y + dy])
    gx = F("cm_gx"); gx[x, y] = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1))
    gy = F("cm_gy"); gy[x, y] = (p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1))
    ax = hl.i32(hl.abs(gx[x, y])); ay = hl.i32(hl.abs(gy[x, y]))
    mag = F("cm_mag"); mag[x, y] = hl.u16(ax + ay)
    diag_sign = (gx[x, y] > 0) == (gy[x, y] > 0)
    dr = F("cm_dir"); dr[x, y] = hl.select(ay * 5 < ax * 2, 0, ax * 5 < ay * 2, 2, diag_sign, 1, 3)
    mb = BF.constant_exterior(mag, hl.u16(0), [(0, S['W']), (0, S['H'])])
    ox = hl.mux(dr[x, y], [1, 1, 0, -1]); oy = hl.mux(dr[x, y], [0, 1, 1, 1])
    m0 = mag[x, y]
    keep = (m0 >= mb[x + ox, y + oy]) & (m0 >= mb[x - ox, y - oy]) & (hl.i32(m0) >= S['TH'])
    o = F("cm_out"); o[x, y] = hl.select(keep, hl.u8(hl.min(m0, 255)), hl.u8(0))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("joint_bilateral_upsample_2x_lowres_f32_highres_u8_guide_5x5_range_lut_func",
      "joint bilateral upsampling: a low-res solution L (W x H, f32) upsampled 2x guided by a high-res u8 guide G (2W x 2H): out[x, y] = sum over a 5x5 RDom of L[x/2 + i, y/2 + j] * ws[i, j] * lut[|G[x, y] - G[2(x/2+i), 2(y/2+j)]|] / sum of weights; spatial weights and a 256-entry range LUT as Funcs; repeat_edge on both inputs; range sigma SR a run-time int",
      {'W': (1, 320), 'H': (1, 240), 'SR': (1, 64)},
      outs=lambda v: [(F32, [2 * v['W'], 2 * v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), randint(r, (2 * v['W'], 2 * v['H']), 0, 255, np.uint8)], tol=1e-4, target='B')
def jbu(S, E):
    L = hl.ImageParam(F32, 2, "L"); G = hl.ImageParam(U8, 2, "G")
    x, y, i, j, dv = V("x", "y", "i", "j", "dv")
    Le = BF.repeat_edge(L, [(0, S['W']), (0, S['H'])])
    Ge = BF.repeat_edge(G, [(0, 2 * S['W']), (0, 2 * S['H'])])
    ws = F("jb_ws"); ws[i, j] = hl.exp(-hl.f32(i * i + j * j) * (1.0 / 4.5))
    sr = fE(S['SR'])
    lut = F("jb_lut"); lut[dv] = hl.exp(-hl.f32(dv * dv) / (2.0 * sr * sr))
    r = RD((-2, 5), (-2, 5), name="r")
    lx = x / 2 + r.x; ly = y / 2 + r.y
    wgt = ws[r.x, r.y] * lut[hl.i32(hl.absd(Ge[x, y], Ge[2 * lx, 2 * ly]))]
    num = F("jb_num"); num[x, y] = hl.sum(wgt * Le[lx, ly])
    den = F("jb_den"); den[x, y] = hl.sum(wgt)
    o = F("jb_out"); o[x, y] = num[x, y] / den[x, y]
    est_in(L, E['W'], E['H']); est_in(G, 2 * E['W'], 2 * E['H']); est_out(o, [x, y], 2 * E['W'], 2 * E['H'])
    return [o], [L, G]


@spec("tonemap_0d_log_average_luminance_0d_max_reinhard_extended_key_param_planar_rgb_to_u8_gamma",
      "global tone mapping: luminance Func of planar f32 RGB [x, y, c], a 0-D log-average exp(mean(log(1e-4 + Y))) by hl.sum, a 0-D max luminance by hl.maximum, Reinhard extended curve with key a run-time int (per mille), colour ratio preserved, gamma 1/2.2 and u8 conversion with a hand clamp",
      {'W': (1, 1024), 'H': (1, 768), 'KEY': (1, 1000)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(np.exp(r.standard_normal((v['W'], v['H'], 3)) * 1.5).astype(np.float32))], tol=1e-4, target='A')
def tmlog(S, E):
    im = hl.ImageParam(F32, 3, "im")
    x, y, c = V("x", "y", "c")
    Y = F("tm_Y"); Y[x, y] = 0.2126 * im[x, y, 0] + 0.7152 * im[x, y, 1] + 0.0722 * im[x, y, 2]
    r = RD((0, S['W']), (0, S['H']), name="r")
    npx = fE(S['W']) * fE(S['H'])
    lav = F("tm_logavg"); lav[()] = hl.exp(hl.sum(hl.log(1e-4 + Y[r.x, r.y])) / npx)
    r2 = RD((0, S['W']), (0, S['H']), name="r2")
    ymax = F("tm_ymax"); ymax[()] = hl.maximum(Y[r2.x, r2.y])
    key = fE(S['KEY']) * 0.001
    Ls = key / lav[()] * Y[x, y]
    Lw = key / lav[()] * ymax[()]
    Ld = F("tm_Ld"); Ld[x, y] = Ls * (1.0 + Ls / (Lw * Lw)) / (1.0 + Ls)
    v = im[x, y, c] / hl.max(Y[x, y], 1e-6) * Ld[x, y]
    g = hl.pow(hl.clamp(v, 0.0, 1.0), 1.0 / 2.2) * 255.0 + 0.5
    o = F("tm_out"); o[x, y, c] = hl.u8(hl.select(g > 255.0, 255.0, g))
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [im]


@spec("demosaic_bilinear_cfa_phase_param_parity_selects_u16_planar_rgb_out_mirror_interior",
      "bilinear demosaic where the CFA phase is a run-time Param PH (0..3: RGGB, GRBG, GBRG, BGGR) combined into the site parities ((x + PH%2) & 1, (y + PH/2) & 1), mirror_interior boundary, cross / diagonal / horizontal / vertical averages as Funcs, per-site selects, planar u16 output [x, y, c] via hl.mux on c",
      {'W': (2, 1024), 'H': (2, 768), 'PH': (0, 3)},
      outs=lambda v: [(U16, [v['W'], v['H'], 3])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16)], target='B')
def demph(S, E):
    raw = hl.ImageParam(U16, 2, "raw")
    x, y, c = V("x", "y", "c")
    e = BF.mirror_interior(raw, [(0, S['W']), (0, S['H'])])
    p = lambda dx, dy: hl.u32(e[x + dx, y + dy])
    cross = F("dp_cross"); cross[x, y] = hl.u16((p(-1, 0) + p(1, 0) + p(0, -1) + p(0, 1) + 2) / 4)
    diag = F("dp_diag"); diag[x, y] = hl.u16((p(-1, -1) + p(1, -1) + p(-1, 1) + p(1, 1) + 2) / 4)
    hor = F("dp_hor"); hor[x, y] = hl.u16((p(-1, 0) + p(1, 0) + 1) / 2)
    ver = F("dp_ver"); ver[x, y] = hl.u16((p(0, -1) + p(0, 1) + 1) / 2)
    px = (x + S['PH'] % 2) & 1; py = (y + S['PH'] / 2) & 1
    isR = (px == 0) & (py == 0); isB = (px == 1) & (py == 1); isGr = (px == 1) & (py == 0)
    ctr = e[x, y]
    R = hl.select(isR, ctr, isB, diag[x, y], isGr, hor[x, y], ver[x, y])
    Bc = hl.select(isB, ctr, isR, diag[x, y], isGr, ver[x, y], hor[x, y])
    G = hl.select(isR | isB, cross[x, y], ctr)
    o = F("dp_out"); o[x, y, c] = hl.mux(c, [R, G, Bc])
    est_in(raw, E['W'], E['H']); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [raw]


@spec("lens_brown_k1_k2_int_params_bilinear_gather_constant_exterior_interleaved_rgb_u8_float_coords_func",
      "lens distortion correction: for each output pixel the source coordinate (a 2-Tuple Func of float coords) from Brown's radial model r' = r (1 + k1 r^2 + k2 r^4) with k1, k2 run-time ints in 1e-3 units about the image centre, then a bilinear gather from an interleaved u8 RGB [c, x, y] input with constant_exterior (black) outside, rounded back to interleaved u8",
      {'W': (1, 1024), 'H': (1, 768), 'K1': (0, 400), 'K2': (0, 200)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8)], tol=1e-4, target='A')
def lensbr(S, E):
    im = hl.ImageParam(U8, 3, "im")
    c, x, y = V("c", "x", "y")
    e = BF.constant_exterior(im, 0, [(0, 3), (0, S['W']), (0, S['H'])])
    cx = fE(S['W']) * 0.5; cy = fE(S['H']) * 0.5; nrm = 1.0 / hl.max(cx, cy)
    ux = (hl.f32(x) + 0.5 - cx) * nrm; uy = (hl.f32(y) + 0.5 - cy) * nrm
    r2 = ux * ux + uy * uy
    k1 = fE(S['K1']) * 0.001; k2 = fE(S['K2']) * 0.001
    s = 1.0 + k1 * r2 + k2 * r2 * r2
    src = F("lb_src"); src[x, y] = (ux * s / nrm + cx - 0.5, uy * s / nrm + cy - 0.5)
    sx = src[x, y][0]; sy = src[x, y][1]
    fx = hl.floor(sx); fy = hl.floor(sy); ix = hl.i32(fx); iy = hl.i32(fy); ax = sx - fx; ay = sy - fy
    g = lambda dx, dy: hl.f32(e[c, ix + dx, iy + dy])
    v = (g(0, 0) * (1 - ax) + g(1, 0) * ax) * (1 - ay) + (g(0, 1) * (1 - ax) + g(1, 1) * ax) * ay
    o = F("lb_out"); o[c, x, y] = hl.u8(hl.clamp(v + 0.5, 0.0, 255.0))
    est_in(im, 3, E['W'], E['H']); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [im]


@spec("integral_histogram_8bins_u16_counts_scan_x_then_scan_y_updates_box_query_radius_param_normalized",
      "integral histogram: bin index b = im >> 5 (8 bins of u8), a 3-D u16/i32 count Func ih[b, x, y] = (bin == b) then two explicit scans (x then y) on the same Func, then local 8-bin histogram features over a (2R+1)^2 box by 4-corner lookups with clamped indices, normalised to f32 by the box area; [b, x, y] layout (bins innermost)",
      {'W': (1, 640), 'H': (1, 480), 'R': (1, 16)},
      outs=lambda v: [(F32, [8, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], tol=1e-5, target='B')
def ihist(S, E):
    im = hl.ImageParam(U8, 2, "im")
    b, x, y = V("b", "x", "y")
    W, H, R = S['W'], S['H'], S['R']
    ih = F("ih_int"); ih[b, x, y] = hl.select(hl.i32(im[x, y] >> 5) == b, 1, 0)
    rx = RD((1, W - 1), name="rx"); ih[b, rx.x, y] = ih[b, rx.x, y] + ih[b, rx.x - 1, y]
    ry = RD((1, H - 1), name="ry"); ih[b, x, ry.x] = ih[b, x, ry.x] + ih[b, x, ry.x - 1]
    x0 = x - R - 1; y0 = y - R - 1; x1 = hl.min(x + R, W - 1); y1 = hl.min(y + R, H - 1)
    I = lambda xx, yy: hl.select((xx < 0) | (yy < 0), 0, ih[b, hl.clamp(xx, 0, W - 1), hl.clamp(yy, 0, H - 1)])
    cnt = I(x1, y1) - I(x0, y1) - I(x1, y0) + I(x0, y0)
    area = (x1 - hl.max(x0, -1)) * (y1 - hl.max(y0, -1))
    o = F("ih_feat"); o[b, x, y] = hl.f32(cnt) / hl.f32(area)
    est_in(im, E['W'], E['H']); est_out(o, [b, x, y], 8, E['W'], E['H'])
    return [o], [im]


def _lz2(t):
    at = hl.abs(t)
    pt = math.pi * t
    return hl.select(at < 1e-4, 1.0, hl.select(at >= 2.0, 0.0, 2.0 * hl.sin(pt) * hl.sin(pt * 0.5) / (pt * pt)))


@spec("lanczos2_antialiased_downscale_runtime_factor_tenths_support_grows_rdom_expr_extent_x_then_y",
      "anti-aliased separable Lanczos-2 downscale by a run-time factor SC/10 (10..40 tenths): the kernel is stretched by the factor, so each output sums over an RDom of extent 4*SC/10 + 2 (an Expr of the Param), weights normalised per output by a separate weight-sum Func, x pass then y pass on repeat_edge f32",
      {'W': (1, 1024), 'H': (1, 768), 'SC': (10, 40)},
      outs=lambda v: [(F32, [max(1, v['W'] * 10 // v['SC']), max(1, v['H'] * 10 // v['SC'])])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def lanczaa(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    sc = fE(S['SC']) * 0.1
    ext = (4 * S['SC']) / 10 + 2
    r = RD((0, ext), name="r")

    def taps(o):
        ctr = (hl.f32(o) + 0.5) * sc - 0.5
        base = hl.i32(hl.floor(ctr)) - (2 * S['SC']) / 10
        return ctr, base
    cx, bx = taps(x)
    wx = _lz2((hl.f32(bx + r.x) - cx) / sc)
    nx = F("lz_wsx"); nx[x] = hl.sum(wx)
    hx = F("lz_x"); hx[x, y] = hl.sum(wx * e[bx + r.x, y]) / nx[x]
    ry = RD((0, ext), name="ry")
    cy, by = taps(y)
    wy = _lz2((hl.f32(by + ry.x) - cy) / sc)
    ny = F("lz_wsy"); ny[y] = hl.sum(wy)
    o = F("lz_out"); o[x, y] = hl.sum(wy * hx[x, by + ry.x]) / ny[y]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], D(E['W'] * 10, 40), D(E['H'] * 10, 40))
    return [o], [im]


@spec("unsharp_u16_binomial3x3_sep_shift_amount_q8_param_widen_i32_sat_u16_threshold_param",
      "unsharp mask on u16: separable [1 2 1] binomial blur with >> 2 each pass (u32 intermediates, repeat_edge), detail = i32(in) - blur, applied only where |detail| > TH, out = u16_sat(in + (detail * AMT) >> 8) with AMT a run-time Q8 amount (0..1024)",
      {'W': (1, 1024), 'H': (1, 768), 'AMT': (0, 1024), 'TH': (0, 64)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16)], target='B')
def unsh16(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    bx = F("us_bx"); bx[x, y] = (hl.u32(e[x - 1, y]) + 2 * hl.u32(e[x, y]) + hl.u32(e[x + 1, y])) >> 2
    by = F("us_by"); by[x, y] = (bx[x, y - 1] + 2 * bx[x, y] + bx[x, y + 1]) >> 2
    det = F("us_det"); det[x, y] = hl.i32(im[x, y]) - hl.i32(by[x, y])
    boost = hl.select(hl.abs(det[x, y]) > S['TH'], (det[x, y] * S['AMT']) >> 8, 0)
    o = F("us_out"); o[x, y] = hl.u16(hl.clamp(hl.i32(im[x, y]) + boost, 0, 65535))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("hsv_planar_hue_shift_sat_gain_params_to_rgb_sector_mux_tuple_func_interleaved_u8",
      "HSV -> RGB: planar f32 HSV input [x, y, c], hue shifted by a run-time int (degrees) and saturation scaled by a run-time percentage, the hue sector i = floor(h / 60) mod 6 as an i32 Func, (p, q, t) as a 3-Tuple Func, then r/g/b chosen by hl.mux(sector, ...) and written interleaved u8 [c, x, y] via a select on c",
      {'W': (1, 1024), 'H': (1, 768), 'HS': (0, 359), 'SG': (0, 200)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [fa(np.stack([r.random((v['W'], v['H'])) * 360, r.random((v['W'], v['H'])), r.random((v['W'], v['H']))], axis=2).astype(np.float32))], tol=1e-4, target='A')
def hsv2rgb(S, E):
    im = hl.ImageParam(F32, 3, "im")
    c, x, y = V("c", "x", "y")
    h = im[x, y, 0] + fE(S['HS'])
    h = h - 360.0 * hl.floor(h * (1.0 / 360.0))
    s = hl.min(im[x, y, 1] * fE(S['SG']) * 0.01, 1.0)
    v = im[x, y, 2]
    hh = h * (1.0 / 60.0)
    sec = F("hv_sector"); sec[x, y] = hl.i32(hl.floor(hh)) % 6
    f = hh - hl.floor(hh)
    pqt = F("hv_pqt"); pqt[x, y] = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)))
    P, Q, T = pqt[x, y][0], pqt[x, y][1], pqt[x, y][2]
    sc = sec[x, y]
    R = hl.mux(sc, [v, Q, P, P, T, v]); G = hl.mux(sc, [T, v, v, Q, P, P]); Bc = hl.mux(sc, [P, P, T, v, v, Q])
    val = hl.select(c == 0, R, c == 1, G, Bc)
    o = F("hv_out"); o[c, x, y] = hl.u8(hl.clamp(val * 255.0 + 0.5, 0.0, 255.0))
    est_in(im, E['W'], E['H'], 3); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [im]


@spec("alpha_over_composite_N_layers_param_rdom_scan_tuple_rgb_a_premultiplied_u8_layers_4d_cxyl",
      "Porter-Duff 'over' of N layers (a run-time Param, 1..8) bottom to top: layers u8 RGBA [c, x, y, l] (interleaved, layer outermost), the running composite a 2-Tuple Func (premultiplied RGB as a... per-channel float, alpha) updated over RDom(0, N) in order (non-commutative), then un-premultiply and write u8 RGBA [c, x, y]",
      {'W': (1, 640), 'H': (1, 480), 'N': (1, 8)},
      outs=lambda v: [(U8, [4, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (4, v['W'], v['H'], v['N']), 0, 255, np.uint8)], tol=1e-4, target='B')
def aover(S, E):
    ly = hl.ImageParam(U8, 4, "layers")
    c, x, y = V("c", "x", "y")
    r = RD((0, S['N']), name="r")
    comp = F("ao_comp"); comp[c, x, y] = (hl.f32(0), hl.f32(0))
    a = hl.f32(ly[3, x, y, r.x]) * (1.0 / 255.0)
    col = hl.f32(ly[hl.min(c, 2), x, y, r.x]) * (1.0 / 255.0)
    comp[c, x, y] = (col * a + comp[c, x, y][0] * (1.0 - a), a + comp[c, x, y][1] * (1.0 - a))
    A = comp[c, x, y][1]
    val = hl.select(c == 3, A, hl.select(A > 0.0, comp[c, x, y][0] / A, 0.0))
    o = F("ao_out"); o[c, x, y] = hl.u8(hl.clamp(val * 255.0 + 0.5, 0.0, 255.0))
    est_in(ly, 4, E['W'], E['H'], E['N']); est_out(o, [c, x, y], 4, E['W'], E['H'])
    return [o], [ly]


@spec("grayscale_dilation_nonflat_i16_struct_elem_buffer_size_param_where_mask_u8_sat_then_erosion",
      "grayscale morphology with a NON-flat structuring element from a run-time buffer: se i16 [i, j] of size K x K (K a Param 1..7, centred at K/2) with a u8 mask buffer; dilation = u8_sat(max over RDom(0,K)^2.where(mask != 0) of i16(f[x + i - K/2, y + j - K/2]) + se), erosion the dual of the dilated image, repeat_edge; two outputs (dilation and closing)",
      {'W': (1, 768), 'H': (1, 576), 'K': (1, 7)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), randint(r, (v['K'], v['K']), -20, 20, np.int16),
                         fa(np.maximum(randint(r, (v['K'], v['K']), 0, 3, np.uint8), (np.arange(v['K'] * v['K']).reshape(v['K'], v['K']) == (v['K'] // 2) * (v['K'] + 1)).astype(np.uint8)))], target='A')
def gmorph(S, E):
    im = hl.ImageParam(U8, 2, "im"); se = hl.ImageParam(I16, 2, "se"); mk = hl.ImageParam(U8, 2, "mk")
    x, y = V("x", "y")
    K = S['K']; hk = K / 2
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    r = RD((0, K), (0, K), name="r"); r.where(mk[r.x, r.y] != 0)
    dil = F("gm_dil"); dil[x, y] = hl.u8_sat(hl.maximum(hl.i16(e[x + r.x - hk, y + r.y - hk]) + se[r.x, r.y]))
    de = BF.repeat_edge(dil, [(0, S['W']), (0, S['H'])])
    r2 = RD((0, K), (0, K), name="r2"); r2.where(mk[r2.x, r2.y] != 0)
    clo = F("gm_close"); clo[x, y] = hl.u8_sat(hl.minimum(hl.i16(de[x - r2.x + hk, y - r2.y + hk]) - se[r2.x, r2.y]))
    est_in(im, E['W'], E['H']); est_in(se, E['K'], E['K']); est_in(mk, E['K'], E['K'])
    est_out(dil, [x, y], E['W'], E['H']); est_out(clo, [x, y], E['W'], E['H'])
    return [dil, clo], [im, se, mk]


# ============================================ signal / scientific / misc ======================================

@spec("fir_filterbank_B_bands_NT_taps_buffer_k_b_channels_innermost_causal_zero_history",
      "FIR filter bank: B band filters with NT taps each (taps[k, b] from a buffer, both Params), applied to C channels of an interleaved signal x[c, t] (channels innermost); out[c, t, b] = sum over RDom(0, NT) of taps[k, b] * (t - k >= 0 ? x[c, t - k] : 0) written with an explicit update and a clamped index",
      {'C': (1, 8), 'T': (1, 8192), 'B': (1, 16), 'NT': (1, 64)},
      outs=lambda v: [(F32, [v['C'], v['T'], v['B']])],
      data=lambda v, r: [rimg(r, (v['C'], v['T'])), rimg(r, (v['NT'], v['B']))], tol=1e-4, target='B')
def firbank(S, E):
    x = hl.ImageParam(F32, 2, "x"); tp = hl.ImageParam(F32, 2, "taps")
    c, t, b = V("c", "t", "b")
    rk = RD((0, S['NT']), name="rk")
    o = F("fb_out"); o[c, t, b] = 0.0
    o[c, t, b] += tp[rk.x, b] * hl.select(t - rk.x >= 0, x[c, hl.max(t - rk.x, 0)], 0.0)
    est_in(x, E['C'], E['T']); est_in(tp, E['NT'], E['B']); est_out(o, [c, t, b], E['C'], E['T'], E['B'])
    return [o], [x, tp]


@spec("biquad_df2t_tuple_state_y_s1_s2_one_func_scan_coeffs_buffer_per_channel_f64_t_inner",
      "biquad in direct form II transposed: the state (y, s1, s2) as ONE 3-Tuple Func st[t, c] scanned over RDom(0, T) with st[t-1] guarded by a select at t == 0; per-channel coefficients (b0, b1, b2, a1, a2) from a buffer co[k, c]; f64, [t, c] layout (t innermost); the output is component 0",
      {'T': (1, 8192), 'C': (1, 16)},
      outs=lambda v: [(F64, [v['T'], v['C']])],
      data=lambda v, r: [fa(r.standard_normal((v['T'], v['C']))), fa(np.tile(np.array([[0.2, 0.3, 0.2, -0.5, 0.2]]).T, (1, v['C'])) * (1 + 0.05 * r.random((5, v['C']))))], tol=1e-9, target='A')
def bqdf2t(S, E):
    x = hl.ImageParam(F64, 2, "x"); co = hl.ImageParam(F64, 2, "co")
    t, c = V("t", "c")
    st = F("bq_state"); st[t, c] = (hl.f64(0), hl.f64(0), hl.f64(0))
    r = RD((0, S['T']), name="r")
    prv = lambda k: hl.select(r.x > 0, st[hl.max(r.x - 1, 0), c][k], hl.f64(0))
    xin = x[r.x, c]
    yv = co[0, c] * xin + prv(1)
    st[r.x, c] = (yv, co[1, c] * xin - co[3, c] * yv + prv(2), co[2, c] * xin - co[4, c] * yv)
    o = F("bq_out"); o[t, c] = st[t, c][0]
    est_in(x, E['T'], E['C']); est_in(co, 5, E['C']); est_out(o, [t, c], E['T'], E['C'])
    return [o], [x, co]


@spec("weighted_jacobi_omega_param_5_iters_poisson_rhs_handwritten_dirichlet_select_residual_0d_l2",
      "weighted Jacobi for -Laplace(u) = f: 5 iterations, each its own Func from a Python loop, the Dirichlet boundary (u = 0 outside and on the border) written by hand as select(x <= 0 || x >= W-1 || ..., 0, ...) with clamped reads, omega a run-time int (per mille); outputs the final u and the 0-D L2 norm of the residual",
      {'W': (3, 1024), 'H': (3, 1024), 'OM': (100, 1000)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='B')
def wjac(S, E):
    f = hl.ImageParam(F32, 2, "f")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    om = fE(S['OM']) * 0.001
    border = (x <= 0) | (x >= W - 1) | (y <= 0) | (y >= H - 1)
    cl = lambda g, dx, dy: g[hl.clamp(x + dx, 0, W - 1), hl.clamp(y + dy, 0, H - 1)]
    u = F("wj_u0"); u[x, y] = 0.0
    for it in range(5):
        n = F("wj_u%d" % (it + 1))
        jac = 0.25 * (cl(u, -1, 0) + cl(u, 1, 0) + cl(u, 0, -1) + cl(u, 0, 1) + f[x, y])
        n[x, y] = hl.select(border, 0.0, (1.0 - om) * u[x, y] + om * jac)
        u = n
    res = F("wj_res"); res[x, y] = hl.select(border, 0.0, f[x, y] + cl(u, -1, 0) + cl(u, 1, 0) + cl(u, 0, -1) + cl(u, 0, 1) - 4.0 * u[x, y])
    r = RD((0, W), (0, H), name="r")
    nrm = F("wj_norm"); nrm[()] = hl.sqrt(hl.sum(res[r.x, r.y] * res[r.x, r.y]))
    est_in(f, E['W'], E['H']); est_out(u, [x, y], E['W'], E['H'])
    return [u, nrm], [f]


@spec("kmeans_assign_hl_argmin_over_K_param_centroids_D_param_points_dim_inner_label_i32_and_0d_inertia",
      "k-means assignment step: points p[d, n] (d innermost), centroids cen[d, k]; squared distance Func dist[k, n] by hl.sum over d, label = hl.argmin over RDom(0, K) (inline Tuple, first index on ties), and a 0-D inertia = sum over n of the min distance (f64 accumulation)",
      {'N': (1, 20000), 'K': (1, 32), 'DM': (1, 16)},
      outs=lambda v: [(I32, [v['N']]), (F64, [])],
      data=lambda v, r: [rimg(r, (v['DM'], v['N'])), rimg(r, (v['DM'], v['K']))], tol=1e-6, target='A')
def kmassign(S, E):
    p = hl.ImageParam(F32, 2, "p"); cen = hl.ImageParam(F32, 2, "cen")
    k, n = V("k", "n")
    rd = RD((0, S['DM']), name="rd")
    dist = F("km_dist"); dist[k, n] = hl.sum(sq(p[rd.x, n] - cen[rd.x, k]))
    rk = RD((0, S['K']), name="rk")
    am = F("km_am"); am[n] = hl.argmin(dist[rk.x, n])
    lab = F("km_label"); lab[n] = am[n][0]
    rn = RD((0, S['N']), name="rn")
    ine = F("km_inertia"); ine[()] = hl.sum(hl.f64(am[rn.x][1]))
    est_in(p, E['DM'], E['N']); est_in(cen, E['DM'], E['K']); est_out(lab, [n], E['N'])
    return [lab, ine], [p, cen]


@spec("logsumexp_over_middle_dim_of_4d_online_tuple_max_sum_single_pass_a_m_b_c",
      "log-sum-exp over the middle dim m of x[a, m, b, c] (a innermost): a single-pass online (running max, scaled sum) 2-Tuple explicit update over RDom(0, M) with a rescale exp(old_max - new_max), output lse[a, b, c] = max + log(sum), plus the normalised softmax out[a, m, b, c]",
      {'A': (1, 64), 'M': (1, 256), 'B': (1, 32), 'C': (1, 4)},
      outs=lambda v: [(F32, [v['A'], v['B'], v['C']]), (F32, [v['A'], v['M'], v['B'], v['C']])],
      data=lambda v, r: [rimg(r, (v['A'], v['M'], v['B'], v['C']))], tol=1e-5, target='B')
def lsemid(S, E):
    x = hl.ImageParam(F32, 4, "x")
    a, m, b, c = V("a", "m", "b", "c")
    r = RD((0, S['M']), name="r")
    st = F("ls_state"); st[a, b, c] = (hl.f32(-3.0e38), hl.f32(0))
    mo = st[a, b, c][0]; so = st[a, b, c][1]; xv = x[a, r.x, b, c]
    mn = hl.max(mo, xv)
    st[a, b, c] = (mn, so * hl.exp(mo - mn) + hl.exp(xv - mn))
    lse = F("ls_lse"); lse[a, b, c] = st[a, b, c][0] + hl.log(st[a, b, c][1])
    sm = F("ls_softmax"); sm[a, m, b, c] = hl.exp(x[a, m, b, c] - lse[a, b, c])
    est_in(x, E['A'], E['M'], E['B'], E['C']); est_out(lse, [a, b, c], E['A'], E['B'], E['C']); est_out(sm, [a, m, b, c], E['A'], E['M'], E['B'], E['C'])
    return [lse, sm], [x]


@spec("spmm_ell_fixed_nnz_param_i16_col_index_buffer_dense_rhs_n_inner_gather_rows",
      "sparse (ELL format, fixed NNZ per row) times dense: y[n, i] = sum over RDom(0, NNZ) of vals[j, i] * X[n, cols[j, i]] where cols is an i16 index buffer clamped into [0, K); dense RHS X[n, k] with n innermost (a gathered row per nonzero), NNZ a Param",
      {'N': (1, 64), 'M': (1, 4096), 'K': (1, 4096), 'NNZ': (1, 32)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['NNZ'], v['M'])), randint(r, (v['NNZ'], v['M']), 0, v['K'] - 1, np.int16), rimg(r, (v['N'], v['K']))], tol=1e-4, target='A')
def spmmell(S, E):
    vals = hl.ImageParam(F32, 2, "vals"); cols = hl.ImageParam(I16, 2, "cols"); X = hl.ImageParam(F32, 2, "X")
    n, i = V("n", "i")
    r = RD((0, S['NNZ']), name="r")
    o = F("se_out"); o[n, i] = hl.sum(vals[r.x, i] * X[n, hl.clamp(hl.i32(cols[r.x, i]), 0, S['K'] - 1)])
    est_in(vals, E['NNZ'], E['M']); est_in(cols, E['NNZ'], E['M']); est_in(X, E['N'], E['K']); est_out(o, [n, i], E['N'], E['M'])
    return [o], [vals, cols, X]


@spec("prefix_sum_2d_u8_to_i32_two_explicit_updates_x_then_y_then_rect_queries_from_i32_buffer_gather",
      "2-D prefix sum (summed-area table) of u8 into i32 written with two explicit updates of one Func (x scan, then y scan), consumed by a second stage of Q rectangle queries read from an i32 buffer q[4, Q] (x0, y0, x1, y1, clamped): out[q] = S[x1, y1] - S[x0-1, y1] - S[x1, y0-1] + S[x0-1, y0-1] with selects for the -1 edges; two outputs (the table and the query sums)",
      {'W': (1, 1024), 'H': (1, 768), 'Q': (1, 4096)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [v['Q']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), randint(r, (4, v['Q']), -5, max(v['W'], v['H']) + 5, np.int32)], target='B')
def ps2d(S, E):
    im = hl.ImageParam(U8, 2, "im"); qb = hl.ImageParam(I32, 2, "q")
    x, y, q = V("x", "y", "q")
    W, H = S['W'], S['H']
    sat = F("ps_sat"); sat[x, y] = hl.i32(im[x, y])
    rx = RD((1, W - 1), name="rx"); sat[rx.x, y] += sat[rx.x - 1, y]
    ry = RD((1, H - 1), name="ry"); sat[x, ry.x] += sat[x, ry.x - 1]
    x0 = hl.clamp(qb[0, q], 0, W - 1); y0 = hl.clamp(qb[1, q], 0, H - 1)
    x1 = hl.clamp(qb[2, q], x0, W - 1); y1 = hl.clamp(qb[3, q], y0, H - 1)
    G = lambda xx, yy: hl.select((xx < 0) | (yy < 0), 0, sat[hl.max(xx, 0), hl.max(yy, 0)])
    qs = F("ps_query"); qs[q] = G(x1, y1) - G(x0 - 1, y1) - G(x1, y0 - 1) + G(x0 - 1, y0 - 1)
    est_in(im, E['W'], E['H']); est_in(qb, 4, E['Q']); est_out(sat, [x, y], E['W'], E['H']); est_out(qs, [q], E['Q'])
    return [sat, qs], [im, qb]
