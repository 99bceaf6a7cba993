"""Red-team round 20 pipelines for Diet: new writing styles / algorithm classes not used by rounds 1-19, with the emphasis
on REDUCTIONS WRITTEN AS UPDATES ON THE OUTPUT ITSELF (out(v) = init; out(v) += ...). Same spec format as round 19
(helpers and the registry factory imported from pipes19 -> pipes18 -> ... by importlib, not copied).
target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for Adams2019c), E: estimates.
Every size and run-time scalar is a ranged int Param. Integer outputs are exact by construction (integer arithmetic with
no overflow at any in-range shape, or integer argmin of exact integer distances); float outputs are compared with the
spec's relative tolerance."""
import importlib.util
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec19 = importlib.util.spec_from_file_location("pipes_round19", os.path.join(_here, "..", "redteam19_2026-12-07", "pipes19.py"))
_round19 = importlib.util.module_from_spec(_spec19)
_spec19.loader.exec_module(_round19)
_round3 = _round19._round3
V, est_in, est_out, fa, RD, TARGETS = _round19.V, _round19.est_in, _round19.est_out, _round19.fa, _round19.RD, _round19.TARGETS
runif, randint, fE, sq, rnorm = _round19.runif, _round19.randint, _round19.fE, _round19.sq, _round19.rnorm
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round19.F32, _round19.F64, _round19.U8, _round19.U16, _round19.U32, _round19.U64,
                                                  _round19.I8, _round19.I16, _round19.I32, _round19.I64)
BF = hl.BoundaryConditions
X = _round19.X
SPECS, spec, CREATED, F = _round3.registry()


# ============================================ contractions as updates on the output ===========================

@spec("gemm_nn_bias_row_init_out_then_plus_eq_a_k_i_times_b_j_k_update_on_output_f32_j_innermost_unbatched",
      "plain GEMM written as an update on the output: out[j, i] = bias[j]; out[j, i] += A[k, i] * B[j, k] over RDom(0, K) (NN, j innermost in out and B, k innermost in A), f32, unbatched",
      {'M': (1, 192), 'N': (1, 256), 'K': (1, 320)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rnorm(r, (v['K'], v['M'])), rnorm(r, (v['N'], v['K'])), rnorm(r, (v['N'],))], tol=1e-4, target='A')
def gemm_nn_bias(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); bias = hl.ImageParam(F32, 1, "bias")
    j, i = V("j", "i")
    r = RD((0, S['K']), name="rk")
    out = F("gn_out"); out[j, i] = bias[j]
    out[j, i] += A[r, i] * B[j, r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_in(bias, E['N']); est_out(out, [j, i], E['N'], E['M'])
    return [out], [A, B, bias]


@spec("gemm_nt_i16_by_i16_widening_to_i32_zero_init_then_plus_eq_both_operands_k_innermost_update_on_output_unbatched",
      "integer GEMM, NT layout (both operands k innermost: A[k, i], Bt[k, j]), i16 x i16 widened to i32: out[j, i] = 0; out[j, i] += i32(A[k, i]) * i32(Bt[k, j]) over RDom(0, K); exact (|a|, |b| <= 2000, K <= 256)",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 256)},
      outs=lambda v: [(I32, [v['N'], v['M']])],
      data=lambda v, r: [randint(r, (v['K'], v['M']), -2000, 2000, np.int16), randint(r, (v['K'], v['N']), -2000, 2000, np.int16)], target='B')
def gemm_nt_i16(S, E):
    A = hl.ImageParam(I16, 2, "A"); Bt = hl.ImageParam(I16, 2, "Bt")
    j, i = V("j", "i")
    r = RD((0, S['K']), name="rk")
    out = F("gt_out"); out[j, i] = 0
    out[j, i] += hl.i32(A[r, i]) * hl.i32(Bt[r, j])
    est_in(A, E['K'], E['M']); est_in(Bt, E['K'], E['N']); est_out(out, [j, i], E['N'], E['M'])
    return [out], [A, Bt]


@spec("gemm_tn_u8_by_i8_widening_i32_constant_init_1000_then_plus_eq_a_transposed_i_innermost_b_j_innermost_update_on_output",
      "quantized GEMM, TN layout: A stored transposed At[i, k] (i innermost, u8), B[j, k] (j innermost, i8); out[j, i] = 1000 (a constant initial value); out[j, i] += i32(At[i, k]) * i32(B[j, k]) over RDom(0, K); exact",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 512)},
      outs=lambda v: [(I32, [v['N'], v['M']])],
      data=lambda v, r: [randint(r, (v['M'], v['K']), 0, 255, np.uint8), randint(r, (v['N'], v['K']), -128, 127, np.int8)], target='A')
def gemm_tn_u8i8(S, E):
    At = hl.ImageParam(U8, 2, "At"); B = hl.ImageParam(I8, 2, "B")
    j, i = V("j", "i")
    r = RD((0, S['K']), name="rk")
    out = F("gq_out"); out[j, i] = 1000
    out[j, i] += hl.i32(At[i, r]) * hl.i32(B[j, r])
    est_in(At, E['M'], E['K']); est_in(B, E['N'], E['K']); est_out(out, [j, i], E['N'], E['M'])
    return [out], [At, B]


@spec("bmm_tt_both_operands_transposed_a_i_k_b_b_k_j_b_zero_init_plus_eq_update_on_output_batch_outermost_f32",
      "batched GEMM, TT layout (A stored [i, k, b], i innermost; B stored [k, j, b], k innermost): out[j, i, b] = 0; out[j, i, b] += A[i, k, b] * B[k, j, b] over RDom(0, K), batch outermost, f32",
      {'NB': (1, 16), 'M': (1, 96), 'N': (1, 96), 'K': (1, 96)},
      outs=lambda v: [(F32, [v['N'], v['M'], v['NB']])],
      data=lambda v, r: [rnorm(r, (v['M'], v['K'], v['NB'])), rnorm(r, (v['K'], v['N'], v['NB']))], tol=1e-4, target='B')
def bmm_tt(S, E):
    A = hl.ImageParam(F32, 3, "A"); B = hl.ImageParam(F32, 3, "B")
    j, i, b = V("j", "i", "b")
    r = RD((0, S['K']), name="rk")
    out = F("tt_out"); out[j, i, b] = 0.0
    out[j, i, b] += A[i, r, b] * B[r, j, b]
    est_in(A, E['M'], E['K'], E['NB']); est_in(B, E['K'], E['N'], E['NB']); est_out(out, [j, i, b], E['N'], E['M'], E['NB'])
    return [out], [A, B]


@spec("gemm_beta_c_plus_alpha_ab_batched_f64_output_init_reads_input_c_alpha_beta_int_params_quarters_then_row_l2_norm_output_reads_gemm_output",
      "BLAS-style batched DGEMM written as an update on the output whose initial value reads an input: out[j, i, b] = beta C[j, i, b]; out[j, i, b] += alpha A[k, i, b] B[j, k, b] over RDom(0, K), alpha = AL / 4, beta = BE / 4 - 1 (AL, BE int Params), f64, batch outermost; second output the row L2 norm sqrt(sum_j out[j, i, b]^2) by an inline hl.sum that reads the first output",
      {'NB': (1, 8), 'M': (1, 128), 'N': (1, 128), 'K': (1, 128), 'AL': (1, 8), 'BE': (0, 8)},
      outs=lambda v: [(F64, [v['N'], v['M'], v['NB']]), (F64, [v['M'], v['NB']])],
      data=lambda v, r: [rnorm(r, (v['N'], v['M'], v['NB']), np.float64), rnorm(r, (v['K'], v['M'], v['NB']), np.float64),
                         rnorm(r, (v['N'], v['K'], v['NB']), np.float64)], tol=1e-9, target='A')
def gemm_beta(S, E):
    C = hl.ImageParam(F64, 3, "C"); A = hl.ImageParam(F64, 3, "A"); B = hl.ImageParam(F64, 3, "B")
    j, i, b = V("j", "i", "b")
    alpha = hl.f64(S['AL']) / 4.0
    beta = hl.f64(S['BE']) / 4.0 - 1.0
    r = RD((0, S['K']), name="rk")
    out = F("gb_out"); out[j, i, b] = beta * C[j, i, b]
    out[j, i, b] += alpha * A[r, i, b] * B[j, r, b]
    rn = RD((0, S['N']), name="rn")
    nrm = F("gb_rownorm"); nrm[i, b] = hl.sqrt(hl.sum(out[rn, i, b] * out[rn, i, b]))
    est_in(C, E['N'], E['M'], E['NB']); est_in(A, E['K'], E['M'], E['NB']); est_in(B, E['N'], E['K'], E['NB'])
    est_out(out, [j, i, b], E['N'], E['M'], E['NB']); est_out(nrm, [i, b], E['M'], E['NB'])
    return [out, nrm], [C, A, B]


@spec("bmm_numpy_index_order_c_b_i_j_batch_innermost_first_arg_zero_init_plus_eq_a_b_i_k_times_b_b_k_j_update_on_output_f32",
      "batched matmul written as a numpy user would: C[b, i, j] = 0; C[b, i, j] += A[b, i, k] * B[b, k, j] (Halide argument order taken straight from the numpy index order, so the BATCH is the innermost dimension of every buffer), f32",
      {'NB': (1, 32), 'M': (1, 64), 'N': (1, 64), 'K': (1, 64)},
      outs=lambda v: [(F32, [v['NB'], v['M'], v['N']])],
      data=lambda v, r: [rnorm(r, (v['NB'], v['M'], v['K'])), rnorm(r, (v['NB'], v['K'], v['N']))], tol=1e-4, target='B')
def bmm_numpy(S, E):
    A = hl.ImageParam(F32, 3, "A"); B = hl.ImageParam(F32, 3, "B")
    b, i, j = V("b", "i", "j")
    k = RD((0, S['K']), name="k")
    C = F("np_C")
    C[b, i, j] = 0.0
    C[b, i, j] += A[b, i, k] * B[b, k, j]
    est_in(A, E['NB'], E['M'], E['K']); est_in(B, E['NB'], E['K'], E['N']); est_out(C, [b, i, j], E['NB'], E['M'], E['N'])
    return [C], [A, B]


@spec("conv2d_valid_out_x_y_co_bias_init_plus_eq_3d_rdom_kx_ky_ci_weights_kx_ky_ci_co_kernel_size_param_planar_f32_update_on_output",
      "direct 2-D convolution written as one update on the output with a 3-D RDom: out[x, y, co] = bias[co]; out[x, y, co] += w[kx, ky, ci, co] * in[x + kx, y + ky, ci] over RDom (kx, ky, ci) with kernel size KS a Param; planar [x, y, c] f32, valid (input extent W + KS - 1)",
      {'W': (1, 64), 'H': (1, 64), 'CI': (1, 32), 'CO': (1, 32), 'KS': (1, 5)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['CO']])],
      data=lambda v, r: [rnorm(r, (v['W'] + v['KS'] - 1, v['H'] + v['KS'] - 1, v['CI'])), rnorm(r, (v['KS'], v['KS'], v['CI'], v['CO'])),
                         rnorm(r, (v['CO'],))], tol=1e-4, target='A')
def conv_upd(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w"); bias = hl.ImageParam(F32, 1, "bias")
    x, y, co = V("x", "y", "co")
    KS = S['KS']
    r = RD((0, KS), (0, KS), (0, S['CI']), name="r")
    out = F("cv_out"); out[x, y, co] = bias[co]
    out[x, y, co] += w[r.x, r.y, r.z, co] * inp[x + r.x, y + r.y, r.z]
    est_in(inp, E['W'] + E['KS'] - 1, E['H'] + E['KS'] - 1, E['CI']); est_in(w, E['KS'], E['KS'], E['CI'], E['CO']); est_in(bias, E['CO'])
    est_out(out, [x, y, co], E['W'], E['H'], E['CO'])
    return [out], [inp, w, bias]


@spec("qconv_nhwc_u8_minus_zero_point_param_times_i8_weights_i32_bias_init_plus_eq_rdom_ci_kx_ky_ci_innermost_co_innermost_out_update_on_output",
      "quantized conv, channels innermost (NHWC-like [c, x, y]): out[co, x, y] = bias[co] (i32 buffer); out[co, x, y] += (i32(in[ci, x + kx, y + ky]) - ZP) * i32(w[ci, kx, ky, co]) over RDom (ci, kx, ky) (ci innermost), u8 input, zero point ZP a Param, i8 weights, kernel size KS a Param; exact",
      {'W': (1, 48), 'H': (1, 48), 'CI': (1, 32), 'CO': (1, 32), 'KS': (1, 3), 'ZP': (0, 255)},
      outs=lambda v: [(I32, [v['CO'], v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['CI'], v['W'] + v['KS'] - 1, v['H'] + v['KS'] - 1), 0, 255, np.uint8),
                         randint(r, (v['CI'], v['KS'], v['KS'], v['CO']), -128, 127, np.int8), randint(r, (v['CO'],), -10000, 10000, np.int32)], target='B')
def qconv(S, E):
    inp = hl.ImageParam(U8, 3, "inp"); w = hl.ImageParam(I8, 4, "w"); bias = hl.ImageParam(I32, 1, "bias")
    co, x, y = V("co", "x", "y")
    KS = S['KS']
    r = RD((0, S['CI']), (0, KS), (0, KS), name="r")
    out = F("qc_out"); out[co, x, y] = bias[co]
    out[co, x, y] += (hl.i32(inp[r.x, x + r.y, y + r.z]) - S['ZP']) * hl.i32(w[r.x, r.y, r.z, co])
    est_in(inp, E['CI'], E['W'] + E['KS'] - 1, E['H'] + E['KS'] - 1); est_in(w, E['CI'], E['KS'], E['KS'], E['CO']); est_in(bias, E['CO'])
    est_out(out, [co, x, y], E['CO'], E['W'], E['H'])
    return [out], [inp, w, bias]


@spec("causal_pv_product_rdom_where_k_le_i_plus_offset_param_zero_init_plus_eq_p_k_i_times_v_d_k_update_on_output_d_innermost_f32",
      "masked contraction (attention probabilities times values) with RDom::where on the output's pure var: out[d, i] = 0; out[d, i] += P[k, i] * Vv[d, k] over RDom(0, T) with where(k <= i + OFF) (OFF a Param), d innermost, f32",
      {'T': (1, 256), 'D': (1, 64), 'OFF': (0, 8)},
      outs=lambda v: [(F32, [v['D'], v['T']])],
      data=lambda v, r: [runif(r, (v['T'], v['T'])), rnorm(r, (v['D'], v['T']))], tol=1e-4, target='A')
def causal_pv(S, E):
    P = hl.ImageParam(F32, 2, "P"); Vv = hl.ImageParam(F32, 2, "Vv")
    d, i = V("d", "i")
    r = RD((0, S['T']), name="rk"); r.where(r.x <= i + S['OFF'])
    out = F("cp_out"); out[d, i] = 0.0
    out[d, i] += P[r, i] * Vv[d, r]
    est_in(P, E['T'], E['T']); est_in(Vv, E['D'], E['T']); est_out(out, [d, i], E['D'], E['T'])
    return [out], [P, Vv]


@spec("rnn_preactivation_two_contraction_updates_on_one_output_bias_init_plus_x_wx_then_plus_h_wh_different_k_params_f32",
      "RNN cell pre-activation as an output with TWO updates: out[j, i] = b[j]; out[j, i] += X[kx, i] Wx[j, kx] over RDom(0, KX); out[j, i] += Hh[kh, i] Wh[j, kh] over RDom(0, KH) (KX, KH separate Params), j innermost, f32",
      {'M': (1, 128), 'N': (1, 192), 'KX': (1, 128), 'KH': (1, 192)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rnorm(r, (v['KX'], v['M'])), rnorm(r, (v['N'], v['KX'])), rnorm(r, (v['KH'], v['M'])), rnorm(r, (v['N'], v['KH'])),
                         rnorm(r, (v['N'],))], tol=1e-4, target='B')
def rnn_two(S, E):
    Xi = hl.ImageParam(F32, 2, "Xi"); Wx = hl.ImageParam(F32, 2, "Wx"); Hh = hl.ImageParam(F32, 2, "Hh"); Wh = hl.ImageParam(F32, 2, "Wh")
    b = hl.ImageParam(F32, 1, "b")
    j, i = V("j", "i")
    rx = RD((0, S['KX']), name="rx"); rh = RD((0, S['KH']), name="rh")
    out = F("rn_out"); out[j, i] = b[j]
    out[j, i] += Xi[rx, i] * Wx[j, rx]
    out[j, i] += Hh[rh, i] * Wh[j, rh]
    est_in(Xi, E['KX'], E['M']); est_in(Wx, E['N'], E['KX']); est_in(Hh, E['KH'], E['M']); est_in(Wh, E['N'], E['KH']); est_in(b, E['N'])
    est_out(out, [j, i], E['N'], E['M'])
    return [out], [Xi, Wx, Hh, Wh, b]


@spec("complex_gemm_planar_re_im_tuple_output_zero_tuple_init_then_tuple_update_re_plus_ar_br_minus_ai_bi_im_plus_ar_bi_plus_ai_br_f32",
      "complex GEMM with planar re/im buffers and a TUPLE OUTPUT updated in place: out[j, i] = (0, 0); out[j, i] = (out[j, i][0] + ar br - ai bi, out[j, i][1] + ar bi + ai br) over RDom(0, K) with ar = Ar[k, i], br = Br[j, k] etc., f32; the Tuple realizes into two buffers",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [v['N'], v['M']])],
      data=lambda v, r: [rnorm(r, (v['K'], v['M'])), rnorm(r, (v['K'], v['M'])), rnorm(r, (v['N'], v['K'])), rnorm(r, (v['N'], v['K']))],
      tol=1e-4, target='A')
def cgemm_tuple(S, E):
    Ar = hl.ImageParam(F32, 2, "Ar"); Ai = hl.ImageParam(F32, 2, "Ai"); Br = hl.ImageParam(F32, 2, "Br"); Bi = hl.ImageParam(F32, 2, "Bi")
    j, i = V("j", "i")
    k = RD((0, S['K']), name="rk")
    out = F("cg_out"); out[j, i] = (hl.f32(0), hl.f32(0))
    ar, ai, br, bi = Ar[k, i], Ai[k, i], Br[j, k], Bi[j, k]
    out[j, i] = (out[j, i][0] + (ar * br - ai * bi), out[j, i][1] + (ar * bi + ai * br))
    for ip, e in ((Ar, (E['K'], E['M'])), (Ai, (E['K'], E['M'])), (Br, (E['N'], E['K'])), (Bi, (E['N'], E['K']))):
        est_in(ip, *e)
    est_out(out, [j, i], E['N'], E['M'])
    return [out], [Ar, Ai, Br, Bi]


BIG = 1 << 28


@spec("minplus_and_maxmin_bottleneck_products_as_min_max_updates_on_two_outputs_i32_init_plus_minus_big_a_k_i_b_j_k",
      "two semiring products written as MIN / MAX updates on the outputs: d[j, i] = 2^28; d[j, i] = min(d[j, i], A[k, i] + B[j, k]) (min-plus) and bn[j, i] = -2^28; bn[j, i] = max(bn[j, i], min(A[k, i], B[j, k])) (max-min bottleneck) over RDom(0, K), i32, j innermost; exact",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 256)},
      outs=lambda v: [(I32, [v['N'], v['M']]), (I32, [v['N'], v['M']])],
      data=lambda v, r: [randint(r, (v['K'], v['M']), -100000, 100000), randint(r, (v['N'], v['K']), -100000, 100000)], target='B')
def minmax_upd(S, E):
    A = hl.ImageParam(I32, 2, "A"); B = hl.ImageParam(I32, 2, "B")
    j, i = V("j", "i")
    k1 = RD((0, S['K']), name="k1"); k2 = RD((0, S['K']), name="k2")
    d = F("mm_minplus"); d[j, i] = BIG
    d[j, i] = hl.min(d[j, i], A[k1, i] + B[j, k1])
    bn = F("mm_bottleneck"); bn[j, i] = -BIG
    bn[j, i] = hl.max(bn[j, i], hl.min(A[k2, i], B[j, k2]))
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(d, [j, i], E['N'], E['M']); est_out(bn, [j, i], E['N'], E['M'])
    return [d, bn], [A, B]


@spec("logits_zero_init_plus_eq_x_k_i_w_j_k_update_on_output_then_softmax_over_j_second_output_reads_logits_output_hlmaximum_hlsum_f32",
      "classifier head: logits[j, i] = 0; logits[j, i] += X[k, i] W[j, k] over RDom(0, K) (an output), then a second output probs[j, i] = exp(logits - hl.maximum_j logits) / hl.sum_j exp(...) that reads the first output, f32",
      {'M': (1, 128), 'N': (1, 256), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [v['N'], v['M']])],
      data=lambda v, r: [rnorm(r, (v['K'], v['M'])), (rnorm(r, (v['N'], v['K'])) * 0.2).astype(np.float32)], tol=1e-4, target='A')
def logits_softmax(S, E):
    Xi = hl.ImageParam(F32, 2, "Xi"); W = hl.ImageParam(F32, 2, "W")
    j, i = V("j", "i")
    k = RD((0, S['K']), name="rk")
    lg = F("ls_logits"); lg[j, i] = 0.0
    lg[j, i] += Xi[k, i] * W[j, k]
    rn = RD((0, S['N']), name="rn")
    mx = F("ls_max"); mx[i] = hl.maximum(lg[rn, i])
    ex = F("ls_exp"); ex[j, i] = hl.exp(lg[j, i] - mx[i])
    rs = RD((0, S['N']), name="rs")
    den = F("ls_den"); den[i] = hl.sum(ex[rs, i])
    pr = F("ls_probs"); pr[j, i] = ex[j, i] / den[i]
    est_in(Xi, E['K'], E['M']); est_in(W, E['N'], E['K']); est_out(lg, [j, i], E['N'], E['M']); est_out(pr, [j, i], E['N'], E['M'])
    return [lg, pr], [Xi, W]


@spec("bilinear_form_batched_x_i_b_w_i_j_o_y_j_b_two_rvar_rdom_zero_init_plus_eq_three_operand_product_update_on_output_f32",
      "einsum 'ib,ijo,jb->ob' written as an update on the output over a 2-D RDom (i, j): out[o, b] = 0; out[o, b] += x[i, b] W[i, j, o] y[j, b] (three operands, two reduction variables), f32",
      {'NB': (1, 64), 'I': (1, 48), 'J': (1, 48), 'O': (1, 32)},
      outs=lambda v: [(F32, [v['O'], v['NB']])],
      data=lambda v, r: [rnorm(r, (v['I'], v['NB'])), rnorm(r, (v['I'], v['J'], v['O'])), rnorm(r, (v['J'], v['NB']))], tol=1e-4, target='B')
def bilinear(S, E):
    x = hl.ImageParam(F32, 2, "x"); W = hl.ImageParam(F32, 3, "W"); y = hl.ImageParam(F32, 2, "y")
    o, b = V("o", "b")
    r = RD((0, S['I']), (0, S['J']), name="r")
    out = F("bl_out"); out[o, b] = 0.0
    out[o, b] += x[r.x, b] * W[r.x, r.y, o] * y[r.y, b]
    est_in(x, E['I'], E['NB']); est_in(W, E['I'], E['J'], E['O']); est_in(y, E['J'], E['NB']); est_out(out, [o, b], E['O'], E['NB'])
    return [out], [x, W, y]


@spec("einsum_pqrs_i_pqrs_j_to_i_j_four_rvar_rdom_i8_by_i8_widening_i32_zero_init_plus_eq_update_on_output_5d_operands",
      "einsum 'pqrsi,pqrsj->ij' over FOUR reduction variables written as an update on the output: out[i, j] = 0; out[i, j] += i32(A[p, q, r, s, i]) * i32(B[p, q, r, s, j]) over a 4-D RDom, i8 operands (5-D buffers), i32 output; exact",
      {'P': (1, 6), 'Q': (1, 6), 'R': (1, 6), 'S': (1, 6), 'M': (1, 48), 'N': (1, 48)},
      outs=lambda v: [(I32, [v['M'], v['N']])],
      data=lambda v, r: [randint(r, (v['P'], v['Q'], v['R'], v['S'], v['M']), -128, 127, np.int8),
                         randint(r, (v['P'], v['Q'], v['R'], v['S'], v['N']), -128, 127, np.int8)], target='A')
def einsum4(S, E):
    A = hl.ImageParam(I8, 5, "A"); B = hl.ImageParam(I8, 5, "B")
    i, j = V("i", "j")
    r = RD((0, S['P']), (0, S['Q']), (0, S['R']), (0, S['S']), name="r")
    out = F("e4_out"); out[i, j] = 0
    out[i, j] += hl.i32(A[r.x, r.y, r.z, r.w, i]) * hl.i32(B[r.x, r.y, r.z, r.w, j])
    est_in(A, E['P'], E['Q'], E['R'], E['S'], E['M']); est_in(B, E['P'], E['Q'], E['R'], E['S'], E['N']); est_out(out, [i, j], E['M'], E['N'])
    return [out], [A, B]


@spec("polyphase_decimating_fir_i16_taps_param_factor_param_zero_init_plus_eq_h_r_x_n_d_plus_r_i32_update_on_output_then_i16_saturating_shift_output_reads_it",
      "decimating FIR (strided contraction) as an update on the output: acc[n] = 0; acc[n] += i32(h[r]) * i32(x[n D + r]) over RDom(0, T) (decimation D and tap count T Params), i16 input/taps, i32 output; second output i16(clamp(acc[n] >> SH, -32768, 32767)) reading the first (SH a Param); exact",
      {'N': (1, 8192), 'D': (1, 8), 'T': (1, 64), 'SH': (0, 15)},
      outs=lambda v: [(I32, [v['N']]), (I16, [v['N']])],
      data=lambda v, r: [randint(r, ((v['N'] - 1) * v['D'] + v['T'],), -32768, 32767, np.int16), randint(r, (v['T'],), -2000, 2000, np.int16)], target='B')
def polyfir(S, E):
    x = hl.ImageParam(I16, 1, "x"); h = hl.ImageParam(I16, 1, "h")
    n = V("n")[0]
    r = RD((0, S['T']), name="rt")
    acc = F("pf_acc"); acc[n] = 0
    acc[n] += hl.i32(h[r]) * hl.i32(x[n * S['D'] + r])
    sat = F("pf_sat"); sat[n] = hl.i16(hl.clamp(acc[n] >> S['SH'], -32768, 32767))
    est_in(x, (E['N'] - 1) * E['D'] + E['T']); est_in(h, E['T']); est_out(acc, [n], E['N']); est_out(sat, [n], E['N'])
    return [acc, sat], [x, h]


@spec("autocorrelation_lags_zero_init_plus_eq_x_t_x_t_plus_lag_rdom_where_t_plus_lag_lt_t_param_referencing_pure_var_i16_to_i32_series_outer_update_on_output",
      "per-series autocorrelation as an update on the output whose RDom::where reads the pure lag var: ac[lag, b] = 0; ac[lag, b] += i32(x[t, b]) * i32(x[t + lag, b]) over RDom(0, T) with where(t + lag < T), lags 0..L-1, i16 input padded by L samples that must not count; exact",
      {'T': (1, 1024), 'L': (1, 64), 'NB': (1, 16)},
      outs=lambda v: [(I32, [v['L'], v['NB']])],
      data=lambda v, r: [randint(r, (v['T'] + v['L'], v['NB']), -1000, 1000, np.int16)], target='A')
def autocorr(S, E):
    x = hl.ImageParam(I16, 2, "x")
    lag, b = V("lag", "b")
    T = S['T']
    r = RD((0, T), name="rt"); r.where(r.x + lag < T)
    ac = F("ac_out"); ac[lag, b] = 0
    ac[lag, b] += hl.i32(x[r, b]) * hl.i32(x[r + lag, b])
    est_in(x, E['T'] + E['L'], E['NB']); est_out(ac, [lag, b], E['L'], E['NB'])
    return [ac], [x]


# ============================================ non-contraction classes ========================================

@spec("gray_scott_reaction_diffusion_3_steps_u_v_separate_funcs_repeat_image_torus_on_each_step_5pt_laplacian_python_def_feed_kill_int_params_thousandths_f32",
      "Gray-Scott reaction-diffusion, 3 explicit Euler steps; each step's u and v are separate Funcs read through BoundaryConditions.repeat_image (periodic torus) of the previous step, 5-point Laplacian from a Python def, feed = FE / 1000 and kill = KL / 1000 (int Params), Du = 0.16, Dv = 0.08; outputs u, v, f32",
      {'W': (1, 512), 'H': (1, 512), 'FE': (1, 60), 'KL': (1, 70)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']), 0.5, 1.0), runif(r, (v['W'], v['H']), 0.0, 0.5)], tol=1e-5, target='B')
def gray_scott(S, E):
    u0 = hl.ImageParam(F32, 2, "u0"); v0 = hl.ImageParam(F32, 2, "v0")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    feed = hl.f32(S['FE']) / 1000.0; kill = hl.f32(S['KL']) / 1000.0
    bnd = [(0, W), (0, H)]

    def lap(f):
        return f[x - 1, y] + f[x + 1, y] + f[x, y - 1] + f[x, y + 1] - 4.0 * f[x, y]
    ue = BF.repeat_image(u0, bnd); ve = BF.repeat_image(v0, bnd)
    u = v = None
    for s in range(3):
        uvv = ue[x, y] * ve[x, y] * ve[x, y]
        u = F("gs_u%d" % s if s < 2 else "gs_u"); u[x, y] = ue[x, y] + (0.16 * lap(ue) - uvv + feed * (1.0 - ue[x, y]))
        v = F("gs_v%d" % s if s < 2 else "gs_v"); v[x, y] = ve[x, y] + (0.08 * lap(ve) + uvv - (feed + kill) * ve[x, y])
        if s < 2:
            ue = BF.repeat_image(u, bnd); ve = BF.repeat_image(v, bnd)
    est_in(u0, E['W'], E['H']); est_in(v0, E['W'], E['H']); est_out(u, [x, y], E['W'], E['H']); est_out(v, [x, y], E['W'], E['H'])
    return [u, v], [u0, v0]


@spec("lrn_across_channels_alexnet_nchw_hlsum_window_radius_param_constant_exterior_on_channel_hlpow_beta_075_f32",
      "local response normalization across channels (AlexNet LRN), NCHW planar [x, y, c, n]: out = in / (2 + 1e-4 / (2R+1) hl.sum_{d=-R..R} in[x, y, c + d, n]^2)^0.75 with hl.pow, the channel window read through BoundaryConditions.constant_exterior (0) and the radius R a Param, f32",
      {'W': (1, 64), 'H': (1, 64), 'C': (1, 64), 'NB': (1, 4), 'R': (0, 3)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C'], v['NB']])],
      data=lambda v, r: [(rnorm(r, (v['W'], v['H'], v['C'], v['NB'])) * 20).astype(np.float32)], tol=1e-5, target='A')
def lrn(S, E):
    inp = hl.ImageParam(F32, 4, "inp")
    x, y, c, n = V("x", "y", "c", "n")
    R = S['R']
    ce = BF.constant_exterior(inp, hl.f32(0), [(0, S['W']), (0, S['H']), (0, S['C']), (0, S['NB'])])
    rd = RD((-R, 2 * R + 1), name="rc")
    ssq = F("lrn_ssq"); ssq[x, y, c, n] = hl.sum(ce[x, y, c + rd, n] * ce[x, y, c + rd, n])
    out = F("lrn_out"); out[x, y, c, n] = inp[x, y, c, n] / hl.pow(2.0 + (1e-4 / hl.f32(2 * R + 1)) * ssq[x, y, c, n], 0.75)
    est_in(inp, E['W'], E['H'], E['C'], E['NB']); est_out(out, [x, y, c, n], E['W'], E['H'], E['C'], E['NB'])
    return [out], [inp]


@spec("palette_quantize_interleaved_rgb_u8_hlargmin_over_palette_param_squared_distance_then_gather_palette_rgb_u8_and_index_u8_outputs",
      "colour quantization to a palette of P colours (u8 pal[c, p]): per pixel of an interleaved-RGB u8 image [c, x, y] the palette index by hl.argmin over RDom(0, P) of the exact i32 squared RGB distance (first index wins ties), output the u8 index map and the gathered palette RGB (interleaved [c, x, y]); exact",
      {'W': (1, 640), 'H': (1, 480), 'P': (1, 64)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8), randint(r, (3, v['P']), 0, 255, np.uint8)], target='B')
def palette(S, E):
    img = hl.ImageParam(U8, 3, "img"); pal = hl.ImageParam(U8, 2, "pal")
    c, x, y = V("c", "x", "y")
    p = RD((0, S['P']), name="rp")
    dist = sum((hl.i32(img[ch, x, y]) - hl.i32(pal[ch, p])) * (hl.i32(img[ch, x, y]) - hl.i32(pal[ch, p])) for ch in range(3))
    idx = F("pq_argmin"); idx[x, y] = hl.argmin(dist)[0]
    io = F("pq_index"); io[x, y] = hl.u8(idx[x, y])
    rgb = F("pq_rgb"); rgb[c, x, y] = pal[c, hl.clamp(idx[x, y], 0, S['P'] - 1)]
    est_in(img, 3, E['W'], E['H']); est_in(pal, 3, E['P']); est_out(io, [x, y], E['W'], E['H']); est_out(rgb, [c, x, y], 3, E['W'], E['H'])
    return [io, rgb], [img, pal]


@spec("difference_of_boxes_lambda_func_box3_plus_radius_param_box_func_in_wrapper_mirror_image_u8_select_chain_tone_curve_threshold_param_u8",
      "band-pass detail map on a u8 image: mirror_image boundary, a 3x3 box sum written with hl.lambda_func, a (2R+1)^2 box sum (R a Param) by hl.sum over a 2-D RDom reading the boundary Func through Func.in_() (a wrapper for that consumer), d = 9-normalized difference in i32 (exact integer arithmetic: 9 box_R - (2R+1)^2 box3, divided by (2R+1)^2), then a select-chain tone curve with threshold TH (a Param): d < -TH -> 0, d > TH -> 255, else 128 + 127 d / TH (integer division), u8",
      {'W': (1, 640), 'H': (1, 480), 'R': (1, 4), 'TH': (1, 64)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def dob(S, E):
    img = hl.ImageParam(U8, 2, "img")
    x, y = V("x", "y")
    R, TH = S['R'], S['TH']
    m = BF.mirror_image(img, [(0, S['W']), (0, S['H'])])
    mi = F("db_m"); mi[x, y] = hl.i32(m[x, y])
    box3 = hl.lambda_func(x, y, sum(mi[x + dx, y + dy] for dx in (-1, 0, 1) for dy in (-1, 0, 1)))
    wr = mi.in_()
    rr = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rb")
    boxr = F("db_boxr"); boxr[x, y] = hl.sum(wr[x + rr.x, y + rr.y])
    n2 = (2 * R + 1) * (2 * R + 1)
    d = (9 * boxr[x, y] - n2 * box3[x, y]) / (9 * n2)
    out = F("db_out"); out[x, y] = hl.select(d < -TH, hl.u8(0), d > TH, hl.u8(255), hl.u8(128 + (127 * d) / TH))
    est_in(img, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [img]


LBM_C = [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)]
LBM_W = [4 / 9] + [1 / 9] * 4 + [1 / 36] * 4


@spec("lattice_boltzmann_d2q9_bgk_one_step_q_innermost_hlsum_moments_mux_velocity_tables_pull_streaming_repeat_image_periodic_omega_param_tenths_f32",
      "lattice-Boltzmann D2Q9 BGK, one collide-and-stream step on f[q, x, y] (q innermost, f32): density and velocity by hl.sum over RDom(0, 9) with the lattice velocities from hl.mux on q, equilibrium with weights from hl.mux, relaxation omega = OM / 10 (a Param), then pull streaming out[q, x, y] = post[q, x - cx[q], y - cy[q]] through BoundaryConditions.repeat_image (periodic); second output the density rho[x, y]",
      {'W': (1, 256), 'H': (1, 256), 'OM': (5, 19)},
      outs=lambda v: [(F32, [9, v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (9, v['W'], v['H']), 0.05, 0.15)], tol=1e-5, target='B')
def lbm(S, E):
    f = hl.ImageParam(F32, 3, "f")
    q, x, y = V("q", "x", "y")
    om = hl.f32(S['OM']) / 10.0
    cx = lambda e: hl.mux(e, [c[0] for c in LBM_C])
    cy = lambda e: hl.mux(e, [c[1] for c in LBM_C])
    wq = lambda e: hl.mux(e, [hl.f32(w) for w in LBM_W])
    r = RD((0, 9), name="rq")
    rho = F("lb_rho"); rho[x, y] = hl.sum(f[r, x, y])
    mom = F("lb_mom"); mom[x, y] = (hl.sum(f[r, x, y] * hl.f32(cx(r.x))), hl.sum(f[r, x, y] * hl.f32(cy(r.x))))
    ux = mom[x, y][0] / rho[x, y]; uy = mom[x, y][1] / rho[x, y]
    cu = 3.0 * (hl.f32(cx(q)) * ux + hl.f32(cy(q)) * uy)
    feq = wq(q) * rho[x, y] * (1.0 + cu + 0.5 * cu * cu - 1.5 * (ux * ux + uy * uy))
    post = F("lb_post"); post[q, x, y] = f[q, x, y] + om * (feq - f[q, x, y])
    pe = BF.repeat_image(post, [(0, 9), (0, S['W']), (0, S['H'])])
    out = F("lb_out"); out[q, x, y] = pe[q, x - cx(q), y - cy(q)]
    est_in(f, 9, E['W'], E['H']); est_out(out, [q, x, y], 9, E['W'], E['H']); est_out(rho, [x, y], E['W'], E['H'])
    return [out, rho], [f]
