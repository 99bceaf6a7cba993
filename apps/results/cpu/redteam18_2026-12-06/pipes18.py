"""Red-team round 18 pipelines for Diet: 22 new algorithms / writing styles not used by rounds 1-17. Same spec format as
round 17 (helpers and the registry factory imported from pipes17 -> pipes16 -> ... by importlib, not copied).
target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for Adams2019c), E: estimates.
Every size and run-time scalar is a ranged int Param. Where an output is an integer that depends on a float comparison
or rounding, the data are integer-valued (exact f32/f64 sums) or the arithmetic is fixed-point, so that a legal
reassociation by a scheduler cannot flip it."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec17 = importlib.util.spec_from_file_location("pipes_round17", os.path.join(_here, "..", "redteam17_2026-12-06", "pipes17.py"))
_round17 = importlib.util.module_from_spec(_spec17)
_spec17.loader.exec_module(_round17)
_round3 = _round17._round3
V, est_in, est_out, fa, RD, TARGETS = _round17.V, _round17.est_in, _round17.est_out, _round17.fa, _round17.RD, _round17.TARGETS
D, MX, runif, randint, fE, sq, rnorm = _round17.D, _round17.MX, _round17.runif, _round17.randint, _round17.fE, _round17.sq, _round17.rnorm
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round17.F32, _round17.F64, _round17.U8, _round17.U16, _round17.U32, _round17.U64,
                                                  _round17.I8, _round17.I16, _round17.I32, _round17.I64)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def dct_basis_q12():
    c = np.zeros((8, 8), np.int16)
    for u in range(8):
        for k in range(8):
            a = math.sqrt(1 / 8) if u == 0 else math.sqrt(2 / 8)
            c[u, k] = int(round(4096 * a * math.cos((2 * k + 1) * u * math.pi / 16)))
    return fa(c)


def spd4(r, B):
    M = r.standard_normal((B, 4, 4))
    A = np.einsum('bik,bjk->bij', M, M) + 4 * np.eye(4)[None]
    return fa(np.transpose(A, (1, 2, 0)).copy())  # [i, j, b]


def walk(r, shape):
    """integer-valued positive random walks along dim 0 (f32 exact)"""
    steps = r.integers(-3, 4, shape)
    return fa((1000 + np.cumsum(steps, 0)).astype(np.float32))


# ============================================ image ===========================================================

@spec("dct8x8_blocks_int_q12_basis_buffer_rows_inline_hlsum_cols_explicit_update_block_divmod_indexing_quality_param_quant_table_func_round_half_away_i16",
      "JPEG-style forward 8x8 DCT on u8 gray (W = 8 BX, H = 8 BY): level shift -128, rows by an inline hl.sum over RDom(0, 8) of a Q12 i16 basis buffer cb[x % 8, k] times s[(x / 8) 8 + k, y], then columns by an explicit update Func over RDom(0, 8) (>> 12 after each pass, exact i32), quantized by a quant-table Func qt[u, v] = 1 + (u + v) Q (Q a Param) with integer round-half-away division; i16 coefficient image in the spatial layout",
      {'BX': (1, 96), 'BY': (1, 64), 'Q': (1, 16)},
      outs=lambda v: [(I16, [8 * v['BX'], 8 * v['BY']])],
      data=lambda v, r: [randint(r, (8 * v['BX'], 8 * v['BY']), 0, 255, np.uint8), dct_basis_q12()], target='A')
def dct8(S, E):
    im = hl.ImageParam(U8, 2, "im"); cb = hl.ImageParam(I16, 2, "cb")
    x, y, u, w = V("x", "y", "u", "v")
    s = F("dc_shift"); s[x, y] = hl.i32(im[x, y]) - 128
    k = RD((0, 8), name="k")
    rows = F("dc_rows"); rows[x, y] = (hl.sum(hl.i32(cb[x % 8, k]) * s[(x / 8) * 8 + k, y]) + 2048) >> 12
    kc = RD((0, 8), name="kc")
    cols = F("dc_cols"); cols[x, y] = hl.i32(2048)
    cols[x, y] += hl.i32(cb[y % 8, kc]) * rows[x, (y / 8) * 8 + kc]
    qt = F("dc_qt"); qt[u, w] = 1 + (u + w) * S['Q']
    c = cols[x, y] >> 12
    q = qt[x % 8, y % 8]
    out = F("dc_out"); out[x, y] = hl.i16(hl.select(c >= 0, (c + q / 2) / q, -((-c + q / 2) / q)))
    est_in(im, 8 * E['BX'], 8 * E['BY']); est_in(cb, 8, 8); est_out(out, [x, y], 8 * E['BX'], 8 * E['BY'])
    return [out], [im, cb]


@spec("census5x5_u32_bitpack_unrolled_or_chain_mirror_interior_left_right_hamming_popcount_inline_hlargmin_over_disparity_param_u8_plus_census_output",
      "stereo by census transform: 5x5 census of left and right u8 images (24 comparisons nb < centre packed into a u32 by a python-unrolled shift/or chain, mirror_interior), cost = popcount(cl[x, y] ^ cr[clamp(x - d), y]) and the disparity as an inline hl.argmin over RDom(0, ND) (ND a Param), u8; second output the left census u32",
      {'W': (1, 640), 'H': (1, 480), 'ND': (1, 64)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U32, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def census(S, E):
    L = hl.ImageParam(U8, 2, "left"); Rt = hl.ImageParam(U8, 2, "right")
    x, y = V("x", "y")
    W, H = S['W'], S['H']

    def cen(img, nm):
        e = BF.mirror_interior(img, [(0, W), (0, H)])
        c = hl.u32(0)
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if dx or dy:
                    c = (c << 1) | hl.select(e[x + dx, y + dy] < e[x, y], hl.u32(1), hl.u32(0))
        f = F("cs_" + nm); f[x, y] = c
        return f
    cl, cr = cen(L, "left"), cen(Rt, "right")
    rd = RD((0, S['ND']), name="rd")
    cost = hl.popcount(cl[x, y] ^ cr[hl.clamp(x - rd, 0, W - 1), y])
    disp = F("cs_disp"); disp[x, y] = hl.u8(hl.argmin(cost)[0])
    cout = F("cs_out"); cout[x, y] = cl[x, y]
    est_in(L, E['W'], E['H']); est_in(Rt, E['W'], E['H']); est_out(disp, [x, y], E['W'], E['H']); est_out(cout, [x, y], E['W'], E['H'])
    return [disp, cout], [L, Rt]


@spec("bitplane_gray_code_u16_msb_first_planes_param_u8_3d_out_b_outermost_plus_per_plane_count_2d_rdom_update_plus_row_popcount_inline_hlsum",
      "bit-plane slicing of a u16 image in Gray code g = v ^ (v >> 1): planes[x, y, b] = bit (15 - b) of g as u8 0/255 for the NB most significant planes (NB a Param, b outermost); per-plane u32 set-pixel counts by an update over a 2-D RDom; per-row u32 popcount of the raw image by an inline hl.sum of hl.popcount",
      {'W': (1, 1024), 'H': (1, 768), 'NB': (1, 16)},
      outs=lambda v: [(U8, [v['W'], v['H'], v['NB']]), (U32, [v['NB']]), (U32, [v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16)], target='A')
def bitplane(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y, b = V("x", "y", "b")
    g = F("bp_gray"); g[x, y] = im[x, y] ^ (im[x, y] >> 1)
    pl = F("bp_planes"); pl[x, y, b] = hl.select(((g[x, y] >> hl.u16(15 - b)) & 1) == 1, hl.u8(255), hl.u8(0))
    rr = RD((0, S['W']), (0, S['H']), name="rr")
    cnt = F("bp_count"); cnt[b] = hl.u32(0)
    cnt[b] += hl.u32(pl[rr.x, rr.y, b] >> 7)
    rx = RD((0, S['W']), name="rx")
    rp = F("bp_rowpop"); rp[y] = hl.sum(hl.u32(hl.popcount(im[rx, y])))
    est_in(im, E['W'], E['H']); est_out(pl, [x, y, b], E['W'], E['H'], E['NB']); est_out(cnt, [b], E['NB']); est_out(rp, [y], E['H'])
    return [pl, cnt, rp], [im]


@spec("nv12_semi_planar_y_plus_interleaved_uv_half_res_bt601_int_q8_u8_sat_planar_rgb_out_c_outermost_select_chain_on_c",
      "NV12 to RGB: Y plane u8 [2 CW, 2 CH] and ONE interleaved chroma plane uv u8 [2 CW, CH] (u at even x, v at odd x, half vertical resolution), read at ((x / 2) 2 + {0, 1}, y / 2); BT.601 video-range integer Q8 (298, 409, 100, 208, 516) with hl.u8_sat; planar RGB output [x, y, c] with c outermost by a select chain on c",
      {'CW': (1, 512), 'CH': (1, 384)},
      outs=lambda v: [(U8, [2 * v['CW'], 2 * v['CH'], 3])],
      data=lambda v, r: [randint(r, (2 * v['CW'], 2 * v['CH']), 0, 255, np.uint8), randint(r, (2 * v['CW'], v['CH']), 0, 255, np.uint8)], target='B')
def nv12(S, E):
    Y = hl.ImageParam(U8, 2, "Y"); UV = hl.ImageParam(U8, 2, "UV")
    x, y, c = V("x", "y", "c")
    C = 298 * (hl.i32(Y[x, y]) - 16)
    Dd = hl.i32(UV[(x / 2) * 2, y / 2]) - 128
    Ee = hl.i32(UV[(x / 2) * 2 + 1, y / 2]) - 128
    rgb = F("nv_rgb")
    rgb[x, y, c] = hl.u8_sat(hl.select(c == 0, (C + 409 * Ee + 128) >> 8,
                                       c == 1, (C - 100 * Dd - 208 * Ee + 128) >> 8,
                                       (C + 516 * Dd + 128) >> 8))
    est_in(Y, 2 * E['CW'], 2 * E['CH']); est_in(UV, 2 * E['CW'], E['CH']); est_out(rgb, [x, y, c], 2 * E['CW'], 2 * E['CH'], 3)
    return [rgb], [Y, UV]


@spec("joint_rgb_histogram_3d_bins_param_scatter_2d_rdom_interleaved_c_x_y_u8_computed_bin_shift_then_0d_entropy_3d_rdom_where_nonzero_log2",
      "joint colour histogram of an interleaved RGB u8 image [c, x, y]: hist[r, g, b] (u32, NB bins per channel, NB a Param, bin = v NB >> 8) scattered by an update over a 2-D RDom; 0-D Shannon entropy in bits of the normalized histogram by an update over a 3-D RDom with where(hist > 0)",
      {'W': (1, 640), 'H': (1, 480), 'NB': (2, 16)},
      outs=lambda v: [(U32, [v['NB'], v['NB'], v['NB']]), (F32, [])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8)], tol=1e-4, target='A')
def jhist(S, E):
    im = hl.ImageParam(U8, 3, "im")
    i, j, k = V("i", "j", "k")
    NB = S['NB']
    h = F("jh_hist"); h[i, j, k] = hl.u32(0)
    r = RD((0, S['W']), (0, S['H']), name="rp")
    bn = lambda c: (hl.i32(im[c, r.x, r.y]) * NB) >> 8
    h[bn(0), bn(1), bn(2)] += hl.u32(1)
    rb = RD((0, NB), (0, NB), (0, NB), name="rb")
    rb.where(h[rb.x, rb.y, rb.z] > 0)
    npx = fE(S['W']) * fE(S['H'])
    ent = F("jh_entropy"); ent[()] = hl.f32(0)
    p = hl.f32(h[rb.x, rb.y, rb.z]) / npx
    ent[()] = ent[()] - p * hl.log(p) * (1.0 / math.log(2.0))
    est_in(im, 3, E['W'], E['H']); est_out(h, [i, j, k], E['NB'], E['NB'], E['NB'])
    return [h, ent], [im]


@spec("rgb_planar_to_ycbcr420_bt601_q8_full_res_luma_plus_chroma_from_2x2_rgb_box_sum_inline_2d_hlsum_three_outputs_different_sizes_u8",
      "RGB planar u8 [x, y, c] (W = 2 CW, H = 2 CH) to YCbCr 4:2:0: full-resolution Y = ((66 R + 129 G + 25 B + 128) >> 8) + 16, and Cb, Cr at half resolution from the 2x2 box sums of R, G, B (one inline hl.sum over a 2-D RDom per channel, Q8 with a /4 folded into >> 10), three u8 outputs of two sizes",
      {'CW': (1, 512), 'CH': (1, 384)},
      outs=lambda v: [(U8, [2 * v['CW'], 2 * v['CH']]), (U8, [v['CW'], v['CH']]), (U8, [v['CW'], v['CH']])],
      data=lambda v, r: [randint(r, (2 * v['CW'], 2 * v['CH'], 3), 0, 255, np.uint8)], target='B')
def ycc420(S, E):
    im = hl.ImageParam(U8, 3, "rgb")
    x, y, c = V("x", "y", "c")
    ch = lambda cc: hl.i32(im[x, y, cc])
    Yf = F("yc_y"); Yf[x, y] = hl.u8(((66 * ch(0) + 129 * ch(1) + 25 * ch(2) + 128) >> 8) + 16)
    r = RD((0, 2), (0, 2), name="r2")
    box = F("yc_box"); box[x, y, c] = hl.sum(hl.i32(im[2 * x + r.x, 2 * y + r.y, c]))
    R_, G_, B_ = box[x, y, 0], box[x, y, 1], box[x, y, 2]
    Cb = F("yc_cb"); Cb[x, y] = hl.u8_sat(((-38 * R_ - 74 * G_ + 112 * B_ + 512) >> 10) + 128)
    Cr = F("yc_cr"); Cr[x, y] = hl.u8_sat(((112 * R_ - 94 * G_ - 18 * B_ + 512) >> 10) + 128)
    est_in(im, 2 * E['CW'], 2 * E['CH'], 3)
    est_out(Yf, [x, y], 2 * E['CW'], 2 * E['CH']); est_out(Cb, [x, y], E['CW'], E['CH']); est_out(Cr, [x, y], E['CW'], E['CH'])
    return [Yf, Cb, Cr], [im]


@spec("local_contrast_norm_jarrett_gauss_weight_func_radius_param_inline_3d_rdom_hlsum_over_i_j_c_constant_exterior_subtractive_divisive_0d_mean_sigma_planar_xyc",
      "local contrast normalization (Jarrett et al.) of a planar f32 image [x, y, c] with C channels (a Param): Gaussian weights Func w[i] (sigma = R/2 + 0.5, R a Param, normalized by an inline hl.sum), subtractive step v = x - (sum over a 3-D RDom (i, j, c) of w_i w_j x[x + i, y + j, c]) / C through constant_exterior 0; divisive step by max(0-D mean of sigma, sigma) where sigma^2 is the same 3-D weighted sum of v^2",
      {'W': (1, 256), 'H': (1, 256), 'C': (1, 8), 'R': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C']])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'], v['C']))], tol=2e-4, target='A')
def lcn(S, E):
    im = hl.ImageParam(F32, 3, "im")
    x, y, c, i = V("x", "y", "c", "i")
    W, H, C, R = S['W'], S['H'], S['C'], S['R']
    e = BF.constant_exterior(im, hl.f32(0), [(0, W), (0, H), (0, C)])
    sg = fE(R) * 0.5 + 0.5
    w0 = F("lc_w0"); w0[i] = hl.exp(-hl.f32(i * i) / (2.0 * sg * sg))
    rn = RD((-R, 2 * R + 1), name="rn")
    w = F("lc_w"); w[i] = w0[i] / hl.sum(w0[rn])
    r3 = RD((-R, 2 * R + 1), (-R, 2 * R + 1), (0, C), name="r3")
    mean = F("lc_mean"); mean[x, y] = hl.sum(w[r3.x] * w[r3.y] * e[x + r3.x, y + r3.y, r3.z]) / fE(C)
    v = F("lc_v"); v[x, y, c] = e[x, y, c] - mean[x, y]
    ve = BF.constant_exterior(v, hl.f32(0), [(0, W), (0, H), (0, C)])
    r4 = RD((-R, 2 * R + 1), (-R, 2 * R + 1), (0, C), name="r4")
    sig = F("lc_sigma"); sig[x, y] = hl.sqrt(hl.sum(w[r4.x] * w[r4.y] * sq(ve[x + r4.x, y + r4.y, r4.z])))
    rm = RD((0, W), (0, H), name="rm")
    ms = F("lc_meansig"); ms[()] = hl.sum(sig[rm.x, rm.y]) / (fE(W) * fE(H))
    out = F("lc_out"); out[x, y, c] = v[x, y, c] / hl.max(hl.max(ms[()], sig[x, y]), 1e-4)
    est_in(im, E['W'], E['H'], E['C']); est_out(out, [x, y, c], E['W'], E['H'], E['C'])
    return [out], [im]


# ============================================ signal ==========================================================

@spec("yin_pitch_difference_fn_inline_hlsum_tau_innermost_frames_hop_params_cumulative_mean_normalized_scan_update_over_tau_first_dip_below_thr_hlminimum_select",
      "YIN pitch detector on frames of a 1-D integer-valued f32 signal (NF frames at hop HOP, window N, TMAX lags, all Params): difference function d[tau, f] = inline hl.sum over RDom(0, N) of (x[fHOP + j] - x[fHOP + j + tau])^2 (tau innermost), its running sum by a scan update over RDom(1..TMAX-1) with f pure, the cumulative-mean-normalized d'[tau, f] = d tau / cumsum (1 at tau 0), and the period as the first tau >= 2 with d' < THR/100 by hl.minimum of a select (TMAX if none); exact sums",
      {'NF': (1, 128), 'N': (8, 256), 'TMAX': (4, 128), 'HOP': (1, 256), 'THR': (5, 50)},
      outs=lambda v: [(F32, [v['TMAX'], v['NF']]), (I32, [v['NF']])],
      data=lambda v, r: [fa((np.round(6 * np.sin(np.arange((v['NF'] - 1) * v['HOP'] + v['N'] + v['TMAX']) * 2 * np.pi / 37.0)) + r.integers(-2, 3, (v['NF'] - 1) * v['HOP'] + v['N'] + v['TMAX'])).astype(np.float32))],
      tol=1e-5, target='B')
def yin(S, E):
    sig = hl.ImageParam(F32, 1, "sig")
    tau, f = V("tau", "f")
    N, HOP, TMAX = S['N'], S['HOP'], S['TMAX']
    j = RD((0, N), name="j")
    d = F("yn_diff"); d[tau, f] = hl.sum(sq(sig[f * HOP + j] - sig[f * HOP + j + tau]))
    cs = F("yn_cumsum"); cs[tau, f] = d[tau, f]
    rt = RD((1, TMAX - 1), name="rt")
    cs[rt, f] = cs[rt - 1, f] + d[rt, f]
    dn = F("yn_cmnd"); dn[tau, f] = hl.select(tau == 0, hl.f32(1), d[tau, f] * hl.f32(tau) / hl.max(cs[tau, f], 1e-6))
    thr = fE(S['THR']) * 0.01
    rk = RD((2, TMAX - 2), name="rk")
    per = F("yn_period"); per[f] = hl.minimum(hl.select(dn[rk, f] < thr, rk, TMAX))
    est_in(sig, (E['NF'] - 1) * E['HOP'] + E['N'] + E['TMAX']); est_out(dn, [tau, f], E['TMAX'], E['NF']); est_out(per, [f], E['NF'])
    return [dn, per], [sig]


@spec("lif_spiking_neurons_fixed_point_i32_leak_decay_q8_param_threshold_param_reset_select_scan_update_over_t_neurons_innermost_u8_spikes_plus_u16_count_hlsum",
      "leaky integrate-and-fire neurons in fixed point: membrane v[n, t] (i32, neurons innermost) updated over RDom(1..T-1) with n pure: v = select(v[n, t-1] >= THR, 0, (v[n, t-1] DECAY >> 8) + I[n, t]) (DECAY, THR Params), i16 input current; outputs u8 spikes (v >= THR) and the per-neuron u16 spike count by an inline hl.sum over t",
      {'N': (1, 4096), 'T': (2, 512), 'DECAY': (128, 255), 'THR': (64, 1024)},
      outs=lambda v: [(U8, [v['N'], v['T']]), (U16, [v['N']])],
      data=lambda v, r: [randint(r, (v['N'], v['T']), -20, 60, np.int16)], target='A')
def lif(S, E):
    I = hl.ImageParam(I16, 2, "cur")
    n, t = V("n", "t")
    THR = S['THR']
    v = F("lf_v"); v[n, t] = hl.i32(I[n, 0])
    rt = RD((1, S['T'] - 1), name="rt")
    p = v[n, rt - 1]
    v[n, rt] = hl.select(p >= THR, 0, ((p * S['DECAY']) >> 8) + hl.i32(I[n, rt]))
    sp = F("lf_spikes"); sp[n, t] = hl.select(v[n, t] >= THR, hl.u8(1), hl.u8(0))
    rc = RD((0, S['T']), name="rc")
    cnt = F("lf_count"); cnt[n] = hl.sum(hl.u16(sp[n, rc]))
    est_in(I, E['N'], E['T']); est_out(sp, [n, t], E['N'], E['T']); est_out(cnt, [n], E['N'])
    return [sp, cnt], [I]


@spec("istft_overlap_add_gather_form_tuple_num_den_update_over_frames_rdom_where_referencing_pure_t_hann_window_func_clamped_index_output_len_from_params",
      "inverse-STFT overlap-add in gather form: y[t] for t < (F-1) HOP + N (F, HOP, N Params) = sum over frames f of fr[t - f HOP, f] w[t - f HOP] / sum of w^2, as ONE Tuple Func (num, den) updated over RDom(0, F) whose where() clause refers to the pure var t (0 <= t - f HOP < N), clamped frame index; Hann window Func; den guarded by max(den, 1e-3)",
      {'N': (16, 512), 'F': (1, 128), 'HOP': (1, 256)},
      outs=lambda v: [(F32, [(v['F'] - 1) * v['HOP'] + v['N']])],
      data=lambda v, r: [rnorm(r, (v['N'], v['F']))], tol=1e-4, target='B')
def ola(S, E):
    fr = hl.ImageParam(F32, 2, "frames")
    t, n = V("t", "n")
    N, HOP = S['N'], S['HOP']
    w = F("ol_win"); w[n] = 0.5 - 0.5 * hl.cos(2.0 * math.pi * hl.f32(n) / fE(N))
    acc = F("ol_acc"); acc[t] = (hl.f32(0), hl.f32(0))
    r = RD((0, S['F']), name="rf")
    off = t - r * HOP
    r.where((off >= 0) & (off < N))
    oc = hl.clamp(off, 0, N - 1)
    acc[t] = (acc[t][0] + fr[oc, r] * w[oc], acc[t][1] + w[oc] * w[oc])
    y = F("ol_y"); y[t] = acc[t][0] / hl.max(acc[t][1], 1e-3)
    est_in(fr, E['N'], E['F']); est_out(y, [t], (E['F'] - 1) * E['HOP'] + E['N'])
    return [y], [fr]


@spec("ema_crossover_fixed_point_q15_two_scan_funcs_fast_slow_period_params_t_innermost_series_outer_u8_signal_plus_crossing_count_inline_hlsum_select_t_minus_1",
      "moving-average crossover on integer price series [t, s] (t innermost): fast and slow EMAs as two scan Funcs in Q15 fixed point (alpha = 65536 / (P + 1), FAST and SLOW Params) updated over RDom(1..T-1) with s pure; u8 signal fast > slow; per-series i32 number of signal changes by an inline hl.sum over RDom(1..T-1)",
      {'T': (2, 4096), 'NS': (1, 256), 'FAST': (2, 20), 'SLOW': (10, 100)},
      outs=lambda v: [(U8, [v['T'], v['NS']]), (I32, [v['NS']])],
      data=lambda v, r: [fa(np.clip(1000 + np.cumsum(r.integers(-5, 6, (v['T'], v['NS'])), 0), 1, 30000).astype(np.int32))], target='A')
def emax(S, E):
    px = hl.ImageParam(I32, 2, "px")
    t, s = V("t", "s")
    T = S['T']

    def ema(P, nm):
        a = D(65536, P + 1)
        e = F("em_" + nm); e[t, s] = px[0, s] << 15
        r = RD((1, T - 1), name="r" + nm)
        prev = e[r - 1, s]
        e[r, s] = prev + (((px[r, s] << 15) - prev) >> 15) * a
        return e
    ef, es = ema(S['FAST'], "fast"), ema(S['SLOW'], "slow")
    sgn = F("em_signal"); sgn[t, s] = hl.select(ef[t, s] > es[t, s], hl.u8(1), hl.u8(0))
    rc = RD((1, T - 1), name="rc")
    cx = F("em_cross"); cx[s] = hl.sum(hl.select(sgn[rc, s] != sgn[rc - 1, s], 1, 0))
    est_in(px, E['T'], E['NS']); est_out(sgn, [t, s], E['T'], E['NS']); est_out(cx, [s], E['NS'])
    return [sgn, cx], [px]


@spec("max_drawdown_series_innermost_s_t_cummax_scan_update_over_t_relative_drawdown_f32_then_inline_hlargmax_tuple_value_and_index_per_series",
      "maximum drawdown of NS price series stored series-innermost [s, t]: running maximum cm[s, t] by a scan update over RDom(1..T-1) with s pure; drawdown (cm - p) / cm (f32); per series the maximum drawdown and its time by an inline hl.argmax (Tuple: index, value); outputs the drawdown matrix, the i32 argmax time and the f32 max",
      {'NS': (1, 256), 'T': (2, 4096)},
      outs=lambda v: [(F32, [v['NS'], v['T']]), (I32, [v['NS']]), (F32, [v['NS']])],
      data=lambda v, r: [fa(np.transpose(np.asarray(walk(r, (v['T'], v['NS'])))).copy())], tol=1e-6, target='B')
def mdd(S, E):
    p = hl.ImageParam(F32, 2, "p")
    s, t = V("s", "t")
    cm = F("md_cummax"); cm[s, t] = p[s, t]
    rt = RD((1, S['T'] - 1), name="rt")
    cm[s, rt] = hl.max(cm[s, rt - 1], p[s, rt])
    dd = F("md_dd"); dd[s, t] = (cm[s, t] - p[s, t]) / cm[s, t]
    ra = RD((0, S['T']), name="ra")
    am = F("md_argmax"); am[s] = hl.argmax(dd[s, ra])
    at = F("md_at"); at[s] = am[s][0]
    mv = F("md_max"); mv[s] = am[s][1]
    est_in(p, E['NS'], E['T']); est_out(dd, [s, t], E['NS'], E['T']); est_out(at, [s], E['NS']); est_out(mv, [s], E['NS'])
    return [dd, at, mv], [p]


# ============================================ ML ==============================================================

@spec("gru_cell_step_gate_major_weights_k_innermost_3h_explicit_update_input_proj_inline_hlsum_hidden_proj_sigmoid_tanh_reset_gate_inside_hidden_hb",
      "one GRU cell step (PyTorch gate order r, z, n): input projection gx[k, b] (k < 3H innermost) as an explicit update over RDom(0, I) of W[k, i] x[i, b] on a bias pure def, hidden projection gh[k, b] as an inline hl.sum over RDom(0, H) of U[k, j] h[j, b] plus bias; r, z sigmoid, n = tanh(gx_n + r gh_n), h' = (1 - z) n + z h; I, H, B Params, hidden innermost [h, b]",
      {'I': (1, 256), 'H': (1, 256), 'B': (1, 64)},
      outs=lambda v: [(F32, [v['H'], v['B']])],
      data=lambda v, r: [rnorm(r, (v['I'], v['B'])), rnorm(r, (v['H'], v['B'])), fa((r.standard_normal((3 * v['H'], v['I'])) / np.sqrt(v['I'])).astype(np.float32)),
                         fa((r.standard_normal((3 * v['H'], v['H'])) / np.sqrt(v['H'])).astype(np.float32)), rnorm(r, (3 * v['H'],)), rnorm(r, (3 * v['H'],))],
      tol=1e-4, target='A')
def gru(S, E):
    X = hl.ImageParam(F32, 2, "x"); Hh = hl.ImageParam(F32, 2, "h")
    W = hl.ImageParam(F32, 2, "W"); U = hl.ImageParam(F32, 2, "U")
    bx = hl.ImageParam(F32, 1, "bx"); bh = hl.ImageParam(F32, 1, "bh")
    k, b, h = V("k", "b", "h")
    H = S['H']
    gx = F("gr_gx"); gx[k, b] = bx[k]
    ri = RD((0, S['I']), name="ri")
    gx[k, b] += W[k, ri] * X[ri, b]
    rj = RD((0, H), name="rj")
    gh = F("gr_gh"); gh[k, b] = hl.sum(U[k, rj] * Hh[rj, b]) + bh[k]
    sig = lambda e: 1.0 / (1.0 + hl.exp(-e))
    rg = sig(gx[h, b] + gh[h, b]); zg = sig(gx[h + H, b] + gh[h + H, b])
    ng = hl.tanh(gx[h + 2 * H, b] + rg * gh[h + 2 * H, b])
    out = F("gr_h"); out[h, b] = (1.0 - zg) * ng + zg * Hh[h, b]
    est_in(X, E['I'], E['B']); est_in(Hh, E['H'], E['B']); est_in(W, 3 * E['H'], E['I']); est_in(U, 3 * E['H'], E['H'])
    est_in(bx, 3 * E['H']); est_in(bh, 3 * E['H']); est_out(out, [h, b], E['H'], E['B'])
    return [out], [X, Hh, W, U, bx, bh]


@spec("maxpool2x2_stride2_nhwc_c_x_y_n_tuple_value_and_flat_plane_index_explicit_update_over_2x2_rdom_strict_greater_first_wins_i32_indices_output",
      "2x2 stride-2 max pooling with indices (PyTorch return_indices) on channels-innermost f32 [c, x, y, n]: ONE Tuple Func (max, flat index (2y+dy) 2OW + 2x+dx within the plane) initialized from the (0, 0) tap and updated over RDom(0..2, 0..2) with strict > (first wins); outputs values f32 and indices i32; C, OW, OH, N Params",
      {'C': (1, 64), 'OW': (1, 128), 'OH': (1, 128), 'N': (1, 4)},
      outs=lambda v: [(F32, [v['C'], v['OW'], v['OH'], v['N']]), (I32, [v['C'], v['OW'], v['OH'], v['N']])],
      data=lambda v, r: [fa(r.integers(-8, 9, (v['C'], 2 * v['OW'], 2 * v['OH'], v['N'])).astype(np.float32))], target='B')
def maxpool_idx(S, E):
    im = hl.ImageParam(F32, 4, "im")
    c, x, y, n = V("c", "x", "y", "n")
    OW = S['OW']
    mp = F("mp_tuple"); mp[c, x, y, n] = (im[c, 2 * x, 2 * y, n], (2 * y) * (2 * OW) + 2 * x)
    r = RD((0, 2), (0, 2), name="rp")
    vv = im[c, 2 * x + r.x, 2 * y + r.y, n]
    gt = vv > mp[c, x, y, n][0]
    mp[c, x, y, n] = (hl.select(gt, vv, mp[c, x, y, n][0]), hl.select(gt, (2 * y + r.y) * (2 * OW) + 2 * x + r.x, mp[c, x, y, n][1]))
    val = F("mp_val"); val[c, x, y, n] = mp[c, x, y, n][0]
    idx = F("mp_idx"); idx[c, x, y, n] = mp[c, x, y, n][1]
    est_in(im, E['C'], 2 * E['OW'], 2 * E['OH'], E['N'])
    est_out(val, [c, x, y, n], E['C'], E['OW'], E['OH'], E['N']); est_out(idx, [c, x, y, n], E['C'], E['OW'], E['OH'], E['N'])
    return [val, idx], [im]


@spec("grid_sample_affine_theta_buffer_per_batch_align_corners_false_bilinear_zeros_padding_validity_selects_clamped_corner_gathers_x_y_c_n_planar",
      "spatial transformer: affine_grid + grid_sample (bilinear, zeros padding, align_corners = False) on f32 [x, y, c, n]: per-batch theta [6, n] buffer maps normalized output coords to input coords, px = ((gx + 1) W - 1) / 2; four corner gathers at clamped indices, each weight zeroed by a validity select; W, H, C, N Params",
      {'W': (1, 256), 'H': (1, 256), 'C': (1, 16), 'N': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C'], v['N']])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'], v['C'], v['N'])),
                         fa(np.tile(np.array([0.9, -0.2, 0.05, 0.25, 0.8, -0.1], np.float32)[:, None], (1, v['N'])) + 0.05 * r.standard_normal((6, v['N'])).astype(np.float32))],
      tol=1e-4, target='A')
def gridsample(S, E):
    im = hl.ImageParam(F32, 4, "im"); th = hl.ImageParam(F32, 2, "theta")
    x, y, c, n = V("x", "y", "c", "n")
    W, H = S['W'], S['H']
    Wf, Hf = fE(W), fE(H)
    xn = (2.0 * hl.f32(x) + 1.0) / Wf - 1.0; yn = (2.0 * hl.f32(y) + 1.0) / Hf - 1.0
    crd = F("gs_coord")
    gx = th[0, n] * xn + th[1, n] * yn + th[2, n]; gy = th[3, n] * xn + th[4, n] * yn + th[5, n]
    crd[x, y, n] = (((gx + 1.0) * Wf - 1.0) * 0.5, ((gy + 1.0) * Hf - 1.0) * 0.5)
    px, py = crd[x, y, n][0], crd[x, y, n][1]
    x0 = hl.i32(hl.floor(px)); y0 = hl.i32(hl.floor(py))
    fx = px - hl.f32(x0); fy = py - hl.f32(y0)

    def tap(xi, yi, wgt):
        ok = (xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)
        return hl.select(ok, wgt, 0.0) * im[hl.clamp(xi, 0, W - 1), hl.clamp(yi, 0, H - 1), c, n]
    out = F("gs_out")
    out[x, y, c, n] = (tap(x0, y0, (1 - fx) * (1 - fy)) + tap(x0 + 1, y0, fx * (1 - fy)) +
                       tap(x0, y0 + 1, (1 - fx) * fy) + tap(x0 + 1, y0 + 1, fx * fy))
    est_in(im, E['W'], E['H'], E['C'], E['N']); est_in(th, 6, E['N']); est_out(out, [x, y, c, n], E['W'], E['H'], E['C'], E['N'])
    return [out], [im, th]


@spec("attention_pooling_learned_query_vector_scores_inline_hlsum_over_d_d_innermost_d_t_b_softmax_over_t_hlmaximum_hlsum_weighted_context_two_outputs",
      "attention pooling over time with a learned query vector: x [d, t, b] (d innermost), score s[t, b] = inline hl.sum over d of x w / sqrt(D); softmax over t (hl.maximum, exp, hl.sum); outputs the pooled context c[d, b] = hl.sum over t of p[t, b] x[d, t, b] and the weights p[t, b]; D, T, B Params",
      {'D': (1, 256), 'T': (1, 512), 'B': (1, 32)},
      outs=lambda v: [(F32, [v['D'], v['B']]), (F32, [v['T'], v['B']])],
      data=lambda v, r: [rnorm(r, (v['D'], v['T'], v['B'])), rnorm(r, (v['D'],))], tol=1e-4, target='B')
def attnpool(S, E):
    X = hl.ImageParam(F32, 3, "x"); w = hl.ImageParam(F32, 1, "w")
    d, t, b = V("d", "t", "b")
    rd = RD((0, S['D']), name="rd")
    sc = F("ap_score"); sc[t, b] = hl.sum(X[rd, t, b] * w[rd]) / hl.sqrt(fE(S['D']))
    rt = RD((0, S['T']), name="rt")
    mx = F("ap_max"); mx[b] = hl.maximum(sc[rt, b])
    ex = F("ap_exp"); ex[t, b] = hl.exp(sc[t, b] - mx[b])
    rt2 = RD((0, S['T']), name="rt2")
    z = F("ap_z"); z[b] = hl.sum(ex[rt2, b])
    p = F("ap_p"); p[t, b] = ex[t, b] / z[b]
    rt3 = RD((0, S['T']), name="rt3")
    ctx = F("ap_ctx"); ctx[d, b] = hl.sum(p[rt3, b] * X[d, rt3, b])
    est_in(X, E['D'], E['T'], E['B']); est_in(w, E['D']); est_out(ctx, [d, b], E['D'], E['B']); est_out(p, [t, b], E['T'], E['B'])
    return [ctx, p], [X, w]


# ============================================ numerics ========================================================

@spec("inverse3x3_batched_cofactor_adjugate_batch_innermost_b_i_j_f64_python_unrolled_cofactor_exprs_mux_on_3i_plus_j_plus_det_output",
      "batched 3x3 matrix inverse by cofactors in f64, batch innermost A[b, i, j]: the nine cofactors as python-unrolled expressions, det by the first-row expansion in its own Func, inverse[b, i, j] = adj / det by an hl.mux on 3 i + j (adjugate = transposed cofactors); outputs inverse and det; B a Param",
      {'B': (1, 16384)},
      outs=lambda v: [(F64, [v['B'], 3, 3]), (F64, [v['B']])],
      data=lambda v, r: [fa(r.standard_normal((v['B'], 3, 3)) + 3 * np.eye(3)[None])], tol=1e-9, target='B')
def inv3(S, E):
    A = hl.ImageParam(F64, 3, "A")
    b, i, j = V("b", "i", "j")
    a = [[A[b, ii, jj] for jj in range(3)] for ii in range(3)]
    cof = [[None] * 3 for _ in range(3)]
    for ii in range(3):
        for jj in range(3):
            r0, r1 = [k for k in range(3) if k != ii]
            c0, c1 = [k for k in range(3) if k != jj]
            m = a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]
            cof[ii][jj] = m if (ii + jj) % 2 == 0 else -m
    det = F("iv_det"); det[b] = a[0][0] * cof[0][0] + a[0][1] * cof[0][1] + a[0][2] * cof[0][2]
    inv = F("iv_inv"); inv[b, i, j] = hl.mux(3 * i + j, [cof[jj][ii] for ii in range(3) for jj in range(3)]) / det[b]
    est_in(A, E['B'], 3, 3); est_out(inv, [b, i, j], E['B'], 3, 3); est_out(det, [b], E['B'])
    return [inv, det], [A]


@spec("banded_matvec_lapack_band_storage_kl_ku_params_rdom_minus_kl_where_in_range_clamped_rhs_innermost_b_i_update_on_output_f32",
      "banded matrix times several vectors with the matrix in LAPACK band storage ab[KU + i - j, j] (KL sub-, KU super-diagonals, Params): y[b, i] (NRHS innermost) initialized to 0 ON THE OUTPUT and updated over RDom(-KL .. KU) with where(0 <= i + k < N) and clamped reads ab[KU - k, i + k] x[b, i + k]",
      {'N': (1, 65536), 'KL': (0, 8), 'KU': (0, 8), 'NRHS': (1, 8)},
      outs=lambda v: [(F32, [v['NRHS'], v['N']])],
      data=lambda v, r: [rnorm(r, (v['KL'] + v['KU'] + 1, v['N'])), rnorm(r, (v['NRHS'], v['N']))], tol=1e-4, target='A')
def bandmv(S, E):
    ab = hl.ImageParam(F32, 2, "ab"); X = hl.ImageParam(F32, 2, "x")
    b, i = V("b", "i")
    N, KL, KU = S['N'], S['KL'], S['KU']
    y = F("bm_y"); y[b, i] = hl.f32(0)
    r = RD((-KL, KL + KU + 1), name="rk")
    r.where((i + r >= 0) & (i + r < N))
    jj = hl.clamp(i + r, 0, N - 1)
    y[b, i] += ab[hl.clamp(KU - r, 0, KL + KU), jj] * X[b, jj]
    est_in(ab, E['KL'] + E['KU'] + 1, E['N']); est_in(X, E['NRHS'], E['N']); est_out(y, [b, i], E['NRHS'], E['N'])
    return [y], [ab, X]


@spec("horner_polynomial_and_derivative_tuple_update_over_reverse_coeff_rdom_deg_param_f64_coeff_buffer_points_1d_two_outputs_from_tuple",
      "polynomial value and derivative by Horner's rule: ONE f64 Tuple Func (p, dp)[n] initialized from the leading coefficient and updated over RDom(0, DEG) reading the coefficient buffer at DEG - 1 - r (p = p t + c_k, dp = dp t + p); N points, DEG a Param; two outputs split off the Tuple",
      {'N': (1, 262144), 'DEG': (1, 32)},
      outs=lambda v: [(F64, [v['N']]), (F64, [v['N']])],
      data=lambda v, r: [fa(r.uniform(-1, 1, v['N'])), fa(r.standard_normal(v['DEG'] + 1) / np.arange(1, v['DEG'] + 2))], tol=1e-10, target='A')
def horner(S, E):
    t = hl.ImageParam(F64, 1, "t"); cf = hl.ImageParam(F64, 1, "coef")
    n = V("n")[0]
    DEG = S['DEG']
    pd = F("hn_pd"); pd[n] = (cf[DEG], hl.f64(0))
    r = RD((0, DEG), name="rc")
    p, dp = pd[n][0], pd[n][1]
    pd[n] = (p * t[n] + cf[DEG - 1 - r], dp * t[n] + p)
    val = F("hn_val"); val[n] = pd[n][0]
    der = F("hn_der"); der[n] = pd[n][1]
    est_in(t, E['N']); est_in(cf, E['DEG'] + 1); est_out(val, [n], E['N']); est_out(der, [n], E['N'])
    return [val, der], [t, cf]


@spec("cholesky4x4_batched_python_unrolled_ten_l_entry_funcs_per_batch_forward_back_substitution_f64_i_j_b_batch_outer_solution_mux_plus_l_select_chain",
      "batched Cholesky factorization and solve of SPD 4x4 systems in f64, A[i, j, b] (batch outermost), rhs [i, b]: the ten L entries as ten python-unrolled Funcs l_ij[b] (sqrt on the diagonal), forward substitution Funcs z_i[b], back substitution x_i[b]; outputs the solution [i, b] by hl.mux on i and L [i, j, b] by a select chain (0 above the diagonal); B a Param",
      {'B': (1, 16384)},
      outs=lambda v: [(F64, [4, v['B']]), (F64, [4, 4, v['B']])],
      data=lambda v, r: [spd4(r, v['B']), fa(r.standard_normal((4, v['B'])))], tol=1e-9, target='B')
def chol4(S, E):
    A = hl.ImageParam(F64, 3, "A"); rhs = hl.ImageParam(F64, 2, "rhs")
    b, i, j = V("b", "i", "j")
    Lf = {}
    for ii in range(4):
        for jj in range(ii + 1):
            s = A[ii, jj, b]
            for k in range(jj):
                s = s - Lf[(ii, k)][b] * Lf[(jj, k)][b]
            f = F("ch_l%d%d" % (ii, jj))
            f[b] = hl.sqrt(s) if ii == jj else s / Lf[(jj, jj)][b]
            Lf[(ii, jj)] = f
    z = []
    for ii in range(4):
        s = rhs[ii, b]
        for k in range(ii):
            s = s - Lf[(ii, k)][b] * z[k][b]
        f = F("ch_z%d" % ii); f[b] = s / Lf[(ii, ii)][b]; z.append(f)
    xs = [None] * 4
    for ii in (3, 2, 1, 0):
        s = z[ii][b]
        for k in range(ii + 1, 4):
            s = s - Lf[(k, ii)][b] * xs[k][b]
        f = F("ch_x%d" % ii); f[b] = s / Lf[(ii, ii)][b]; xs[ii] = f
    sol = F("ch_sol"); sol[i, b] = hl.mux(i, [xs[k][b] for k in range(4)])
    args = []
    for ii in range(4):
        for jj in range(ii + 1):
            args += [(i == ii) & (j == jj), Lf[(ii, jj)][b]]
    Lo = F("ch_L"); Lo[i, j, b] = hl.select(*args, hl.f64(0))
    est_in(A, 4, 4, E['B']); est_in(rhs, 4, E['B']); est_out(sol, [i, b], 4, E['B']); est_out(Lo, [i, j, b], 4, 4, E['B'])
    return [sol, Lo], [A, rhs]


@spec("power_iteration_3_steps_dense_gemv_hlsum_over_j_of_a_j_i_column_major_0d_norm_funcs_normalize_then_rayleigh_quotient_0d_output",
      "three steps of power iteration on a dense f32 matrix A[j, i] (j innermost, so row i of the operator is contiguous): w_k[i] = hl.sum_j A[j, i] v_{k-1}[j], 0-D norm Func sqrt(hl.sum w^2), v_k = w_k / norm; outputs v_3 and the 0-D Rayleigh quotient v3 . A v3; N a Param",
      {'N': (1, 1024)},
      outs=lambda v: [(F32, [v['N']]), (F32, [])],
      data=lambda v, r: [fa((lambda M: (M + M.T) / 2 + np.diag(np.linspace(0, 3, v['N'])))(r.standard_normal((v['N'], v['N'])) / np.sqrt(v['N'])).astype(np.float32)), rnorm(r, (v['N'],))],
      tol=1e-3, target='A')
def poweriter(S, E):
    A = hl.ImageParam(F32, 2, "A"); v0 = hl.ImageParam(F32, 1, "v0")
    i = V("i")[0]
    N = S['N']
    v = F("pi_v0"); v[i] = v0[i]
    for it in range(3):
        rj = RD((0, N), name="rj%d" % it)
        w = F("pi_w%d" % it); w[i] = hl.sum(A[rj, i] * v[rj])
        rn = RD((0, N), name="rn%d" % it)
        nm = F("pi_norm%d" % it); nm[()] = hl.sqrt(hl.sum(sq(w[rn]))) + 1e-20
        vn = F("pi_v%d" % (it + 1)); vn[i] = w[i] / nm[()]
        v = vn
    rq = RD((0, N), (0, N), name="rq")
    lam = F("pi_lambda"); lam[()] = hl.sum(v[rq.y] * A[rq.x, rq.y] * v[rq.x])
    est_in(A, E['N'], E['N']); est_in(v0, E['N']); est_out(v, [i], E['N'])
    return [v, lam], [A, v0]


# ============================================ data processing =================================================

@spec("column_zscore_tuple_sum_sumsq_f64_update_rows_innermost_r_c_table_clip_4_sigma_quantize_i8_round_plus_f32_z_output_integer_valued_data",
      "per-column standardization of a table stored rows-innermost x[r, c] (R rows, C columns, Params): column stats as ONE f64 Tuple Func (sum, sum of squares) updated over RDom(0, R); z = (x - mean) / std (f32), clipped to +-4 sigma; outputs z and the i8 quantization round(z 31.75); integer-valued data so the sums are exact",
      {'R': (1, 65536), 'C': (1, 32)},
      outs=lambda v: [(F32, [v['R'], v['C']]), (I8, [v['R'], v['C']])],
      data=lambda v, r: [fa(r.integers(-50, 200, (v['R'], v['C'])).astype(np.float32))], tol=1e-5, target='B')
def zscore(S, E):
    X = hl.ImageParam(F32, 2, "x")
    r, c = V("r", "c")
    st = F("zs_stats"); st[c] = (hl.f64(0), hl.f64(0))
    rr = RD((0, S['R']), name="rr")
    xv = hl.f64(X[rr, c])
    st[c] = (st[c][0] + xv, st[c][1] + xv * xv)
    Rf = hl.f64(S['R'])
    mean = F("zs_mean"); mean[c] = st[c][0] / Rf
    sd = F("zs_std"); sd[c] = hl.sqrt(hl.max(st[c][1] / Rf - mean[c] * mean[c], hl.f64(1e-12)))
    z = F("zs_z"); z[r, c] = hl.clamp(hl.f32((hl.f64(X[r, c]) - mean[c]) / sd[c]), -4.0, 4.0)
    q = F("zs_q"); q[r, c] = hl.i8(hl.round(z[r, c] * 31.75))
    est_in(X, E['R'], E['C']); est_out(z, [r, c], E['R'], E['C']); est_out(q, [r, c], E['R'], E['C'])
    return [z, q], [X]


@spec("bucketize_sorted_edges_buffer_count_compare_inline_hlsum_over_k_then_bucket_counts_and_tuple_sum_scatter_to_bucket_id_then_means_k_plus_1_outputs",
      "bucketize (np.digitize / torch.bucketize right=False) of N values against K sorted edges (a buffer; K a Param): bucket id = inline hl.sum over RDom(0, K) of (v >= edge_k); per-bucket count and value sum scattered into ONE Tuple Func over RDom(0, N) at the computed bucket id; outputs ids i32 [N], counts i32 [K + 1], means f32 [K + 1] (0 for empty); integer-valued data",
      {'N': (1, 262144), 'K': (1, 64)},
      outs=lambda v: [(I32, [v['N']]), (I32, [v['K'] + 1]), (F32, [v['K'] + 1])],
      data=lambda v, r: [fa(r.integers(-500, 500, v['N']).astype(np.float32)), fa(np.sort(r.choice(np.arange(-520, 520), v['K'], replace=False)).astype(np.float32))],
      tol=1e-5, target='A')
def bucketize(S, E):
    vals = hl.ImageParam(F32, 1, "vals"); edges = hl.ImageParam(F32, 1, "edges")
    n, k = V("n", "k")
    rk = RD((0, S['K']), name="rk")
    bid = F("bk_id"); bid[n] = hl.sum(hl.select(vals[n] >= edges[rk], 1, 0))
    acc = F("bk_acc"); acc[k] = (hl.i32(0), hl.f32(0))
    rn = RD((0, S['N']), name="rn")
    bi = hl.clamp(bid[rn], 0, S['K'])
    acc[bi] = (acc[bi][0] + 1, acc[bi][1] + vals[rn])
    cnt = F("bk_count"); cnt[k] = acc[k][0]
    mean = F("bk_mean"); mean[k] = hl.select(acc[k][0] > 0, acc[k][1] / hl.f32(hl.max(acc[k][0], 1)), 0.0)
    est_in(vals, E['N']); est_in(edges, E['K']); est_out(bid, [n], E['N']); est_out(cnt, [k], E['K'] + 1); est_out(mean, [k], E['K'] + 1)
    return [bid, cnt, mean], [vals, edges]
