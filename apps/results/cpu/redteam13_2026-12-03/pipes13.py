"""Red-team round 13 pipelines for Diet: names and styles not used by rounds 1-12 (einsum-style contractions with heads as
their own dim and transposed outputs, GEMM with alpha/beta on an output update, zero-point-decomposed u8 GEMM, 1x1 conv
over channels-last, rank-1 update then GEMV, right-associated matrix chains, symmetric Gram read transposed, post-norm
FFN blocks, banded local attention, TN contractions with a Param K, MoE gathered expert weights, strided + dilated
conv, CP-decomposition reconstruction, mel filterbanks; images: one 2-D RDom Gaussian with clamped indices, Laplacian
pyramid blending, guided filter through f64 integral-image scans, diamond morphological gradients, Scharr NMS with
integer direction quantisation, BGGR demosaic to interleaved RGB, ACES LUT tone mapping, per-channel histogram
equalisation, Lanczos-3 resampling, homography warps, LBP tile histograms; filtfilt f64 scans, STFT; cumprod with
resets, softmax backward, k-th largest by bisection, COO SpMM scatter). Same spec format as
../redteam12_2026-12-02/pipes12.py; helpers imported from pipes12 (and through it pipes11 / 10 / 9 / round 3) by
importlib, not copied. target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for
Adams2019c), E: estimates (the Params for Diet, ints otherwise)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec12 = importlib.util.spec_from_file_location("pipes_round12", os.path.join(_here, "..", "redteam12_2026-12-02", "pipes12.py"))
_round12 = importlib.util.module_from_spec(_spec12)
_spec12.loader.exec_module(_round12)
_round3 = _round12._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round12.V, _round12.est_in, _round12.est_out, _round12.fa, _round12.rimg, _round12.RD, _round12.TARGETS
D, MX, runif, randint, fE = _round12.D, _round12.MX, _round12.runif, _round12.randint, _round12.fE
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round12.F32, _round12.F64, _round12.U8, _round12.U16, _round12.U32, _round12.U64,
                                                  _round12.I8, _round12.I16, _round12.I32, _round12.I64)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()
TWO_PI = 2.0 * math.pi


def sparam(S, t, name, val):
    """a scalar run-time Param with a default value; for Adams2019c (whose S are CInt constants) the constant itself,
    because Halide 14's Python Param.set_estimate() is broken and Adams2019 fails with 'Missing estimate' otherwise"""
    if any(isinstance(v, hl.Param) for v in S.values()):
        return hl.Param(t, name, val)
    return hl.cast(t, val)


# ======================================= contractions written other ways =====================================

@spec("einsum_bhqd_bhkd_4d_heads_dim_softmax_ctx_q_innermost_out", "torch.einsum('bhqd,bhkd->bhqk') on 4-D [d, t, h, b] buffers (heads a separate dim, D = 64) via hl.sum, softmax over k with hl.maximum / hl.sum Funcs, then einsum('bhqk,bhkd->bhqd') written with the 1/den folded in; outputs the scores TRANSPOSED (q innermost: sT[q, k, h, b]) and the context TRANSPOSED (ctxT[q, d, h, b])",
      {'T': (1, 128), 'H': (1, 8), 'B': (1, 4)},
      outs=lambda v: [(F32, [v['T'], v['T'], v['H'], v['B']]), (F32, [v['T'], 64, v['H'], v['B']])],
      data=lambda v, r: [rimg(r, (64, v['T'], v['H'], v['B'])) for _ in range(3)], tol=1e-4, target='A')
def einbh(S, E):
    q = hl.ImageParam(F32, 4, "q"); k = hl.ImageParam(F32, 4, "k"); vv = hl.ImageParam(F32, 4, "v")
    qq, kk, d, h, b = V("qq", "kk", "d", "h", "b")
    rd = RD((0, 64), name="rd"); rk = RD((0, S['T']), name="rk")
    s = F("eb_s"); s[kk, qq, h, b] = hl.sum(q[rd.x, qq, h, b] * k[rd.x, kk, h, b]) * 0.125
    mx = F("eb_max"); mx[qq, h, b] = hl.maximum(s[rk.x, qq, h, b])
    e = F("eb_exp"); e[kk, qq, h, b] = hl.exp(s[kk, qq, h, b] - mx[qq, h, b])
    den = F("eb_den"); den[qq, h, b] = hl.sum(e[rk.x, qq, h, b])
    sT = F("eb_scoresT"); sT[qq, kk, h, b] = s[kk, qq, h, b]
    ctx = F("eb_ctxT"); ctx[qq, d, h, b] = hl.sum(e[rk.x, qq, h, b] * vv[d, rk.x, h, b]) / den[qq, h, b]
    for ip in (q, k, vv):
        est_in(ip, 64, E['T'], E['H'], E['B'])
    est_out(sT, [qq, kk, h, b], E['T'], E['T'], E['H'], E['B']); est_out(ctx, [qq, d, h, b], E['T'], 64, E['H'], E['B'])
    return [sT, ctx], [q, k, vv]


@spec("gemm_alpha_beta_output_init_beta_cin_update_alpha_prod", "BLAS sgemm C = alpha A B + beta C_in written as ONE output Func: pure def beta * Cin[n, m], update C[n, m] += alpha * A[k, m] * B[n, k] (alpha inside the product) over RDom(0, K); M, N, K all run-time; alpha, beta float Params",
      {'M': (1, 384), 'N': (1, 384), 'K': (1, 384)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K'])), rimg(r, (v['N'], v['M']))], tol=1e-4, target='A')
def gemmab(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); Cin = hl.ImageParam(F32, 2, "Cin")
    alpha = sparam(S, F32, "alpha", 0.75); beta = sparam(S, F32, "beta", -1.25)
    n, m = V("n", "m")
    r = RD((0, S['K']), name="rk")
    C = F("gab_C"); C[n, m] = beta * Cin[n, m]
    C[n, m] += alpha * A[r.x, m] * B[n, r.x]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_in(Cin, E['N'], E['M']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B, Cin]


@spec("qgemm_u8u8_zp_decomposed_rowsum_colsum_requant_i64", "gemmlowp-style u8 x u8 GEMM with zero points decomposed: acc = sum A*B (i32 via hl.sum), row sums of A and column sums of B as their own Funcs, res = acc - zb*rowA[m] - za*colB[n] + K*za*zb; requantize u8_sat(((i64 res * 1518500250 + 2^30) >> 31) + 3); za/zb int Params; outputs u8 and the i32 res",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 512)},
      outs=lambda v: [(U8, [v['N'], v['M']]), (I32, [v['N'], v['M']])],
      data=lambda v, r: [randint(r, (v['K'], v['M']), 0, 255, np.uint8), randint(r, (v['N'], v['K']), 0, 255, np.uint8)], target='B')
def qgdec(S, E):
    A = hl.ImageParam(U8, 2, "A"); B = hl.ImageParam(U8, 2, "B")
    za = sparam(S, I32, "za", 121); zb = sparam(S, I32, "zb", 133)
    n, m = V("n", "m")
    r = RD((0, S['K']), name="rk")
    acc = F("qd_acc"); acc[n, m] = hl.sum(hl.i32(A[r.x, m]) * hl.i32(B[n, r.x]))
    ra = F("qd_rowA"); ra[m] = hl.sum(hl.i32(A[r.x, m]))
    cb = F("qd_colB"); cb[n] = hl.sum(hl.i32(B[n, r.x]))
    res = F("qd_res"); res[n, m] = acc[n, m] - zb * ra[m] - za * cb[n] + S['K'] * za * zb
    o = F("qd_out"); o[n, m] = hl.u8(hl.clamp(((hl.i64(res[n, m]) * hl.i64(1518500250) + hl.i64(1 << 30)) >> 31) + 3, 0, 255))
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K'])
    est_out(o, [n, m], E['N'], E['M']); est_out(res, [n, m], E['N'], E['M'])
    return [o, res], [A, B]


@spec("conv1x1_nhwc_channels_last_co_param_bias_relu6", "pointwise (1x1) conv as a matmul over channels-last activations x[ci, w, h, n] (CI = 64) with weights Wt[ci, co] (ci innermost, i.e. the 'dot' layout), out[co, w, h, n] = relu6(bias[co] + hl.sum over ci); CO, W, H, N run-time",
      {'CO': (1, 128), 'W': (1, 64), 'H': (1, 64), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['CO'], v['W'], v['H'], v['N']])],
      data=lambda v, r: [rimg(r, (64, v['W'], v['H'], v['N'])), runif(r, (64, v['CO']), -0.2, 0.2), runif(r, (v['CO'],), -0.5, 0.5)], tol=1e-4, target='A')
def c1x1nhwc(S, E):
    x = hl.ImageParam(F32, 4, "x"); W = hl.ImageParam(F32, 2, "Wt"); bias = hl.ImageParam(F32, 1, "bias")
    co, w, h, n = V("co", "w", "h", "n")
    rc = RD((0, 64), name="rc")
    o = F("pw_out"); o[co, w, h, n] = hl.clamp(bias[co] + hl.sum(W[rc.x, co] * x[rc.x, w, h, n]), 0.0, 6.0)
    est_in(x, 64, E['W'], E['H'], E['N']); est_in(W, 64, E['CO']); est_in(bias, E['CO'])
    est_out(o, [co, w, h, n], E['CO'], E['W'], E['H'], E['N'])
    return [o], [x, W, bias]


@spec("ger_rank1_update_func_then_gemv_and_norm_0d", "BLAS sger then sgemv: A2[j, i] = A[j, i] + 0.5 u[i] v[j] as a pure Func, y[i] = sum_j A2[j, i] x[j] (update Func on an output), plus the 0-D output ||y||_2 = sqrt(hl.sum(y^2)); M x N run-time",
      {'M': (1, 1024), 'N': (1, 1024)},
      outs=lambda v: [(F32, [v['M']]), (F32, [])],
      data=lambda v, r: [rimg(r, (v['N'], v['M'])), rimg(r, (v['M'],)), rimg(r, (v['N'],)), rimg(r, (v['N'],))], tol=1e-4, target='B')
def gergemv(S, E):
    A = hl.ImageParam(F32, 2, "A"); u = hl.ImageParam(F32, 1, "u"); vv = hl.ImageParam(F32, 1, "v"); x = hl.ImageParam(F32, 1, "x")
    i, j = V("i", "j")
    A2 = F("gr_A2"); A2[j, i] = A[j, i] + 0.5 * u[i] * vv[j]
    rj = RD((0, S['N']), name="rj")
    y = F("gr_y"); y[i] = 0.0; y[i] += A2[rj.x, i] * x[rj.x]
    ri = RD((0, S['M']), name="ri")
    nrm = F("gr_norm"); nrm[()] = hl.sqrt(hl.sum(y[ri.x] * y[ri.x]))
    est_in(A, E['N'], E['M']); est_in(u, E['M']); est_in(vv, E['N']); est_in(x, E['N']); est_out(y, [i], E['M'])
    return [y, nrm], [A, u, vv, x]


@spec("matchain_right_assoc_bc_first_small_p_param", "A (B C) evaluated right-associated: BC[n, k] = sum_p B[p, k] C[n, p] over a small run-time P (1..32), then out[n, m] = sum_k A[k, m] BC[n, k] (K = 128, N = 256), both as update Funcs",
      {'M': (1, 256), 'P': (1, 32)},
      outs=lambda v: [(F32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (128, v['M'])), rimg(r, (v['P'], 128)), rimg(r, (256, v['P']))], tol=1e-3, target='A')
def mcright(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); C = hl.ImageParam(F32, 2, "C")
    n, k, m = V("n", "k", "m")
    rp = RD((0, S['P']), name="rp"); rk = RD((0, 128), name="rk")
    bc = F("mr_bc"); bc[n, k] = 0.0; bc[n, k] += B[rp.x, k] * C[n, rp.x]
    o = F("mr_out"); o[n, m] = 0.0; o[n, m] += A[rk.x, m] * bc[n, rk.x]
    est_in(A, 128, E['M']); est_in(B, E['P'], 128); est_in(C, 256, E['P']); est_out(o, [n, m], 256, E['M'])
    return [o], [A, B, C]


@spec("gram_hlsum_then_symmetric_mirror_select_transposed_read", "Gram matrix G[j, i] = hl.sum_n X[n, i] X[n, j] / N (samples innermost), consumed as a symmetric matrix out[j, i] = select(j <= i, G[j, i], G[i, j]) (reads G transposed for half the outputs), plus the diagonal as a second output",
      {'N': (1, 512), 'DM': (1, 128)},
      outs=lambda v: [(F32, [v['DM'], v['DM']]), (F32, [v['DM']])],
      data=lambda v, r: [rimg(r, (v['N'], v['DM']))], tol=1e-4, target='B')
def gramsym(S, E):
    X = hl.ImageParam(F32, 2, "X")
    i, j = V("i", "j")
    rn = RD((0, S['N']), name="rn")
    G = F("gs_G"); G[j, i] = hl.sum(X[rn.x, i] * X[rn.x, j]) / fE(S['N'])
    o = F("gs_sym"); o[j, i] = hl.select(j <= i, G[j, i], G[i, j])
    dg = F("gs_diag"); dg[i] = G[i, i]
    est_in(X, E['N'], E['DM']); est_out(o, [j, i], E['DM'], E['DM']); est_out(dg, [i], E['DM'])
    return [o, dg], [X]


@spec("ffn_postnorm_residual_layernorm_bert_style_cxt", "BERT post-norm FFN block on x[c, t] (C = 128, F = 256): h = gelu_tanh(b1 + W1 x) as an update Func (W1[c, f], c innermost), y = x + b2 + hl.sum(W2[f, c] h) (W2 f innermost), then LayerNorm(y) with mean / var as hl.sum Funcs; outputs LN(y) and y",
      {'T': (1, 128)},
      outs=lambda v: [(F32, [128, v['T']]), (F32, [128, v['T']])],
      data=lambda v, r: [rimg(r, (128, v['T'])), runif(r, (128, 256), -0.09, 0.09), runif(r, (256,), -0.1, 0.1),
                         runif(r, (256, 128), -0.06, 0.06), runif(r, (128,), -0.1, 0.1)], tol=1e-3, target='A')
def ffnpost(S, E):
    x = hl.ImageParam(F32, 2, "x"); W1 = hl.ImageParam(F32, 2, "W1"); b1 = hl.ImageParam(F32, 1, "b1")
    W2 = hl.ImageParam(F32, 2, "W2"); b2 = hl.ImageParam(F32, 1, "b2")
    c, f, t = V("c", "f", "t")
    rc = RD((0, 128), name="rc"); rf = RD((0, 256), name="rf")
    h = F("fp_h"); h[f, t] = b1[f]; h[f, t] += W1[rc.x, f] * x[rc.x, t]
    u = h[f, t]
    g = F("fp_gelu"); g[f, t] = 0.5 * u * (1.0 + hl.tanh(0.7978845608 * (u + 0.044715 * u * u * u)))
    y = F("fp_y"); y[c, t] = x[c, t] + b2[c] + hl.sum(W2[rf.x, c] * g[rf.x, t])
    mu = F("fp_mu"); mu[t] = hl.sum(y[rc.x, t]) / 128.0
    var = F("fp_var"); var[t] = hl.sum((y[rc.x, t] - mu[t]) * (y[rc.x, t] - mu[t])) / 128.0
    o = F("fp_ln"); o[c, t] = (y[c, t] - mu[t]) / hl.sqrt(var[t] + 1e-5)
    est_in(x, 128, E['T']); est_in(W1, 128, 256); est_in(b1, 256); est_in(W2, 256, 128); est_in(b2, 128)
    est_out(o, [c, t], 128, E['T']); est_out(y, [c, t], 128, E['T'])
    return [o, y], [x, W1, b1, W2, b2]


@spec("local_attention_band_mask_func_window_param", "single-head local (banded) attention: mask Func mk[j, i] = select(|i - j| <= WIN, 0, -1e30) with a run-time window WIN, scores via hl.sum (D = 32) plus the mask, softmax over all T keys (hl.maximum / hl.sum Funcs), output o[d, i] = hl.sum(e v) / l",
      {'T': (1, 256), 'WIN': (0, 64)},
      outs=lambda v: [(F32, [32, v['T']])],
      data=lambda v, r: [rimg(r, (32, v['T'])) for _ in range(3)], tol=1e-4, target='B')
def bandattn(S, E):
    q = hl.ImageParam(F32, 2, "q"); k = hl.ImageParam(F32, 2, "k"); vv = hl.ImageParam(F32, 2, "v")
    i, j, d = V("i", "j", "d")
    rd = RD((0, 32), name="rd"); rj = RD((0, S['T']), name="rj")
    mk = F("ba_mask"); mk[j, i] = hl.select(hl.abs(i - j) <= S['WIN'], 0.0, -1e30)
    s = F("ba_s"); s[j, i] = hl.sum(q[rd.x, i] * k[rd.x, j]) * 0.17677669 + mk[j, i]
    mx = F("ba_max"); mx[i] = hl.maximum(s[rj.x, i])
    e = F("ba_e"); e[j, i] = hl.exp(s[j, i] - mx[i])
    l = F("ba_l"); l[i] = hl.sum(e[rj.x, i])
    o = F("ba_out"); o[d, i] = hl.sum(e[rj.x, i] * vv[d, rj.x]) / l[i]
    for ip in (q, k, vv):
        est_in(ip, 32, E['T'])
    est_out(o, [d, i], 32, E['T'])
    return [o], [q, k, vv]


@spec("contract_tn_dot_layout_k_param_out_m_innermost_tanh", "C^T written directly: out[m, n] = tanh(0.05 * hl.sum_k A[k, m] B[k, n]) with BOTH operands k-innermost (the 'dot'/TN layout) and the output's innermost dim m taken from A; M, N, K run-time",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 512)},
      outs=lambda v: [(F32, [v['M'], v['N']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'], v['N']))], tol=1e-4, target='A')
def tnout(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    m, n = V("m", "n")
    r = RD((0, S['K']), name="rk")
    o = F("tn_out"); o[m, n] = hl.tanh(0.05 * hl.sum(A[r.x, m] * B[r.x, n]))
    est_in(A, E['K'], E['M']); est_in(B, E['K'], E['N']); est_out(o, [m, n], E['M'], E['N'])
    return [o], [A, B]


@spec("moe_top1_gathered_expert_weight_by_token_id_gate", "mixture-of-experts FFN-in with top-1 routing: expert id per token eid[t] (buffer, clamped to NE - 1), y[n, t] = gate[t] * hl.sum_k W[k, n, eid[t]] x[k, t] (K = 64, N = 128): the weight matrix is GATHERED per token",
      {'T': (1, 256), 'NE': (1, 8)},
      outs=lambda v: [(F32, [128, v['T']])],
      data=lambda v, r: [rimg(r, (64, v['T'])), runif(r, (64, 128, v['NE']), -0.2, 0.2), randint(r, (v['T'],), 0, v['NE'] - 1, np.int32),
                         runif(r, (v['T'],), 0.0, 1.0)], tol=1e-4, target='B')
def moe1(S, E):
    x = hl.ImageParam(F32, 2, "x"); W = hl.ImageParam(F32, 3, "W"); eid = hl.ImageParam(I32, 1, "eid"); gate = hl.ImageParam(F32, 1, "gate")
    n, t = V("n", "t")
    rk = RD((0, 64), name="rk")
    ex = hl.clamp(eid[t], 0, S['NE'] - 1)
    y = F("moe_y"); y[n, t] = gate[t] * hl.sum(W[rk.x, n, ex] * x[rk.x, t])
    est_in(x, 64, E['T']); est_in(W, 64, 128, E['NE']); est_in(eid, E['T']); est_in(gate, E['T']); est_out(y, [n, t], 128, E['T'])
    return [y], [x, W, eid, gate]


def _cin(v):
    return ((v['OW'] - 1) * v['ST'] + 2 * v['DL'] + 1, (v['OH'] - 1) * v['ST'] + 2 * v['DL'] + 1)


@spec("conv2d_stride_and_dilation_params_nchw_batch_hlsum_3d_rdom", "dense 3x3 conv NCHW-style [x, y, c, n] with BOTH a run-time stride ST (1..3) and dilation DL (1..3): out[x, y, co, n] = hl.sum over RDom(kx, ky, ci) w[kx, ky, ci, co] in[x*ST + kx*DL, y*ST + ky*DL, ci, n] (CI = 16, CO = 32, valid padding; input size derived from the Params)",
      {'OW': (1, 64), 'OH': (1, 64), 'ST': (1, 3), 'DL': (1, 3), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['OW'], v['OH'], 32, v['N']])],
      data=lambda v, r: [rimg(r, _cin(v) + (16, v['N'])), runif(r, (3, 3, 16, 32), -0.2, 0.2)], tol=1e-4, target='A')
def convsd(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w")
    x, y, co, n = V("x", "y", "co", "n")
    r = RD((0, 3), (0, 3), (0, 16), name="r")
    o = F("sd_out"); o[x, y, co, n] = hl.sum(w[r.x, r.y, r.z, co] * inp[x * S['ST'] + r.x * S['DL'], y * S['ST'] + r.y * S['DL'], r.z, n])
    est_in(inp, (E['OW'] - 1) * E['ST'] + 2 * E['DL'] + 1, (E['OH'] - 1) * E['ST'] + 2 * E['DL'] + 1, 16, E['N']); est_in(w, 3, 3, 16, 32)
    est_out(o, [x, y, co, n], E['OW'], E['OH'], 32, E['N'])
    return [o], [inp, w]


@spec("cp_decomposition_reconstruct_rank_param_3factors_lambda", "CP / PARAFAC reconstruction X[i, j, k] = sum_r lam[r] A[r, i] B[r, j] C[r, k] over a run-time rank R (factor matrices rank-innermost), a 3-operand contraction with a 3-D output",
      {'I': (1, 64), 'J': (1, 64), 'K': (1, 64), 'R': (1, 16)},
      outs=lambda v: [(F32, [v['I'], v['J'], v['K']])],
      data=lambda v, r: [rimg(r, (v['R'], v['I'])), rimg(r, (v['R'], v['J'])), rimg(r, (v['R'], v['K'])), runif(r, (v['R'],), 0.5, 2.0)], tol=1e-4, target='B')
def cprec(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); C = hl.ImageParam(F32, 2, "C"); lam = hl.ImageParam(F32, 1, "lam")
    i, j, k = V("i", "j", "k")
    rr = RD((0, S['R']), name="rr")
    X = F("cp_X"); X[i, j, k] = 0.0
    X[i, j, k] += lam[rr.x] * A[rr.x, i] * B[rr.x, j] * C[rr.x, k]
    est_in(A, E['R'], E['I']); est_in(B, E['R'], E['J']); est_in(C, E['R'], E['K']); est_in(lam, E['R'])
    est_out(X, [i, j, k], E['I'], E['J'], E['K'])
    return [X], [A, B, C, lam]


@spec("mel_filterbank_triangle_weight_func_pow_log_contraction", "log-mel energies: triangular filter weights as a Func wm[f, m] computed with pow (mel <-> Hz, NM run-time bands over 0..8 kHz at 16 kHz, 257 FFT bins), then out[m, t] = log(hl.sum_f wm[f, m] P[f, t] + 1e-6) over a power spectrogram P[f, t]",
      {'T': (1, 512), 'NM': (2, 64)},
      outs=lambda v: [(F32, [v['NM'], v['T']])],
      data=lambda v, r: [runif(r, (257, v['T']), 0.0, 4.0)], tol=1e-4, target='B')
def melfb(S, E):
    P = hl.ImageParam(F32, 2, "P")
    f, m, t = V("f", "m", "t")
    mmax = 2595.0 * math.log10(1.0 + 8000.0 / 700.0)

    def hz(mi):  # centre frequency of mel point mi (0..NM+1)
        return 700.0 * (hl.pow(10.0, hl.f32(mi) * (mmax / 2595.0) / fE(S['NM'] + 1)) - 1.0)
    fr = hl.f32(f) * (8000.0 / 256.0)
    lo, ce, hi = hz(m), hz(m + 1), hz(m + 2)
    wm = F("mel_w"); wm[f, m] = hl.max(0.0, hl.min((fr - lo) / (ce - lo), (hi - fr) / (hi - ce)))
    rf = RD((0, 257), name="rf")
    o = F("mel_log"); o[m, t] = hl.log(hl.sum(wm[rf.x, m] * P[rf.x, t]) + 1e-6)
    est_in(P, 257, E['T']); est_out(o, [m, t], E['NM'], E['T'])
    return [o], [P]


# ======================================= image pipelines ======================================================

@spec("gauss_2d_rdom_outer_weights_func_clamp_index_radius_param", "Gaussian blur written as ONE 2-D RDom (2R+1)^2 (not separable) with a 1-D weight Func g[i] (sigma = R/2 + 0.5) multiplied as g[rx] g[ry], the normaliser as a hl.sum Func, and the boundary done by hl.clamp on the indices (no BoundaryConditions)",
      {'W': (16, 1024), 'H': (16, 768), 'R': (1, 5)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-5, target='A')
def g2d(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, i = V("x", "y", "i")
    R = S['R']
    sg = fE(R) * 0.5 + 0.5
    g = F("g2_w"); g[i] = hl.exp(-hl.f32((i - R) * (i - R)) / (2.0 * sg * sg))
    r1 = RD((0, 2 * R + 1), name="r1")
    nz = F("g2_norm"); nz[()] = hl.sum(g[r1.x])
    r = RD((0, 2 * R + 1), (0, 2 * R + 1), name="r")
    o = F("g2_out")
    o[x, y] = hl.sum(g[r.x] * g[r.y] * im[hl.clamp(x + r.x - R, 0, S['W'] - 1), hl.clamp(y + r.y - R, 0, S['H'] - 1)]) / (nz[()] * nz[()])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("laplacian_pyramid_blend_3levels_mask_pyramid_f32", "Burt-Adelson blending of two images with a mask: Gaussian pyramids (5-tap 1-4-6-4-1 separable, x then y Funcs per level, decimate by 2) of a, b and the mask to level 3, Laplacian levels l = g - up(g_next) with a linear 2x upsample (x then y Funcs), blend per level, collapse; repeat_edge inputs, every level its own Funcs",
      {'W': (16, 1024), 'H': (16, 768)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def lapblend(S, E):
    a = hl.ImageParam(F32, 2, "a"); b = hl.ImageParam(F32, 2, "b"); mk = hl.ImageParam(F32, 2, "mask")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]

    def down(f, nm):
        dx = F(nm + "_dx"); dx[x, y] = (f[2 * x - 2, y] + 4.0 * f[2 * x - 1, y] + 6.0 * f[2 * x, y] + 4.0 * f[2 * x + 1, y] + f[2 * x + 2, y]) * (1.0 / 16.0)
        dy = F(nm + "_dy"); dy[x, y] = (dx[x, 2 * y - 2] + 4.0 * dx[x, 2 * y - 1] + 6.0 * dx[x, 2 * y] + 4.0 * dx[x, 2 * y + 1] + dx[x, 2 * y + 2]) * (1.0 / 16.0)
        return dy

    def up(f, nm):
        ux = F(nm + "_ux"); ux[x, y] = 0.5 * (f[x / 2, y] + f[(x + 1) / 2, y])
        uy = F(nm + "_uy"); uy[x, y] = 0.5 * (ux[x, y / 2] + ux[x, (y + 1) / 2])
        return uy

    def gpyr(src, nm):
        g = [BF.repeat_edge(src, bnd)]
        for l in range(1, 4):
            g.append(down(g[-1], "%s_g%d" % (nm, l)))
        return g
    ga, gb, gm = gpyr(a, "lba"), gpyr(b, "lbb"), gpyr(mk, "lbm")
    bl = []
    for l in range(3):
        ua, ub = up(ga[l + 1], "lba_u%d" % l), up(gb[l + 1], "lbb_u%d" % l)
        f = F("lb_blend%d" % l)
        f[x, y] = gm[l][x, y] * (ga[l][x, y] - ua[x, y]) + (1.0 - gm[l][x, y]) * (gb[l][x, y] - ub[x, y])
        bl.append(f)
    top = F("lb_top"); top[x, y] = gm[3][x, y] * ga[3][x, y] + (1.0 - gm[3][x, y]) * gb[3][x, y]
    cur = top
    for l in (2, 1, 0):
        u = up(cur, "lb_c%d" % l)
        nx = F("lb_r%d" % l); nx[x, y] = bl[l][x, y] + u[x, y]
        cur = nx
    est_in(a, E['W'], E['H']); est_in(b, E['W'], E['H']); est_in(mk, E['W'], E['H']); est_out(cur, [x, y], E['W'], E['H'])
    return [cur], [a, b, mk]


@spec("guided_filter_gray_f64_integral_image_scans_radius_param", "grey-guide guided filter (He et al.) with every box mean taken from an f64 INTEGRAL image built by two order-dependent scans (x then y, RDom(1, W-1) / RDom(1, H-1) updates) and read at clamped corners (select for index -1): boxes of I, p, I*I, I*p, then of a and b; eps = 1e-3; f32 output",
      {'W': (16, 1024), 'H': (16, 768), 'R': (1, 8)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H']))], tol=1e-4, target='A')
def gfint(S, E):
    I = hl.ImageParam(F32, 2, "I"); p = hl.ImageParam(F32, 2, "p")
    x, y = V("x", "y")
    W, H, R = S['W'], S['H'], S['R']
    rx = RD((1, W - 1), name="rx"); ry = RD((1, H - 1), name="ry")

    def integ(fn, nm):
        sx = F(nm + "_sx"); sx[x, y] = fn(x, y)
        sx[rx.x, y] = sx[rx.x, y] + sx[rx.x - 1, y]
        sy = F(nm + "_sy"); sy[x, y] = sx[x, y]
        sy[x, ry.x] = sy[x, ry.x] + sy[x, ry.x - 1]
        return sy

    def at(ii, xx, yy):
        return hl.select((xx < 0) | (yy < 0), hl.f64(0), ii[hl.max(xx, 0), hl.max(yy, 0)])

    def box(fn, nm):
        ii = integ(fn, nm)
        bm = F(nm + "_mean")
        x0, x1 = hl.max(x - R, 0) - 1, hl.min(x + R, W - 1)
        y0, y1 = hl.max(y - R, 0) - 1, hl.min(y + R, H - 1)
        area = hl.f64((x1 - x0) * (y1 - y0))
        bm[x, y] = (at(ii, x1, y1) - at(ii, x0, y1) - at(ii, x1, y0) + at(ii, x0, y0)) / area
        return bm
    mI = box(lambda a, b: hl.f64(I[a, b]), "gi_I")
    mp = box(lambda a, b: hl.f64(p[a, b]), "gi_p")
    mII = box(lambda a, b: hl.f64(I[a, b]) * hl.f64(I[a, b]), "gi_II")
    mIp = box(lambda a, b: hl.f64(I[a, b]) * hl.f64(p[a, b]), "gi_Ip")
    av = F("gi_a"); av[x, y] = (mIp[x, y] - mI[x, y] * mp[x, y]) / (mII[x, y] - mI[x, y] * mI[x, y] + 1e-3)
    bv = F("gi_b"); bv[x, y] = mp[x, y] - av[x, y] * mI[x, y]
    ma = box(lambda a, b: av[a, b], "gi_ma"); mb = box(lambda a, b: bv[a, b], "gi_mb")
    o = F("gi_out"); o[x, y] = hl.f32(ma[x, y] * hl.f64(I[x, y]) + mb[x, y])
    est_in(I, E['W'], E['H']); est_in(p, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [I, p]


@spec("morph_gradient_diamond_where_dilate_minus_erode_u16", "morphological gradient with a DIAMOND structuring element of run-time radius R: RDom(-R..R)^2.where(|rx| + |ry| <= R), dilation hl.maximum and erosion hl.minimum on repeat_edge u16, out = dil - ero (u16) and a u8 edge map (grad > 512)",
      {'W': (16, 1024), 'H': (16, 768), 'R': (1, 4)},
      outs=lambda v: [(U16, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16)], target='B')
def morphdia(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    R = S['R']
    r = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="r")
    r.where(hl.abs(r.x) + hl.abs(r.y) <= R)
    dl = F("md_dil"); dl[x, y] = hl.maximum(e[x + r.x, y + r.y])
    er = F("md_ero"); er[x, y] = hl.minimum(e[x + r.x, y + r.y])
    g = F("md_grad"); g[x, y] = dl[x, y] - er[x, y]
    m = F("md_edge"); m[x, y] = hl.select(g[x, y] > 512, hl.u8(255), hl.u8(0))
    est_in(im, E['W'], E['H']); est_out(g, [x, y], E['W'], E['H']); est_out(m, [x, y], E['W'], E['H'])
    return [g, m], [im]


@spec("scharr_int_direction_quant_ratio_nms_select_threshold_u8", "Scharr gradients (3-10-3) in i32 on mirror_interior u8, L1 magnitude, edge direction quantised to 4 bins by INTEGER ratio tests (|gy|*1000 <= |gx|*414 etc., sign of gx*gy for the diagonals, no atan2), non-maximum suppression picking the two neighbours by nested selects, run-time threshold TH; outputs u8 edges and the i32 magnitude",
      {'W': (16, 1024), 'H': (16, 768), 'TH': (0, 400)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (I32, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def scharr(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.mirror_interior(im, [(0, S['W']), (0, S['H'])])
    iv = lambda a, b: hl.i32(e[a, b])
    gx = F("sc_gx"); gx[x, y] = 3 * (iv(x + 1, y - 1) - iv(x - 1, y - 1)) + 10 * (iv(x + 1, y) - iv(x - 1, y)) + 3 * (iv(x + 1, y + 1) - iv(x - 1, y + 1))
    gy = F("sc_gy"); gy[x, y] = 3 * (iv(x - 1, y + 1) - iv(x - 1, y - 1)) + 10 * (iv(x, y + 1) - iv(x, y - 1)) + 3 * (iv(x + 1, y + 1) - iv(x + 1, y - 1))
    mag = F("sc_mag"); mag[x, y] = hl.i32(hl.abs(gx[x, y]) + hl.abs(gy[x, y]))
    ax, ay = hl.abs(gx[x, y]), hl.abs(gy[x, y])
    dr = F("sc_dir")
    dr[x, y] = hl.select(ay * 1000 <= ax * 414, 0, ax * 1000 <= ay * 414, 2, gx[x, y] * gy[x, y] > 0, 1, 3)
    dd = dr[x, y]
    n1 = hl.select(dd == 0, mag[x - 1, y], dd == 2, mag[x, y - 1], dd == 1, mag[x - 1, y - 1], mag[x + 1, y - 1])
    n2 = hl.select(dd == 0, mag[x + 1, y], dd == 2, mag[x, y + 1], dd == 1, mag[x + 1, y + 1], mag[x - 1, y + 1])
    c = mag[x, y]
    o = F("sc_edges"); o[x, y] = hl.select((c > S['TH']) & (c >= n1) & (c > n2), hl.u8(255), hl.u8(0))
    mo = F("sc_mag_out"); mo[x, y] = mag[x, y]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H']); est_out(mo, [x, y], E['W'], E['H'])
    return [o, mo], [im]


@spec("demosaic_bilinear_bggr_parity_selects_to_interleaved_rgb_u8", "bilinear demosaic of a BGGR mosaic (u8, mirror_interior) with the colour at each site chosen by (x & 1, y & 1) parity selects, cross / diagonal / horizontal / vertical neighbour averages in u16, output INTERLEAVED rgb[c, x, y] (c innermost, c selected by select(c == 0, ..))",
      {'W': (16, 1024), 'H': (16, 768)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def dmbggr(S, E):
    raw = hl.ImageParam(U8, 2, "raw")
    c, x, y = V("c", "x", "y")
    e = BF.mirror_interior(raw, [(0, S['W']), (0, S['H'])])
    p = lambda a, b: hl.u16(e[a, b])
    ctr = p(x, y)
    cross = (p(x - 1, y) + p(x + 1, y) + p(x, y - 1) + p(x, y + 1) + 2) / 4
    diag = (p(x - 1, y - 1) + p(x + 1, y - 1) + p(x - 1, y + 1) + p(x + 1, y + 1) + 2) / 4
    hor = (p(x - 1, y) + p(x + 1, y) + 1) / 2
    ver = (p(x, y - 1) + p(x, y + 1) + 1) / 2
    ex, ey = (x & 1) == 0, (y & 1) == 0
    isB, isR = ex & ey, (~ex) & (~ey)
    # G site on a blue row (x odd, y even): R above/below, B left/right; on a red row (x even, y odd): the reverse
    gBrow = (~ex) & ey
    R = hl.select(isR, ctr, isB, diag, gBrow, ver, hor)
    G = hl.select(isR | isB, cross, ctr)
    Bc = hl.select(isB, ctr, isR, diag, gBrow, hor, ver)
    o = F("db_rgb"); o[c, x, y] = hl.u8(hl.select(c == 0, R, c == 1, G, Bc))
    est_in(raw, E['W'], E['H']); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [raw]


@spec("tonemap_aces_filmic_lut4096_func_gather_u16_planar_to_u8", "HDR tone mapping of 12-bit planar RGB u16 [x, y, c]: a 4096-entry LUT Func computing exposure * v, the ACES filmic fit (v(2.51v+0.03))/(v(2.43v+0.59)+0.14) and the sRGB-ish gamma pow(., 1/2.2) to u8, gathered at clamp(in, 0, 4095); plus a luminance u8 output from the mapped channels",
      {'W': (16, 2048), 'H': (16, 1536)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], 3), 0, 4095, np.uint16)], target='A')
def aceslut(S, E):
    im = hl.ImageParam(U16, 3, "im")
    x, y, c, i = V("x", "y", "c", "i")
    v = hl.f32(i) * (1.6 / 4095.0)
    ac = hl.clamp((v * (2.51 * v + 0.03)) / (v * (2.43 * v + 0.59) + 0.14), 0.0, 1.0)
    lut = F("ac_lut"); lut[i] = hl.u8(hl.pow(ac, 1.0 / 2.2) * 255.0 + 0.5)
    o = F("ac_out"); o[x, y, c] = lut[hl.clamp(hl.i32(im[x, y, c]), 0, 4095)]
    lum = F("ac_luma"); lum[x, y] = hl.u8((54 * hl.u16(o[x, y, 0]) + 183 * hl.u16(o[x, y, 1]) + 19 * hl.u16(o[x, y, 2]) + 128) >> 8)
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3); est_out(lum, [x, y], E['W'], E['H'])
    return [o, lum], [im]


@spec("histeq_rgb_per_channel_scatter_cdf_scan_cdfmin_u8", "per-channel histogram equalisation of planar RGB u8 [x, y, c]: 256-bin histograms hist[b, c] by a scatter over a 2-D RDom (x, y), CDF by an order-dependent scan over RDom(1, 255), cdf_min per channel as hl.minimum over a where-free select, integer remap ((cdf - cmin) * 255 + den / 2) / den",
      {'W': (16, 1024), 'H': (16, 768)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(np.clip(r.normal(90, 30, (v['W'], v['H'], 3)), 0, 255).astype(np.uint8))], target='B')
def histeqc(S, E):
    im = hl.ImageParam(U8, 3, "im")
    x, y, c, b = V("x", "y", "c", "b")
    r = RD((0, S['W']), (0, S['H']), name="r")
    hist = F("he_hist"); hist[b, c] = 0
    hist[hl.i32(im[r.x, r.y, c]), c] += 1
    rb = RD((1, 255), name="rb")
    cdf = F("he_cdf"); cdf[b, c] = hist[b, c]
    cdf[rb.x, c] = cdf[rb.x, c] + cdf[rb.x - 1, c]
    r2 = RD((0, 256), name="r2")
    cmin = F("he_cmin"); cmin[c] = hl.minimum(hl.select(cdf[r2.x, c] > 0, cdf[r2.x, c], 1 << 30))
    N = S['W'] * S['H']
    den = hl.max(N - cmin[c], 1)
    o = F("he_out"); o[x, y, c] = hl.u8(hl.clamp(((cdf[hl.i32(im[x, y, c]), c] - cmin[c]) * 255 + den / 2) / den, 0, 255))
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [im]


def _lz3(t):
    pt = math.pi * t
    return hl.select(hl.abs(t) < 1e-5, 1.0, hl.select(hl.abs(t) < 3.0, 3.0 * hl.sin(pt) * hl.sin(pt / 3.0) / (pt * pt), 0.0))


@spec("resize_lanczos3_separable_normalized_weight_funcs_in_out_params", "Lanczos-3 resampling from W x H to OW x OH (all run-time; up or down, 6 taps, no antialias widening): per-output-coordinate centre, tap-0 index and normalised weight Funcs wx[k, ox] (raw weights / their hl.sum), x pass then y pass as hl.sum over RDom(0, 6) with clamped source indices",
      {'W': (16, 1024), 'H': (16, 768), 'OW': (8, 640), 'OH': (8, 480)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='A')
def lanczos(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, k, ox, oy = V("x", "y", "k", "ox", "oy")

    def axis(nm, o, n_in, n_out):
        sc = fE(n_in) / fE(n_out)
        cen = (hl.f32(o) + 0.5) * sc - 0.5
        base = F(nm + "_base"); base[o] = hl.i32(hl.floor(cen)) - 2
        raw = F(nm + "_raw"); raw[k, o] = _lz3(cen - hl.f32(base[o] + k))
        rk = RD((0, 6), name=nm + "_rk")
        tot = F(nm + "_tot"); tot[o] = hl.sum(raw[rk.x, o])
        w = F(nm + "_w"); w[k, o] = raw[k, o] / tot[o]
        return base, w
    bx, wx = axis("lzx", ox, S['W'], S['OW'])
    by, wy = axis("lzy", oy, S['H'], S['OH'])
    r = RD((0, 6), name="r")
    hx = F("lz_hx"); hx[ox, y] = hl.sum(wx[r.x, ox] * im[hl.clamp(bx[ox] + r.x, 0, S['W'] - 1), y])
    o = F("lz_out"); o[ox, oy] = hl.sum(wy[r.x, oy] * hx[ox, hl.clamp(by[oy] + r.x, 0, S['H'] - 1)])
    est_in(im, E['W'], E['H']); est_out(o, [ox, oy], E['OW'], E['OH'])
    return [o], [im]


@spec("warp_perspective_homography_buffer_bilinear_clamped_f32_valid", "perspective warp by a 3x3 homography held in a 9-float buffer (read as scalars h[0..8]): source coordinates (h0 x + h1 y + h2) / (h6 x + h7 y + h8) etc. computed per output pixel, bilinear interpolation with clamped gathers from a u8 image, 0 outside the source; f32 output and a u8 validity mask",
      {'W': (16, 1024), 'H': (16, 768)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), np.array([1.02, 0.05, -3.0, -0.04, 0.97, 2.5, 1e-5, 2e-5, 1.0], np.float32)], tol=1e-4, target='B')
def homog(S, E):
    im = hl.ImageParam(U8, 2, "im"); hm = hl.ImageParam(F32, 1, "hm")
    x, y = V("x", "y")
    fx, fy = hl.f32(x), hl.f32(y)
    wz = hm[6] * fx + hm[7] * fy + hm[8]
    sx = F("hw_sx"); sx[x, y] = (hm[0] * fx + hm[1] * fy + hm[2]) / wz
    sy = F("hw_sy"); sy[x, y] = (hm[3] * fx + hm[4] * fy + hm[5]) / wz
    u, v = sx[x, y], sy[x, y]
    x0 = hl.i32(hl.floor(u)); y0 = hl.i32(hl.floor(v)); ax = u - hl.f32(x0); ay = v - hl.f32(y0)
    g = lambda a, b: hl.f32(im[hl.clamp(a, 0, S['W'] - 1), hl.clamp(b, 0, S['H'] - 1)])
    val = (1 - ay) * ((1 - ax) * g(x0, y0) + ax * g(x0 + 1, y0)) + ay * ((1 - ax) * g(x0, y0 + 1) + ax * g(x0 + 1, y0 + 1))
    inside = (u >= 0.0) & (v >= 0.0) & (u <= fE(S['W'] - 1)) & (v <= fE(S['H'] - 1))
    o = F("hw_out"); o[x, y] = hl.select(inside, val, 0.0)
    mk = F("hw_valid"); mk[x, y] = hl.select(inside, hl.u8(1), hl.u8(0))
    est_in(im, E['W'], E['H']); est_in(hm, 9); est_out(o, [x, y], E['W'], E['H']); est_out(mk, [x, y], E['W'], E['H'])
    return [o, mk], [im, hm]


@spec("lbp8_codes_bitshift_u8_then_tile16_hist256_scatter", "local binary patterns: 8-neighbour code sum_k (e[x+dx_k, y+dy_k] >= e[x, y]) << k on repeat_edge u8, then a 256-bin histogram per 16x16 tile hist[b, tx, ty] by a scatter over a 2-D RDom(0,16)^2 (image W = 16 NTX, H = 16 NTY); outputs the u8 codes and the i32 tile histograms",
      {'NTX': (1, 64), 'NTY': (1, 48)},
      outs=lambda v: [(U8, [16 * v['NTX'], 16 * v['NTY']]), (I32, [256, v['NTX'], v['NTY']])],
      data=lambda v, r: [randint(r, (16 * v['NTX'], 16 * v['NTY']), 0, 255, np.uint8)], target='A')
def lbp(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, b, tx, ty = V("x", "y", "b", "tx", "ty")
    e = BF.repeat_edge(im, [(0, 16 * S['NTX']), (0, 16 * S['NTY'])])
    nb = [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
    code = hl.u8(0)
    for kk, (dx, dy) in enumerate(nb):
        code = code | (hl.select(e[x + dx, y + dy] >= e[x, y], hl.u8(1), hl.u8(0)) << kk)
    cd = F("lbp_code"); cd[x, y] = code
    r = RD((0, 16), (0, 16), name="r")
    hs = F("lbp_hist"); hs[b, tx, ty] = 0
    hs[hl.i32(cd[tx * 16 + r.x, ty * 16 + r.y]), tx, ty] += 1
    est_in(im, 16 * E['NTX'], 16 * E['NTY']); est_out(cd, [x, y], 16 * E['NTX'], 16 * E['NTY']); est_out(hs, [b, tx, ty], 256, E['NTX'], E['NTY'])
    return [cd, hs], [im]


# ======================================= signal ===============================================================

@spec("filtfilt_onepole_f64_forward_then_reverse_scans_tc_energy", "zero-phase one-pole low-pass (scipy filtfilt style) on f64 audio x[t, c]: forward scan over RDom(1, T-1), then a REVERSED scan written as bwd[T-2-r, c] from bwd[T-1-r, c] over RDom(0, T-1); pole a a float64 Param; outputs the filtered signal and per-channel energy (hl.sum)",
      {'T': (2, 16384), 'C': (1, 8)},
      outs=lambda v: [(F64, [v['T'], v['C']]), (F64, [v['C']])],
      data=lambda v, r: [fa(r.standard_normal((v['T'], v['C'])))], tol=1e-9, target='B')
def filtfilt(S, E):
    x = hl.ImageParam(F64, 2, "x")
    a = sparam(S, F64, "pole", 0.93)
    t, c = V("t", "c")
    T = S['T']
    r1 = RD((1, T - 1), name="r1")
    fw = F("ff_fwd"); fw[t, c] = x[t, c]
    fw[r1.x, c] = (1.0 - a) * x[r1.x, c] + a * fw[r1.x - 1, c]
    r2 = RD((0, T - 1), name="r2")
    bw = F("ff_bwd"); bw[t, c] = fw[t, c]
    tt = T - 2 - r2.x
    bw[tt, c] = (1.0 - a) * fw[tt, c] + a * bw[tt + 1, c]
    rt = RD((0, T), name="rt")
    en = F("ff_energy"); en[c] = hl.sum(bw[rt.x, c] * bw[rt.x, c])
    est_in(x, E['T'], E['C']); est_out(bw, [t, c], E['T'], E['C']); est_out(en, [c], E['C'])
    return [bw, en], [x]


@spec("stft_hann_frames_dft64_cos_sin_funcs_magnitude_hop_param", "short-time Fourier transform of a mono signal: frames fr[k, f] = x[f*HOP + k] hann[k] (64-sample frames, run-time HOP 8..64 and frame count NF), real / imaginary parts as two hl.sum contractions with cos / sin weight Funcs of ((b k) mod 64) for 33 bins, magnitude out[b, f]",
      {'NF': (1, 256), 'HOP': (8, 64)},
      outs=lambda v: [(F32, [33, v['NF']])],
      data=lambda v, r: [runif(r, ((v['NF'] - 1) * v['HOP'] + 64,), -1.0, 1.0)], tol=1e-4, target='A')
def stftdft(S, E):
    x = hl.ImageParam(F32, 1, "x")
    k, f, b = V("k", "f", "b")
    hann = F("st_hann"); hann[k] = 0.5 - 0.5 * hl.cos(TWO_PI * hl.f32(k) / 64.0)
    fr = F("st_frame"); fr[k, f] = x[f * S['HOP'] + k] * hann[k]
    ph = TWO_PI * hl.f32((b * k) % 64) / 64.0
    cw = F("st_cos"); cw[b, k] = hl.cos(ph)
    sw = F("st_sin"); sw[b, k] = hl.sin(ph)
    rk = RD((0, 64), name="rk")
    re = F("st_re"); re[b, f] = hl.sum(fr[rk.x, f] * cw[b, rk.x])
    im = F("st_im"); im[b, f] = hl.sum(fr[rk.x, f] * sw[b, rk.x])
    o = F("st_mag"); o[b, f] = hl.sqrt(re[b, f] * re[b, f] + im[b, f] * im[b, f])
    est_in(x, (E['NF'] - 1) * E['HOP'] + 64); est_out(o, [b, f], 33, E['NF'])
    return [o], [x]


# ======================================= other =================================================================

@spec("cumprod_reset_on_mask_scan_rows_f32", "cumulative product along t per row r with resets: cp[t, r] = x[t, r]; scan over RDom(1, T-1): cp = select(mask != 0, x, cp[t-1] * x) (survival-curve style), u8 mask buffer",
      {'T': (1, 2048), 'NR': (1, 64)},
      outs=lambda v: [(F32, [v['T'], v['NR']])],
      data=lambda v, r: [runif(r, (v['T'], v['NR']), 0.7, 1.35), fa((r.random((v['T'], v['NR'])) < 0.05).astype(np.uint8))], tol=1e-5, target='B')
def cumprod(S, E):
    x = hl.ImageParam(F32, 2, "x"); mk = hl.ImageParam(U8, 2, "mask")
    t, rr = V("t", "rr")
    r = RD((1, S['T'] - 1), name="r")
    cp = F("cpr_out"); cp[t, rr] = x[t, rr]
    cp[r.x, rr] = hl.select(mk[r.x, rr] != 0, x[r.x, rr], cp[r.x - 1, rr] * x[r.x, rr])
    est_in(x, E['T'], E['NR']); est_in(mk, E['T'], E['NR']); est_out(cp, [t, rr], E['T'], E['NR'])
    return [cp], [x, mk]


@spec("softmax_backward_jvp_rows_and_logsumexp_c_inner", "softmax forward and backward over c (innermost, C run-time up to 1024) per row n: lse[n] via hl.maximum + log(hl.sum(exp)), y = exp(x - lse), dot[n] = hl.sum(dy y), dx = y (dy - dot); outputs dx and lse",
      {'C': (1, 1024), 'N': (1, 256)},
      outs=lambda v: [(F32, [v['C'], v['N']]), (F32, [v['N']])],
      data=lambda v, r: [rimg(r, (v['C'], v['N'])), rimg(r, (v['C'], v['N']))], tol=1e-5, target='A')
def smbwd(S, E):
    x = hl.ImageParam(F32, 2, "x"); dy = hl.ImageParam(F32, 2, "dy")
    c, n = V("c", "n")
    rc = RD((0, S['C']), name="rc")
    mx = F("sb_max"); mx[n] = hl.maximum(x[rc.x, n])
    lse = F("sb_lse"); lse[n] = mx[n] + hl.log(hl.sum(hl.exp(x[rc.x, n] - mx[n])))
    y = F("sb_y"); y[c, n] = hl.exp(x[c, n] - lse[n])
    dt = F("sb_dot"); dt[n] = hl.sum(dy[rc.x, n] * y[rc.x, n])
    dx = F("sb_dx"); dx[c, n] = y[c, n] * (dy[c, n] - dt[n])
    est_in(x, E['C'], E['N']); est_in(dy, E['C'], E['N']); est_out(dx, [c, n], E['C'], E['N']); est_out(lse, [n], E['N'])
    return [dx, lse], [x, dy]


@spec("kth_largest_bisection_14_levels_count_tuple_lo_hi_mask_u8", "k-th largest per column b by bisection on the value: 14 unrolled levels, each a Tuple Func (lo, hi) updated from a count Func hl.sum(select(x >= mid, 1, 0)) over RDom(0, N); outputs a u8 top-k mask x >= lo and a Tuple (lo f32, count i32) per column",
      {'N': (1, 4096), 'B': (1, 16), 'K': (1, 64)},
      outs=lambda v: [(U8, [v['N'], v['B']]), (F32, [v['B']]), (I32, [v['B']])],
      data=lambda v, r: [runif(r, (v['N'], v['B']))], target='B')
def kthbis(S, E):
    x = hl.ImageParam(F32, 2, "x")
    i, b = V("i", "b")
    rn = RD((0, S['N']), name="rn")
    lh = F("kb_lh0"); lh[b] = (hl.f32(0.0), hl.f32(1.0))
    for lvl in range(14):
        mid = (lh[b][0] + lh[b][1]) * 0.5
        cnt = F("kb_cnt%d" % lvl); cnt[b] = hl.sum(hl.select(x[rn.x, b] >= mid, 1, 0))
        nx = F("kb_lh%d" % (lvl + 1))
        ok = cnt[b] >= S['K']
        nx[b] = (hl.select(ok, mid, lh[b][0]), hl.select(ok, lh[b][1], mid))
        lh = nx
    mk = F("kb_mask"); mk[i, b] = hl.select(x[i, b] >= lh[b][0], hl.u8(1), hl.u8(0))
    res = F("kb_res"); res[b] = (lh[b][0], hl.sum(hl.select(x[rn.x, b] >= lh[b][0], 1, 0)))
    est_in(x, E['N'], E['B']); est_out(mk, [i, b], E['N'], E['B']); est_out(res, [b], E['B'])
    return [mk, res], [x]


@spec("spmm_coo_scatter_rows_dense_rhs_n_inner", "sparse (COO) x dense: Y[n, m] = 0; Y[n, row[e]] += val[e] * X[n, col[e]] over RDom(0, NNZ) (entries in arbitrary order, N = 64 dense columns innermost), row / col buffers clamped into range",
      {'M': (1, 512), 'KC': (1, 512), 'NNZ': (1, 8192)},
      outs=lambda v: [(F32, [64, v['M']])],
      data=lambda v, r: [randint(r, (v['NNZ'],), 0, v['M'] - 1, np.int32), randint(r, (v['NNZ'],), 0, v['KC'] - 1, np.int32),
                         rimg(r, (v['NNZ'],)), rimg(r, (64, v['KC']))], tol=1e-5, target='A')
def spmmcoo(S, E):
    row = hl.ImageParam(I32, 1, "row"); col = hl.ImageParam(I32, 1, "col"); val = hl.ImageParam(F32, 1, "val"); X = hl.ImageParam(F32, 2, "X")
    n, m = V("n", "m")
    re = RD((0, S['NNZ']), name="re")
    Y = F("coo_Y"); Y[n, m] = 0.0
    Y[n, hl.clamp(row[re.x], 0, S['M'] - 1)] += val[re.x] * X[n, hl.clamp(col[re.x], 0, S['KC'] - 1)]
    est_in(row, E['NNZ']); est_in(col, E['NNZ']); est_in(val, E['NNZ']); est_in(X, 64, E['KC']); est_out(Y, [n, m], 64, E['M'])
    return [Y], [row, col, val, X]
