"""Red-team round 12 pipelines for Diet: names and styles not used by rounds 1-11 (transformer pieces written as online /
chunked reductions, audio and signal processing, scientific scans and stencils with unusual layouts, imaging, ML ops
ported from PyTorch / numpy, DP recurrences written as RDom-only scans). Same spec format as
../redteam11_2026-12-02/pipes11.py; helpers imported from pipes11 (and through it pipes10 / pipes9 / round 3) by
importlib, not copied. target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for
Adams2019c), E: estimates (the Params for Diet, ints otherwise)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec11 = importlib.util.spec_from_file_location("pipes_round11", os.path.join(_here, "..", "redteam11_2026-12-02", "pipes11.py"))
_round11 = importlib.util.module_from_spec(_spec11)
_spec11.loader.exec_module(_round11)
_round3 = _round11._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round11.V, _round11.est_in, _round11.est_out, _round11.fa, _round11.rimg, _round11.RD, _round11.TARGETS
D, MX, runif, randint, fE = _round11.D, _round11.MX, _round11.runif, _round11.randint, _round11.fE
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round11.F32, _round11.F64, _round11.U8, _round11.U16, _round11.U32, _round11.U64,
                                                  _round11.I8, _round11.I16, _round11.I32, _round11.I64)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()
TWO_PI = 2.0 * math.pi


def shl1(n):
    """1 << n for a Param, an Expr or a CInt"""
    return (1 << n) if isinstance(n, int) else (hl.Expr(1) << n)


# ======================================= transformer pieces ===================================================

@spec("layernorm_chunk_welford_chan_merge_tuple3", "LayerNorm over d = 32*NC of x[d, t] with statistics computed the numerically careful way: a Welford 3-Tuple (n, mean, M2) update over each 32-wide chunk c (Func [c, t]), then Chan's pairwise merge of the NC chunk Tuples over RDom(0, NC) into one Tuple per token, affine gamma/beta",
      {'NC': (1, 24), 'T': (1, 256)},
      outs=lambda v: [(F32, [32 * v['NC'], v['T']])],
      data=lambda v, r: [fa((r.standard_normal((32 * v['NC'], v['T'])) * 2 + 3).astype(np.float32)),
                         runif(r, (32 * v['NC'],), 0.5, 1.5), runif(r, (32 * v['NC'],), -0.5, 0.5)], tol=1e-4, target='A')
def lnwelf(S, E):
    xi = hl.ImageParam(F32, 2, "x"); g = hl.ImageParam(F32, 1, "g"); bt = hl.ImageParam(F32, 1, "beta")
    c, t, d = V("c", "t", "d")
    ch = F("lw_chunk"); ch[c, t] = (hl.f32(0), hl.f32(0), hl.f32(0))
    r = RD((0, 32))
    v = xi[c * 32 + r.x, t]
    n0, m0, q0 = ch[c, t][0], ch[c, t][1], ch[c, t][2]
    n1 = n0 + 1.0; dl = v - m0; m1 = m0 + dl / n1
    ch[c, t] = (n1, m1, q0 + dl * (v - m1))
    mg = F("lw_merge"); mg[t] = (hl.f32(0), hl.f32(0), hl.f32(0))
    rc = RD((0, S['NC']), name="rc")
    nA, mA, qA = mg[t][0], mg[t][1], mg[t][2]
    nB, mB, qB = ch[rc.x, t][0], ch[rc.x, t][1], ch[rc.x, t][2]
    n = nA + nB; de = mB - mA
    mg[t] = (n, mA + de * nB / n, qA + qB + de * de * nA * nB / n)
    o = F("lw_out"); o[d, t] = (xi[d, t] - mg[t][1]) / hl.sqrt(mg[t][2] / mg[t][0] + 1e-5) * g[d] + bt[d]
    est_in(xi, 32 * E['NC'], E['T']); est_in(g, 32 * E['NC']); est_in(bt, 32 * E['NC']); est_out(o, [d, t], 32 * E['NC'], E['T'])
    return [o], [xi, g, bt]


@spec("rope_neox_halves_pos_offset_then_qk_scores", "GPT-NeoX rotary embedding (rotate halves: d pairs with d +- 32 of head dim 64, chosen by select(d < 32) with d % 32 indices) at positions i + P0 (P0 a KV-cache offset Param 0..512); inv_freq Func, cos/sin Funcs of (f, position); then scores s[j, i, h] = 0; s += q_rot . k_rot over RDom(64) (update on an OUTPUT) and q_rot as a second output",
      {'T': (1, 256), 'H': (1, 8), 'P0': (0, 512)},
      outs=lambda v: [(F32, [v['T'], v['T'], v['H']]), (F32, [64, v['T'], v['H']])],
      data=lambda v, r: [rimg(r, (64, v['T'], v['H'])), rimg(r, (64, v['T'], v['H']))], tol=1e-4, target='B')
def ropeneox(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 3, "k")
    d, i, j, h, f, p = V("d", "i", "j", "h", "f", "p")
    invf = F("rn_invf"); invf[f] = hl.exp(hl.f32(f) * (-2.0 * math.log(10000.0) / 64.0))
    ang = F("rn_ang"); ang[f, p] = hl.f32(p) * invf[f]
    cs = F("rn_cos"); cs[f, p] = hl.cos(ang[f, p])
    sn = F("rn_sin"); sn[f, p] = hl.sin(ang[f, p])

    def rope(src, nm):
        rf = F(nm)
        ff = d % 32; pos = i + S['P0']
        lo, hi = src[ff, i, h], src[ff + 32, i, h]
        rf[d, i, h] = hl.select(d < 32, lo * cs[ff, pos] - hi * sn[ff, pos], hi * cs[ff, pos] + lo * sn[ff, pos])
        return rf
    qr = rope(q, "rn_qrot"); kr = rope(k, "rn_krot")
    rk = RD((0, 64))
    s = F("rn_scores"); s[j, i, h] = 0.0
    s[j, i, h] += qr[rk.x, i, h] * kr[rk.x, j, h] * 0.125
    est_in(q, 64, E['T'], E['H']); est_in(k, 64, E['T'], E['H'])
    est_out(s, [j, i, h], E['T'], E['T'], E['H']); est_out(qr, [d, i, h], 64, E['T'], E['H'])
    return [s, qr], [q, k]


@spec("flash_online_softmax_tuple3_causal_where", "causal single-head attention written flash-attention style: scores s[j, i] = hl.sum(q.k)/8 (D=64), then per output o[dv, i] an online-softmax 3-Tuple (running max m, denominator l, accumulator) update over RDom(0, T).where(r <= i) (init from key 0, so no -inf), out = acc / l; second output lse[i] = m + log(l) read at dv = 0",
      {'T': (1, 384)},
      outs=lambda v: [(F32, [64, v['T']]), (F32, [v['T']])],
      data=lambda v, r: [rimg(r, (64, v['T'])), rimg(r, (64, v['T'])), rimg(r, (64, v['T']))], tol=1e-4, target='A')
def flashol(S, E):
    q = hl.ImageParam(F32, 2, "q"); kk = hl.ImageParam(F32, 2, "k"); vv = hl.ImageParam(F32, 2, "v")
    i, j, dv = V("i", "j", "dv")
    rk = RD((0, 64), name="rk")
    s = F("fo_s"); s[j, i] = hl.sum(q[rk.x, i] * kk[rk.x, j]) * 0.125
    acc = F("fo_acc"); acc[dv, i] = (s[0, i], hl.f32(0), hl.f32(0))
    r = RD((0, S['T'])); r.where(r.x <= i)
    m, l, a = acc[dv, i][0], acc[dv, i][1], acc[dv, i][2]
    sc = s[r.x, i]; m1 = hl.max(m, sc); al = hl.exp(m - m1); e = hl.exp(sc - m1)
    acc[dv, i] = (m1, l * al + e, a * al + e * vv[dv, r.x])
    o = F("fo_out"); o[dv, i] = acc[dv, i][2] / acc[dv, i][1]
    lse = F("fo_lse"); lse[i] = acc[0, i][0] + hl.log(acc[0, i][1])
    est_in(q, 64, E['T']); est_in(kk, 64, E['T']); est_in(vv, 64, E['T'])
    est_out(o, [dv, i], 64, E['T']); est_out(lse, [i], E['T'])
    return [o, lse], [q, kk, vv]


@spec("geglu_single_proj_2F_split_halves_residual", "GEGLU MLP as a PyTorch user writes it: ONE projection h = b1 + W1 x to 2F = 768 features (W1 [k, j], k innermost, update Func), chunk(2) into gate = h[j] and value = h[j + 384], tanh-GELU(gate) * value, down-projection by inline hl.sum over W2 [j, n] plus the residual x; tokens T outer",
      {'T': (1, 128)},
      outs=lambda v: [(F32, [256, v['T']])],
      data=lambda v, r: [rimg(r, (256, v['T'])), runif(r, (256, 768), -0.0625, 0.0625), runif(r, (768,), -0.1, 0.1),
                         runif(r, (384, 256), -0.05, 0.05)], tol=1e-3, target='B')
def geglu(S, E):
    x = hl.ImageParam(F32, 2, "x"); W1 = hl.ImageParam(F32, 2, "W1"); b1 = hl.ImageParam(F32, 1, "b1"); W2 = hl.ImageParam(F32, 2, "W2")
    j, t, n = V("j", "t", "n")
    rk = RD((0, 256), name="rk")
    hh = F("gg_h"); hh[j, t] = b1[j]
    hh[j, t] += W1[rk.x, j] * x[rk.x, t]
    u = hh[j, t]
    gl = 0.5 * u * (1.0 + hl.tanh(0.7978845608 * (u + 0.044715 * u * u * u)))
    gg = F("gg_gated"); gg[j, t] = gl * hh[j + 384, t]
    rj = RD((0, 384), name="rj")
    y = F("gg_out"); y[n, t] = x[n, t] + hl.sum(W2[rj.x, n] * gg[rj.x, t])
    est_in(x, 256, E['T']); est_in(W1, 256, 768); est_in(b1, 768); est_in(W2, 384, 256); est_out(y, [n, t], 256, E['T'])
    return [y], [x, W1, b1, W2]


@spec("contract_three_k_chunk_updates_param_split", "a contraction written as three separate update stages over consecutive K chunks with run-time chunk lengths K1, K2, K3 (RDom(0,K1), RDom(K1,K2), RDom(K1+K2,K3)): C[n, m] = bias[n]; C += A[k, m] * B[n, k] per chunk; N = 256",
      {'M': (1, 256), 'K1': (1, 128), 'K2': (1, 128), 'K3': (1, 128)},
      outs=lambda v: [(F32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (v['K1'] + v['K2'] + v['K3'], v['M'])), rimg(r, (256, v['K1'] + v['K2'] + v['K3'])), rimg(r, (256,))],
      tol=1e-4, target='A')
def kchunks(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); bias = hl.ImageParam(F32, 1, "bias")
    n, m = V("n", "m")
    K1, K2, K3 = S['K1'], S['K2'], S['K3']
    C = F("kc_out"); C[n, m] = bias[n]
    for nm, (lo, ext) in (("r1", (0, K1)), ("r2", (K1, K2)), ("r3", (K1 + K2, K3))):
        r = RD((lo, ext), name=nm)
        C[n, m] += A[r.x, m] * B[n, r.x]
    K = E['K1'] + E['K2'] + E['K3']
    est_in(A, K, E['M']); est_in(B, 256, K); est_in(bias, 256); est_out(C, [n, m], 256, E['M'])
    return [C], [A, B, bias]


@spec("numpy_broadcast_outer3d_then_sum_last_axis", "numpy port of (a[:, None, :] * b[None, :, :]).sum(-1): the broadcast product materialised as a 3-D Func P[r, j, i] = a[r, i] * b[r, j] (R = 64 innermost), summed over r into S[j, i]; second output cosine similarity S / sqrt(|a_i|^2 |b_j|^2) with the norms as separate update Funcs",
      {'M': (1, 192), 'N': (1, 192)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (64, v['M'])), rimg(r, (64, v['N']))], tol=1e-4, target='B')
def npouter(S, E):
    a = hl.ImageParam(F32, 2, "a"); b = hl.ImageParam(F32, 2, "b")
    r_, j, i = V("r_", "j", "i")
    P = F("nb_prod"); P[r_, j, i] = a[r_, i] * b[r_, j]
    rr = RD((0, 64), name="rr")
    sm = F("nb_sum"); sm[j, i] = hl.sum(P[rr.x, j, i])
    na = F("nb_na"); na[i] = 0.0; na[i] += a[rr.x, i] * a[rr.x, i]
    nb = F("nb_nb"); nb[j] = 0.0; nb[j] += b[rr.x, j] * b[rr.x, j]
    cs = F("nb_cos"); cs[j, i] = sm[j, i] / (hl.sqrt(na[i] * nb[j]) + 1e-6)
    est_in(a, 64, E['M']); est_in(b, 64, E['N']); est_out(sm, [j, i], E['N'], E['M']); est_out(cs, [j, i], E['N'], E['M'])
    return [sm, cs], [a, b]


# ======================================= signal / audio ======================================================

@spec("dft_cos_sin_weight_funcs_two_contractions_db", "direct real DFT as two contractions over n with cos / -sin weight Funcs wr[k, n], wi[k, n] of the phase 2 pi ((k n) mod N) / N (N ranged 2..512), bins k < N/2 + 1, channels C; outputs magnitude and 10 log10(max(power, 1e-6)) (log via hl.log)",
      {'N': (2, 512), 'C': (1, 8)},
      outs=lambda v: [(F32, [v['N'] // 2 + 1, v['C']]), (F32, [v['N'] // 2 + 1, v['C']])],
      data=lambda v, r: [runif(r, (v['N'], v['C']), -1.0, 1.0)], tol=1e-3, target='A')
def dftw(S, E):
    x = hl.ImageParam(F32, 2, "x")
    k, n, c = V("k", "n", "c")
    N = S['N']
    ph = TWO_PI * hl.f32((k * n) % N) / fE(N)
    wr = F("dw_wr"); wr[k, n] = hl.cos(ph)
    wi = F("dw_wi"); wi[k, n] = -hl.sin(ph)
    rn = RD((0, N), name="rn")
    re = F("dw_re"); re[k, c] = hl.sum(x[rn.x, c] * wr[k, rn.x])
    im = F("dw_im"); im[k, c] = hl.sum(x[rn.x, c] * wi[k, rn.x])
    pw = re[k, c] * re[k, c] + im[k, c] * im[k, c]
    mag = F("dw_mag"); mag[k, c] = hl.sqrt(pw)
    db = F("dw_db"); db[k, c] = (10.0 / math.log(10.0)) * hl.log(hl.max(pw, 1e-6))
    NB = D(E['N'], 2) + 1
    est_in(x, E['N'], E['C']); est_out(mag, [k, c], NB, E['C']); est_out(db, [k, c], NB, E['C'])
    return [mag, db], [x]


@spec("rational_resample_L_over_M_polyphase_cinner", "rational resampler by L/M (both run-time, 1..8) with TP = 8 taps per phase: prototype windowed-sinc Func hp[q] over q < L*TP (sinc guarded by select, Hann window), y[c, o] = sum_k hp[(o*M) % L + k*L] * x[c, (o*M)/L - k] (constant_exterior 0), stereo channels innermost, independent input / output lengths N, NO",
      {'N': (1, 2000), 'NO': (1, 2000), 'L': (1, 8), 'M': (1, 8)},
      outs=lambda v: [(F32, [2, v['NO']])],
      data=lambda v, r: [rimg(r, (2, v['N']))], tol=1e-4, target='B')
def ratres(S, E):
    x = hl.ImageParam(F32, 2, "x")
    c, o, qv = V("c", "o", "qv")
    L, M = S['L'], S['M']
    LT = L * 8
    tq = (hl.f32(qv) - fE(LT) / 2.0 + 0.5) / fE(L)
    sinc = hl.select(hl.abs(tq) < 1e-6, 1.0, hl.sin(math.pi * tq) / (math.pi * tq))
    hp = F("rr_proto"); hp[qv] = sinc * (0.5 - 0.5 * hl.cos(TWO_PI * (hl.f32(qv) + 0.5) / fE(LT)))
    xe = BF.constant_exterior(x, 0.0, [(0, 2), (0, S['N'])])
    rk = RD((0, 8), name="rk")
    y = F("rr_out"); y[c, o] = hl.sum(hp[(o * M) % L + rk.x * L] * xe[c, (o * M) / L - rk.x])
    est_in(x, 2, E['N']); est_out(y, [c, o], 2, E['NO'])
    return [y], [x]


@spec("xcorr_neg_pos_lags_output_min_normalized", "normalised cross-correlation of two signals a, s [N, B] over lags l in [-L, L] (output buffer min -L, L 0..64): cc[l, b] = 0; cc += a[n, b] * s_ext[n + l, b] over RDom(0, N) (constant_exterior), energies as update Funcs, divided by sqrt(Ea Es)",
      {'N': (1, 4096), 'L': (0, 64), 'B': (1, 4)},
      outs=lambda v: [(F32, [2 * v['L'] + 1, v['B']], [-v['L'], 0])],
      data=lambda v, r: [rimg(r, (v['N'], v['B'])), rimg(r, (v['N'], v['B']))], tol=1e-4, target='A')
def xcorr(S, E):
    a = hl.ImageParam(F32, 2, "a"); s = hl.ImageParam(F32, 2, "s")
    l, b = V("l", "b")
    se = BF.constant_exterior(s, 0.0, [(0, S['N']), (0, S['B'])])
    rn = RD((0, S['N']), name="rn")
    ea = F("xc_ea"); ea[b] = 0.0; ea[b] += a[rn.x, b] * a[rn.x, b]
    es = F("xc_es"); es[b] = 0.0; es[b] += s[rn.x, b] * s[rn.x, b]
    cc = F("xc_cc"); cc[l, b] = 0.0; cc[l, b] += a[rn.x, b] * se[rn.x + l, b]
    o = F("xc_out"); o[l, b] = cc[l, b] / hl.sqrt(ea[b] * es[b] + 1e-12)
    est_in(a, E['N'], E['B']); est_in(s, E['N'], E['B']); est_out(o, [l, b], 2 * E['L'] + 1, E['B'], mins=[-E['L'], 0])
    return [o], [a, s]


@spec("cumtrapz_f64_rows_linear_fit_detrend", "scipy cumulative_trapezoid per row in f64 (y[n, r], n innermost; dx an unranged f64 Param): ct[n, r] = 0 then a scan over RDom(1, N-1); a per-row least-squares line fitted to ct by a 4-Tuple f64 reduction (sum t, sum c, sum t c, sum t^2), outputs ct and ct minus the fitted line",
      {'N': (2, 4096), 'R': (1, 64)},
      outs=lambda v: [(F64, [v['N'], v['R']]), (F64, [v['N'], v['R']])],
      data=lambda v, r: [runif(r, (v['N'], v['R']), -1.0, 1.0, np.float64)], tol=1e-8, target='A')
def cumtrapz(S, E):
    y = hl.ImageParam(F64, 2, "y")
    dx = hl.Param(F64, "dx", 0.01)
    n, r_ = V("n", "r_")
    ct = F("ctz_ct"); ct[n, r_] = hl.f64(0)
    rn = RD((1, S['N'] - 1), name="rn")
    ct[rn.x, r_] = ct[rn.x - 1, r_] + 0.5 * dx * (y[rn.x - 1, r_] + y[rn.x, r_])
    z = hl.f64(0)
    st = F("ctz_fit"); st[r_] = (z, z, z, z)
    ra = RD((0, S['N']), name="ra")
    tt = hl.f64(ra.x); cv = ct[ra.x, r_]
    st[r_] = (st[r_][0] + tt, st[r_][1] + cv, st[r_][2] + tt * cv, st[r_][3] + tt * tt)
    Nf = hl.f64(S['N'])
    slope = F("ctz_slope"); slope[r_] = (Nf * st[r_][2] - st[r_][0] * st[r_][1]) / hl.max(Nf * st[r_][3] - st[r_][0] * st[r_][0], 1e-9)
    icpt = F("ctz_icpt"); icpt[r_] = (st[r_][1] - slope[r_] * st[r_][0]) / Nf
    dt = F("ctz_detr"); dt[n, r_] = ct[n, r_] - (icpt[r_] + slope[r_] * hl.f64(n))
    est_in(y, E['N'], E['R']); est_out(ct, [n, r_], E['N'], E['R']); est_out(dt, [n, r_], E['N'], E['R'])
    return [ct, dt], [y]


@spec("spectral_centroid_rolloff_hop_param_frames", "audio features per STFT frame: frames fr[n, f] = x[f*HOP + n] * hann[n] (frame 256, HOP 32..256 run-time, NF frames), magnitude spectrum of 129 bins by two contractions with cos/sin tables ((k n) mod 256), spectral centroid (sum k mag / sum mag) and 85% roll-off bin as a count of cumulative-sum bins (in-place scan over k) below 0.85 total",
      {'NF': (1, 64), 'HOP': (32, 256)},
      outs=lambda v: [(F32, [v['NF']]), (I32, [v['NF']])],
      data=lambda v, r: [runif(r, ((v['NF'] - 1) * v['HOP'] + 256,), -1.0, 1.0)], tol=1e-4, target='B')
def specfeat(S, E):
    x = hl.ImageParam(F32, 1, "x")
    n, f, k = V("n", "f", "k")
    win = F("sf_hann"); win[n] = 0.5 - 0.5 * hl.cos(TWO_PI * hl.f32(n) / 256.0)
    fr = F("sf_frames"); fr[n, f] = x[f * S['HOP'] + n] * win[n]
    ph = TWO_PI * hl.f32((k * n) % 256) / 256.0
    cw = F("sf_cos"); cw[k, n] = hl.cos(ph)
    sw = F("sf_sin"); sw[k, n] = hl.sin(ph)
    rn = RD((0, 256), name="rn")
    re = F("sf_re"); re[k, f] = hl.sum(fr[rn.x, f] * cw[k, rn.x])
    im = F("sf_im"); im[k, f] = hl.sum(fr[rn.x, f] * sw[k, rn.x])
    mag = F("sf_mag"); mag[k, f] = hl.sqrt(re[k, f] * re[k, f] + im[k, f] * im[k, f])
    rb = RD((0, 129), name="rb")
    cen = F("sf_centroid"); cen[f] = hl.sum(hl.f32(rb.x) * mag[rb.x, f]) / hl.max(hl.sum(mag[rb.x, f]), 1e-9)
    cs = F("sf_cums"); cs[k, f] = mag[k, f]
    rs = RD((1, 128), name="rs")
    cs[rs.x, f] += cs[rs.x - 1, f]
    ro = F("sf_rolloff"); ro[f] = hl.sum(hl.select(cs[rb.x, f] < 0.85 * cs[128, f], 1, 0))
    est_in(x, (E['NF'] - 1) * E['HOP'] + 256); est_out(cen, [f], E['NF']); est_out(ro, [f], E['NF'])
    return [cen, ro], [x]


# ======================================= scientific ============================================================

@spec("upwind_advection_2d_velocity_sign_select_3steps", "2-D first-order upwind advection, 3 explicit steps as a Func chain (repeat_edge applied to each step's Func): the one-sided difference per axis chosen by select on the sign of a velocity field read from two buffers, dt = 0.05 * DTQ (DTQ ranged 1..9)",
      {'W': (2, 1024), 'H': (2, 768), 'DTQ': (1, 9)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H']), -1.0, 1.0), runif(r, (v['W'], v['H']), -1.0, 1.0)],
      tol=1e-5, target='B')
def upwind(S, E):
    u0 = hl.ImageParam(F32, 2, "u0"); vx = hl.ImageParam(F32, 2, "vx"); vy = hl.ImageParam(F32, 2, "vy")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]
    dt = 0.05 * fE(S['DTQ'])
    cur = BF.repeat_edge(u0, bnd)
    for s in range(3):
        a, b = vx[x, y], vy[x, y]
        fx = hl.select(a > 0, a * (cur[x, y] - cur[x - 1, y]), a * (cur[x + 1, y] - cur[x, y]))
        fy = hl.select(b > 0, b * (cur[x, y] - cur[x, y - 1]), b * (cur[x, y + 1] - cur[x, y]))
        nx = F("uw_step%d" % s); nx[x, y] = cur[x, y] - dt * (fx + fy)
        cur = BF.repeat_edge(nx, bnd) if s < 2 else nx
    est_in(u0, E['W'], E['H']); est_in(vx, E['W'], E['H']); est_in(vy, E['W'], E['H']); est_out(cur, [x, y], E['W'], E['H'])
    return [cur], [u0, vx, vy]


@spec("jacobi3d_f64_z_innermost_likely_interior_2sweeps", "3-D Poisson Jacobi in f64 on a grid stored z-INNERMOST u[z, x, y], two sweeps as a Func chain: select(likely(interior), (6 clamped neighbours + h^2 f) / 6, old value) (Dirichlet: boundary values kept)",
      {'Z': (3, 64), 'X': (3, 128), 'Y': (3, 128)},
      outs=lambda v: [(F64, [v['Z'], v['X'], v['Y']])],
      data=lambda v, r: [runif(r, (v['Z'], v['X'], v['Y']), 0.0, 1.0, np.float64), runif(r, (v['Z'], v['X'], v['Y']), -1.0, 1.0, np.float64)],
      tol=1e-9, target='A')
def jac3z(S, E):
    u0 = hl.ImageParam(F64, 3, "u0"); rhs = hl.ImageParam(F64, 3, "rhs")
    z, x, y = V("z", "x", "y")
    Z, X, Y = S['Z'], S['X'], S['Y']
    cur = F("jz_u0"); cur[z, x, y] = u0[z, x, y]
    cz = lambda a: hl.clamp(a, 0, Z - 1)
    cx = lambda a: hl.clamp(a, 0, X - 1)
    cy = lambda a: hl.clamp(a, 0, Y - 1)
    inter = (z > 0) & (z < Z - 1) & (x > 0) & (x < X - 1) & (y > 0) & (y < Y - 1)
    for s in range(2):
        nb = (cur[cz(z - 1), x, y] + cur[cz(z + 1), x, y] + cur[z, cx(x - 1), y] + cur[z, cx(x + 1), y]
              + cur[z, x, cy(y - 1)] + cur[z, x, cy(y + 1)])
        nx = F("jz_sweep%d" % s); nx[z, x, y] = hl.select(hl.likely(inter), (nb + 1e-4 * rhs[z, x, y]) / 6.0, cur[z, x, y])
        cur = nx
    est_in(u0, E['Z'], E['X'], E['Y']); est_in(rhs, E['Z'], E['X'], E['Y']); est_out(cur, [z, x, y], E['Z'], E['X'], E['Y'])
    return [cur], [u0, rhs]


@spec("kalman1d_tuple_scan_f64_tracks_innermost", "scalar Kalman filter per track in f64, tracks INNERMOST z[b, t]: a 2-Tuple (estimate, variance) pure init from the first measurement, then a scan over RDom(1, T-1) (predict P + q, gain P/(P + r), correct); q, r unranged f64 Params; estimate and variance are two outputs",
      {'B': (1, 64), 'T': (1, 2000)},
      outs=lambda v: [(F64, [v['B'], v['T']]), (F64, [v['B'], v['T']])],
      data=lambda v, r: [fa((np.cumsum(r.standard_normal((v['B'], v['T'])) * 0.1, axis=1) + r.standard_normal((v['B'], v['T'])) * 0.5).astype(np.float64))],
      tol=1e-9, target='A')
def kalman(S, E):
    zi = hl.ImageParam(F64, 2, "z")
    q = hl.Param(F64, "kq", 1e-3); rr = hl.Param(F64, "kr", 0.25)
    b, t = V("b", "t")
    st = F("kf_state"); st[b, t] = (zi[b, t], hl.f64(rr))
    r = RD((1, S['T'] - 1), name="rt")
    xp = st[b, r.x - 1][0]; pp = st[b, r.x - 1][1] + q
    kg = pp / (pp + rr)
    st[b, r.x] = (xp + kg * (zi[b, r.x] - xp), (1.0 - kg) * pp)
    ox = F("kf_est"); ox[b, t] = st[b, t][0]
    op = F("kf_var"); op[b, t] = st[b, t][1]
    est_in(zi, E['B'], E['T']); est_out(ox, [b, t], E['B'], E['T']); est_out(op, [b, t], E['B'], E['T'])
    return [ox, op], [zi]


# ======================================= imaging ===============================================================

@spec("demosaic_malvar_he_cutler_5x5_grbg_cxy_u16", "Malvar-He-Cutler gradient-corrected demosaic of a GRBG u16 mosaic: four 5x5 kernels (G at R/B, 'row', 'column', 'diagonal', weights x16 in i32) as separate Funcs over mirror_interior, chosen per output channel by select on x%2 / y%2 and hl.mux over c; rounded >> 4, clamped to u16; output channels-FIRST [c, x, y]",
      {'W': (4, 1024), 'H': (4, 768)},
      outs=lambda v: [(U16, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16)], target='B')
def malvar(S, E):
    raw = hl.ImageParam(U16, 2, "raw")
    c, x, y = V("c", "x", "y")
    e = BF.mirror_interior(raw, [(0, S['W']), (0, S['H'])])
    p = lambda dx, dy: hl.i32(e[x + dx, y + dy])
    C = p(0, 0)
    N4 = p(-1, 0) + p(1, 0) + p(0, -1) + p(0, 1)
    F4 = p(-2, 0) + p(2, 0) + p(0, -2) + p(0, 2)
    DG = p(-1, -1) + p(1, -1) + p(-1, 1) + p(1, 1)
    kg = F("mv_g"); kg[x, y] = 8 * C + 4 * N4 - 2 * F4
    krow = F("mv_row"); krow[x, y] = 10 * C + 8 * (p(-1, 0) + p(1, 0)) - 2 * (p(-2, 0) + p(2, 0)) - 2 * DG + (p(0, -2) + p(0, 2))
    kcol = F("mv_col"); kcol[x, y] = 10 * C + 8 * (p(0, -1) + p(0, 1)) - 2 * (p(0, -2) + p(0, 2)) - 2 * DG + (p(-2, 0) + p(2, 0))
    kdg = F("mv_diag"); kdg[x, y] = 12 * C + 4 * DG - 3 * F4
    fin = lambda v: hl.u16(hl.clamp((v + 8) >> 4, 0, 65535))
    ex, ey = (x % 2) == 0, (y % 2) == 0
    g_site = ex == ey        # GRBG: G at (even, even) and (odd, odd)
    r_site = (~ex) & ey
    b_site = ex & (~ey)
    R = hl.select(r_site, fin(16 * C), b_site, fin(kdg[x, y]), ey, fin(krow[x, y]), fin(kcol[x, y]))
    G = hl.select(g_site, fin(16 * C), fin(kg[x, y]))
    B = hl.select(b_site, fin(16 * C), r_site, fin(kdg[x, y]), ey, fin(kcol[x, y]), fin(krow[x, y]))
    o = F("mv_out"); o[c, x, y] = hl.mux(c, [R, G, B])
    est_in(raw, E['W'], E['H']); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [raw]


@spec("fisheye_to_equirect_acos_atan2_bilinear_planar", "equidistant 200-degree fisheye [W, H, 3] planar f32 -> equirectangular panorama OW x OH: per output pixel lon/lat -> 3-D ray -> theta = acos(dz), phi = atan2(dy, dx) -> source position as two map Funcs, clamped bilinear gather per channel; second output a u8 validity mask (radius <= image radius)",
      {'W': (16, 1024), 'H': (16, 768), 'OW': (8, 1024), 'OH': (8, 512)},
      outs=lambda v: [(F32, [v['OW'], v['OH'], 3]), (U8, [v['OW'], v['OH']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 3))], tol=1e-4, target='A')
def fisheye(S, E):
    im = hl.ImageParam(F32, 3, "fish")
    x, y, c = V("x", "y", "c")
    W, H = S['W'], S['H']
    lon = (hl.f32(x) + 0.5) / fE(S['OW']) * TWO_PI - math.pi
    lat = (hl.f32(y) + 0.5) / fE(S['OH']) * math.pi - math.pi / 2
    dx = hl.cos(lat) * hl.sin(lon); dy = hl.sin(lat); dz = hl.cos(lat) * hl.cos(lon)
    theta = hl.acos(hl.clamp(dz, -1.0, 1.0)); phi = hl.atan2(dy, dx)
    rimg_ = hl.f32(hl.min(W, H)) * 0.5
    rad = F("fe_rad"); rad[x, y] = theta / (math.radians(200.0) / 2) * rimg_
    mx = F("fe_mapx"); mx[x, y] = fE(W) * 0.5 + rad[x, y] * hl.cos(phi) - 0.5
    my = F("fe_mapy"); my[x, y] = fE(H) * 0.5 + rad[x, y] * hl.sin(phi) - 0.5
    fx0 = hl.floor(mx[x, y]); fy0 = hl.floor(my[x, y])
    ax = mx[x, y] - fx0; ay = my[x, y] - fy0
    ix = hl.i32(fx0); iy = hl.i32(fy0)
    g = lambda a, b: im[hl.clamp(a, 0, W - 1), hl.clamp(b, 0, H - 1), c]
    o = F("fe_out")
    o[x, y, c] = hl.lerp(hl.lerp(g(ix, iy), g(ix + 1, iy), ax), hl.lerp(g(ix, iy + 1), g(ix + 1, iy + 1), ax), ay)
    mk = F("fe_valid"); mk[x, y] = hl.select(rad[x, y] <= rimg_, hl.u8(255), hl.u8(0))
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['OW'], E['OH'], 3); est_out(mk, [x, y], E['OW'], E['OH'])
    return [o, mk], [im]


@spec("auto_exposure_loglum_hist64_percentile_stretch_u8", "auto exposure: integer luma (54R + 183G + 19B) >> 8 of planar u8 RGB, 64-bin histogram of log2(luma + 1) * 8 (scatter over a 2-D RDom), in-place CDF scan, 2% / 98% percentile bins as 0-D counts of CDF bins below (integer compares), exposure stretch of every channel to u8 by saturating_cast; histogram is a second output",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3]), (I32, [64])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], 3), 20, 180, np.uint8)], tol=0, target='B')
def autoexp(S, E):
    im = hl.ImageParam(U8, 3, "rgb")
    x, y, c, bn = V("x", "y", "c", "bn")
    W, H = S['W'], S['H']
    luma = F("ae_luma"); luma[x, y] = (54 * hl.i32(im[x, y, 0]) + 183 * hl.i32(im[x, y, 1]) + 19 * hl.i32(im[x, y, 2])) >> 8
    binf = F("ae_bin"); binf[x, y] = hl.clamp(hl.i32(hl.log(hl.f32(luma[x, y]) + 1.0) * (8.0 / math.log(2.0))), 0, 63)
    hist = F("ae_hist"); hist[bn] = 0
    rp = RD((0, W), (0, H), name="rp")
    hist[binf[rp.x, rp.y]] += 1
    cdf = F("ae_cdf"); cdf[bn] = hist[bn]
    rc = RD((1, 63), name="rc")
    cdf[rc.x] += cdf[rc.x - 1]
    rb = RD((0, 64), name="rb")
    NP = W * H
    lo = F("ae_lo"); lo[()] = hl.sum(hl.select(cdf[rb.x] * 100 < 2 * NP, 1, 0))
    hi = F("ae_hi"); hi[()] = hl.sum(hl.select(cdf[rb.x] * 100 < 98 * NP, 1, 0))
    vlo = hl.pow(2.0, hl.f32(lo[()]) / 8.0) - 1.0
    vhi = hl.pow(2.0, hl.f32(hi[()] + 1) / 8.0) - 1.0
    o = F("ae_out"); o[x, y, c] = hl.saturating_cast(U8, (hl.f32(im[x, y, c]) - vlo) * (255.0 / hl.max(vhi - vlo, 1.0)) + 0.5)
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3); est_out(hist, [bn], 64)
    return [o, hist], [im]


@spec("dog_two_sigma_params_normalized_kernel_funcs", "difference of Gaussians with two run-time sigmas (sigma = 0.5 SG + 0.5, SG1 1..3, SG2 2..6; radius 2*SG): per sigma a 1-D kernel Func of exp, normalised by a 0-D sum Func, separable inline hl.sum over RDom(-R, 2R+1) on mirror_image; output g1 - g2",
      {'W': (1, 1024), 'H': (1, 768), 'SG1': (1, 3), 'SG2': (2, 6)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='A')
def dog(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, i = V("x", "y", "i")
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])

    def gauss(SG, nm):
        sig = 0.5 * fE(SG) + 0.5
        R = 2 * SG
        k = F(nm + "_k"); k[i] = hl.exp(-hl.f32(i * i) / (2.0 * sig * sig))
        rr = RD((-R, 2 * R + 1), name=nm + "_r")
        ks = F(nm + "_ksum"); ks[()] = 0.0; ks[()] += k[rr.x]
        bx = F(nm + "_bx"); bx[x, y] = hl.sum(k[rr.x] * e[x + rr.x, y]) / ks[()]
        by = F(nm + "_by"); by[x, y] = hl.sum(k[rr.x] * bx[x, y + rr.x]) / ks[()]
        return by
    g1 = gauss(S['SG1'], "dg1"); g2 = gauss(S['SG2'], "dg2")
    o = F("dg_out"); o[x, y] = g1[x, y] - g2[x, y]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("shi_tomasi_min_eig_binomial5_nms3_count_0d", "Shi-Tomasi corners on u8: central-difference gradients (repeat_edge) in f32, structure tensor products smoothed by a 5-tap binomial (1 4 6 4 1)/16 separable inline hl.sum, min eigenvalue, NMS by hl.maximum over a 3x3 RDom with threshold TH*100 (TH ranged); outputs lambda_min f32, corner mask u8 and a 0-D i32 corner count",
      {'W': (1, 1024), 'H': (1, 768), 'TH': (1, 100)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (U8, [v['W'], v['H']]), (I32, [])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], tol=1e-4, target='B')
def shitomasi(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    e = BF.repeat_edge(im, [(0, W), (0, H)])
    gx = F("st_gx"); gx[x, y] = 0.5 * (hl.f32(e[x + 1, y]) - hl.f32(e[x - 1, y]))
    gy = F("st_gy"); gy[x, y] = 0.5 * (hl.f32(e[x, y + 1]) - hl.f32(e[x, y - 1]))
    kw = [1.0, 4.0, 6.0, 4.0, 1.0]
    rk = RD((0, 5), name="rk")
    w5 = F("st_w5"); iv = hl.Var("iv"); w5[iv] = hl.select(iv == 0, 1.0, iv == 1, 4.0, iv == 2, 6.0, iv == 3, 4.0, 1.0) / 16.0

    def smooth(prod, nm):
        sx = F(nm + "_x"); sx[x, y] = hl.sum(w5[rk.x] * prod(x + rk.x - 2, y))
        sy = F(nm + "_y"); sy[x, y] = hl.sum(w5[rk.x] * sx[x, y + rk.x - 2])
        return sy
    a = smooth(lambda u, v: gx[u, v] * gx[u, v], "st_xx")
    b = smooth(lambda u, v: gx[u, v] * gy[u, v], "st_xy")
    cc = smooth(lambda u, v: gy[u, v] * gy[u, v], "st_yy")
    lam = F("st_lam")
    hd = (a[x, y] - cc[x, y]) * 0.5
    lam[x, y] = (a[x, y] + cc[x, y]) * 0.5 - hl.sqrt(hd * hd + b[x, y] * b[x, y])
    le = BF.constant_exterior(lam, 0.0, [(0, W), (0, H)])
    rn = RD((-1, 3), (-1, 3), name="rn")
    mk = F("st_mask"); mk[x, y] = hl.select((lam[x, y] > fE(S['TH']) * 100.0) & (lam[x, y] >= hl.maximum(le[x + rn.x, y + rn.y])), hl.u8(255), hl.u8(0))
    ra = RD((0, W), (0, H), name="ra")
    cnt = F("st_count"); cnt[()] = 0; cnt[()] += hl.select(mk[ra.x, ra.y] > 0, 1, 0)
    est_in(im, E['W'], E['H']); est_out(lam, [x, y], E['W'], E['H']); est_out(mk, [x, y], E['W'], E['H'])
    return [lam, mk, cnt], [im]


@spec("ycocg_r_lossless_fwd_inv_planar_u16_err_0d", "lossless YCoCg-R colour transform of 12-bit u16 planar RGB in i32 with arithmetic >> (negative values): forward (Y, Co, Cg) as an i16 output [W, H, 3] via hl.mux, inverse from the forward Func back to u16 RGB (second output), 0-D i32 count of mismatches against the input (third output, must be 0)",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(I16, [v['W'], v['H'], 3]), (U16, [v['W'], v['H'], 3]), (I32, [])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], 3), 0, 4095, np.uint16)], target='B')
def ycocg(S, E):
    im = hl.ImageParam(U16, 3, "rgb")
    x, y, c = V("x", "y", "c")
    R, G, B = hl.i32(im[x, y, 0]), hl.i32(im[x, y, 1]), hl.i32(im[x, y, 2])
    co = R - B; tt = B + (co >> 1); cg = G - tt; Y = tt + (cg >> 1)
    fw = F("yc_fwd"); fw[x, y, c] = hl.i16(hl.mux(c, [Y, co, cg]))
    Yi, coi, cgi = hl.i32(fw[x, y, 0]), hl.i32(fw[x, y, 1]), hl.i32(fw[x, y, 2])
    t2 = Yi - (cgi >> 1); G2 = cgi + t2; B2 = t2 - (coi >> 1); R2 = B2 + coi
    rec = F("yc_inv"); rec[x, y, c] = hl.u16(hl.mux(c, [R2, G2, B2]))
    ra = RD((0, S['W']), (0, S['H']), (0, 3), name="ra")
    er = F("yc_err"); er[()] = 0; er[()] += hl.select(rec[ra.x, ra.y, ra.z] != im[ra.x, ra.y, ra.z], 1, 0)
    est_in(im, E['W'], E['H'], 3); est_out(fw, [x, y, c], E['W'], E['H'], 3); est_out(rec, [x, y, c], E['W'], E['H'], 3)
    return [fw, rec, er], [im]


def _labels(v, r):
    xs, ys = np.meshgrid(np.arange(v['W']), np.arange(v['H']), indexing='ij')
    lab = ((xs // 37) * 3 + (ys // 29) * 5) % v['L']
    noise = r.random((v['W'], v['H'])) < 0.01
    lab = np.where(noise, r.integers(0, v['L'], size=(v['W'], v['H'])), lab)
    return fa(lab.astype(np.uint8))


@spec("bbox_per_label_tuple5_where_2d_rdom_i32", "per-label bounding boxes of a u8 label map with L (1..16) labels: a 5-Tuple i32 (minx, miny, maxx, maxy, count) per label, init (W, H, -1, -1, 0), updated over RDom(0, W, 0, H).where(label == l); outputs [5, L] i32 via hl.mux over the component and the area fraction f32 [L]",
      {'W': (1, 1024), 'H': (1, 768), 'L': (1, 16)},
      outs=lambda v: [(I32, [5, v['L']]), (F32, [v['L']])],
      data=lambda v, r: [_labels(v, r)], tol=1e-6, target='A')
def bboxlab(S, E):
    lab = hl.ImageParam(U8, 2, "lab")
    l, c = V("l", "c")
    bb = F("bl_box"); bb[l] = (hl.Expr(S['W']), hl.Expr(S['H']), hl.i32(-1), hl.i32(-1), hl.i32(0))
    r = RD((0, S['W']), (0, S['H'])); r.where(hl.i32(lab[r.x, r.y]) == l)
    bb[l] = (hl.min(bb[l][0], r.x), hl.min(bb[l][1], r.y), hl.max(bb[l][2], r.x), hl.max(bb[l][3], r.y), bb[l][4] + 1)
    o = F("bl_out"); o[c, l] = hl.mux(c, [bb[l][0], bb[l][1], bb[l][2], bb[l][3], bb[l][4]])
    fr = F("bl_frac"); fr[l] = hl.f32(bb[l][4]) / hl.f32(S['W'] * S['H'])
    est_in(lab, E['W'], E['H']); est_out(o, [c, l], 5, E['L']); est_out(fr, [l], E['L'])
    return [o, fr], [lab]


@spec("np_interp_knots_searchsorted_count_reduction", "numpy.interp port: per pixel the segment index found by searchsorted written as a count reduction sum over RDom(0, NK) of (knot[r] <= v) (NK ranged 2..64 sorted knot buffer), then clamped lerp between (xk, yk) pairs; second output the i32 index",
      {'W': (1, 1024), 'H': (1, 768), 'NK': (2, 64)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (I32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])),
                         fa(np.concatenate([[0.0], np.sort(r.random(v['NK'] - 2)), [1.0]]).astype(np.float32)),
                         runif(r, (v['NK'],), -1.0, 1.0)], tol=1e-5, target='B')
def npinterp(S, E):
    im = hl.ImageParam(F32, 2, "im"); xk = hl.ImageParam(F32, 1, "xk"); yk = hl.ImageParam(F32, 1, "yk")
    x, y = V("x", "y")
    NK = S['NK']
    r = RD((0, NK), name="rk")
    v = im[x, y]
    cnt = F("ni_idx"); cnt[x, y] = hl.sum(hl.select(xk[r.x] <= v, 1, 0))
    i1 = hl.clamp(cnt[x, y], 1, NK - 1); i0 = i1 - 1
    tt = hl.clamp((v - xk[i0]) / hl.max(xk[i1] - xk[i0], 1e-12), 0.0, 1.0)
    o = F("ni_out"); o[x, y] = yk[i0] + tt * (yk[i1] - yk[i0])
    est_in(im, E['W'], E['H']); est_in(xk, E['NK']); est_in(yk, E['NK'])
    est_out(o, [x, y], E['W'], E['H']); est_out(cnt, [x, y], E['W'], E['H'])
    return [o, cnt], [im, xk, yk]


@spec("morton_zorder_bit_deinterleave_gather_u32", "Z-order (Morton) linearisation of a 2^LG x 2^LG u32 image (LG 1..10; extents are Param shifts 1 << LG): zlin[i] = img[compact1by1(i), compact1by1(i >> 1)] with the bit tricks in u32 (indices clamped), and the round trip back[x, y] = zlin[interleave(x, y)] ^ img[x, y] (all zero)",
      {'LG': (1, 10)},
      outs=lambda v: [(U32, [1 << (2 * v['LG'])]), (U32, [1 << v['LG'], 1 << v['LG']])],
      data=lambda v, r: [randint(r, (1 << v['LG'], 1 << v['LG']), 0, 2 ** 32 - 1, np.uint32)], target='A')
def morton(S, E):
    img = hl.ImageParam(U32, 2, "img")
    i, x, y = V("i", "x", "y")
    side = shl1(S['LG'])

    def compact(v):
        v = v & 0x55555555
        v = (v | (v >> 1)) & 0x33333333
        v = (v | (v >> 2)) & 0x0F0F0F0F
        v = (v | (v >> 4)) & 0x00FF00FF
        return (v | (v >> 8)) & 0x0000FFFF

    def part(v):
        v = v & 0x0000FFFF
        v = (v | (v << 8)) & 0x00FF00FF
        v = (v | (v << 4)) & 0x0F0F0F0F
        v = (v | (v << 2)) & 0x33333333
        return (v | (v << 1)) & 0x55555555
    ui = hl.u32(i)
    zl = F("mo_zlin"); zl[i] = img[hl.clamp(hl.i32(compact(ui)), 0, side - 1), hl.clamp(hl.i32(compact(ui >> 1)), 0, side - 1)]
    zi = hl.i32(part(hl.u32(x)) | (part(hl.u32(y)) << 1))
    bk = F("mo_back"); bk[x, y] = zl[hl.clamp(zi, 0, side * side - 1)] ^ img[x, y]
    es = shl1(E['LG'])
    est_in(img, es, es); est_out(zl, [i], es * es); est_out(bk, [x, y], es, es)
    return [zl, bk], [img]


# ======================================= ML ops ================================================================

@spec("adaptive_avg_pool2d_out_param_variable_windows", "PyTorch AdaptiveAvgPool2d to a run-time output size OW x OH (1..32) on planar [W, H, C]: window [floor(i W / OW), ceil((i+1) W / OW)) per output index, RDom over the largest window ((W + OW - 1) / OW + 1, a Param expression) with .where on the pure vars' window end, clamped reads, divided by the true count",
      {'W': (1, 512), 'H': (1, 384), 'OW': (1, 32), 'OH': (1, 32), 'C': (1, 16)},
      outs=lambda v: [(F32, [v['OW'], v['OH'], v['C']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], v['C']))], tol=1e-5, target='A')
def adapool(S, E):
    im = hl.ImageParam(F32, 3, "im")
    i, j, c = V("i", "j", "c")
    W, H, OW, OH = S['W'], S['H'], S['OW'], S['OH']
    sx = (i * W) / OW; ex = ((i + 1) * W + OW - 1) / OW
    sy = (j * H) / OH; ey = ((j + 1) * H + OH - 1) / OH
    r = RD((0, D(W + OW - 1, OW) + 1), (0, D(H + OH - 1, OH) + 1))
    r.where((sx + r.x < ex) & (sy + r.y < ey))
    sm = F("ap_sum"); sm[i, j, c] = 0.0
    sm[i, j, c] += im[hl.min(sx + r.x, W - 1), hl.min(sy + r.y, H - 1), c]
    o = F("ap_out"); o[i, j, c] = sm[i, j, c] / hl.f32((ex - sx) * (ey - sy))
    est_in(im, E['W'], E['H'], E['C']); est_out(o, [i, j, c], E['OW'], E['OH'], E['C'])
    return [o], [im]


@spec("conv_transpose_k4_stride_param_divmod_select", "PyTorch ConvTranspose2d(16, 16, kernel 4, stride S (1..3 run-time), padding 1) as a gather: out[x, y, co] = b[co] + hl.sum over RDom(4, 4, 16) of select((x+1-kx) % S == 0 and (y+1-ky) % S == 0, in_ext[(x+1-kx)/S, (y+1-ky)/S, ci], 0) * w[kx, ky, ci, co]; output size (W-1) S + 2",
      {'W': (1, 48), 'H': (1, 48), 'S': (1, 3)},
      outs=lambda v: [(F32, [(v['W'] - 1) * v['S'] + 2, (v['H'] - 1) * v['S'] + 2, 16])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 16)), runif(r, (4, 4, 16, 16), -0.25, 0.25), runif(r, (16,), -0.1, 0.1)],
      tol=1e-4, target='B')
def convt(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w"); b = hl.ImageParam(F32, 1, "b")
    x, y, co = V("x", "y", "co")
    Sd = S['S']
    ie = BF.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H']), (0, 16)])
    r = RD((0, 4), (0, 4), (0, 16))
    tx = x + 1 - r.x; ty = y + 1 - r.y
    ok = ((tx % Sd) == 0) & ((ty % Sd) == 0)
    o = F("ct_out"); o[x, y, co] = b[co] + hl.sum(hl.select(ok, ie[tx / Sd, ty / Sd, r.z], 0.0) * w[r.x, r.y, r.z, co])
    est_in(inp, E['W'], E['H'], 16); est_in(w, 4, 4, 16, 16); est_in(b, 16)
    est_out(o, [x, y, co], (E['W'] - 1) * E['S'] + 2, (E['H'] - 1) * E['S'] + 2, 16)
    return [o], [inp, w, b]


@spec("conv3x3_bn_folded_weights_func_relu6_nchw", "inference conv + BatchNorm folded the way deployment tools do it: scale[co] = gamma / sqrt(var + eps), folded weights as a 4-D Func wf = w * scale, folded bias Func; then NCHW [x, y, c, n] 3x3 zero-pad conv (16 -> 32 channels) as an update over RDom(ci, ky, kx) initialised with the folded bias, ReLU6 clamp",
      {'W': (1, 128), 'H': (1, 128), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['W'], v['H'], 32, v['N']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 16, v['N'])), runif(r, (3, 3, 16, 32), -0.2, 0.2), runif(r, (32,), -0.1, 0.1),
                         runif(r, (32,), 0.5, 1.5), runif(r, (32,), -0.2, 0.2), runif(r, (32,), -0.2, 0.2), runif(r, (32,), 0.5, 2.0)],
      tol=1e-4, target='A')
def bnfold(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w"); bc = hl.ImageParam(F32, 1, "bconv")
    gm = hl.ImageParam(F32, 1, "gamma"); bt = hl.ImageParam(F32, 1, "beta"); mu = hl.ImageParam(F32, 1, "mean"); vr = hl.ImageParam(F32, 1, "var")
    x, y, co, n, kx, ky, ci = V("x", "y", "co", "n", "kx", "ky", "ci")
    sc = F("bf_scale"); sc[co] = gm[co] / hl.sqrt(vr[co] + 1e-5)
    wf = F("bf_w"); wf[kx, ky, ci, co] = w[kx, ky, ci, co] * sc[co]
    bf = F("bf_b"); bf[co] = (bc[co] - mu[co]) * sc[co] + bt[co]
    ie = BF.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H']), (0, 16), (0, S['N'])])
    r = RD((0, 16), (0, 3), (0, 3))
    acc = F("bf_acc"); acc[x, y, co, n] = bf[co]
    acc[x, y, co, n] += wf[r.y, r.z, r.x, co] * ie[x + r.y - 1, y + r.z - 1, r.x, n]
    o = F("bf_out"); o[x, y, co, n] = hl.clamp(acc[x, y, co, n], 0.0, 6.0)
    est_in(inp, E['W'], E['H'], 16, E['N']); est_in(w, 3, 3, 16, 32)
    for p_ in (bc, gm, bt, mu, vr):
        est_in(p_, 32)
    est_out(o, [x, y, co, n], E['W'], E['H'], 32, E['N'])
    return [o], [inp, w, bc, gm, bt, mu, vr]


def _boxes(v, r):
    n = v['N']
    x0 = r.integers(0, 400, n); y0 = r.integers(0, 400, n)
    w = r.integers(1, 80, n); h = r.integers(1, 80, n)
    return fa(np.stack([x0, y0, x0 + w, y0 + h]).astype(np.float32))


@spec("matrix_nms_iou_where_score_order_keep_u8", "greedy-free 'matrix NMS' of N boxes [4, N] (integer-valued float corners, so IoU is exact): IoU Func [j, i], suppression of box i = max over RDom(0, N).where(score[j] > score[i] or (tie and j < i)) of (IoU > TH / 10) as an update from 0, plus the max IoU against higher-ranked boxes; outputs keep u8 [N] and max IoU f32 [N]; scores quantised to 1/20 (ties)",
      {'N': (1, 1024), 'TH': (1, 9)},
      outs=lambda v: [(U8, [v['N']]), (F32, [v['N']])],
      data=lambda v, r: [_boxes(v, r), fa((r.integers(0, 20, v['N']) / 20.0).astype(np.float32))], tol=0, target='B')
def matnms(S, E):
    bx = hl.ImageParam(F32, 2, "boxes"); sc = hl.ImageParam(F32, 1, "scores")
    i, j = V("i", "j")
    area = F("mn_area"); area[i] = (bx[2, i] - bx[0, i]) * (bx[3, i] - bx[1, i])
    iw = hl.max(hl.min(bx[2, j], bx[2, i]) - hl.max(bx[0, j], bx[0, i]), 0.0)
    ih = hl.max(hl.min(bx[3, j], bx[3, i]) - hl.max(bx[1, j], bx[1, i]), 0.0)
    iou = F("mn_iou"); inter = iw * ih
    iou[j, i] = inter / (area[i] + area[j] - inter)
    r = RD((0, S['N']), name="rj"); r.where((sc[r.x] > sc[i]) | ((sc[r.x] == sc[i]) & (r.x < i)))
    sup = F("mn_sup"); sup[i] = 0
    sup[i] = hl.max(sup[i], hl.select(iou[r.x, i] > fE(S['TH']) * 0.1, 1, 0))
    mi = F("mn_maxiou"); mi[i] = 0.0
    mi[i] = hl.max(mi[i], iou[r.x, i])
    keep = F("mn_keep"); keep[i] = hl.u8(1 - sup[i])
    est_in(bx, 4, E['N']); est_in(sc, E['N']); est_out(keep, [i], E['N']); est_out(mi, [i], E['N'])
    return [keep, mi], [bx, sc]


@spec("conv3d_video_5d_xytcn_k3_zero_pad", "3-D convolution over video, 5-D tensors [x, y, t, c, n] (PyTorch Conv3d on NCTHW reversed): 3x3x3 kernel, 8 -> 8 channels, zero padding by constant_exterior on all 5 dims, inline hl.sum over a 4-D RDom (kx, ky, kt, ci) plus bias",
      {'W': (1, 48), 'H': (1, 48), 'T': (1, 8), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['T'], 8, v['N']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['T'], 8, v['N'])), runif(r, (3, 3, 3, 8, 8), -0.2, 0.2), runif(r, (8,), -0.1, 0.1)],
      tol=1e-4, target='B')
def conv3d(S, E):
    inp = hl.ImageParam(F32, 5, "inp"); w = hl.ImageParam(F32, 5, "w"); b = hl.ImageParam(F32, 1, "b")
    x, y, t, co, n = V("x", "y", "t", "co", "n")
    ie = BF.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H']), (0, S['T']), (0, 8), (0, S['N'])])
    r = RD((0, 3), (0, 3), (0, 3), (0, 8))
    o = F("c3_out")
    o[x, y, t, co, n] = b[co] + hl.sum(w[r.x, r.y, r.z, r.w, co] * ie[x + r.x - 1, y + r.y - 1, t + r.z - 1, r.w, n])
    est_in(inp, E['W'], E['H'], E['T'], 8, E['N']); est_in(w, 3, 3, 3, 8, 8); est_in(b, 8)
    est_out(o, [x, y, t, co, n], E['W'], E['H'], E['T'], 8, E['N'])
    return [o], [inp, w, b]


@spec("space_to_depth2_then_1x1_conv_cxy_u8_in", "YOLO-style focus / PixelUnshuffle(2): interleaved-order u8 RGB [3, 2W, 2H] normalised to f32 and rearranged to 12 channels s2d[cp, x, y] = in[cp / 4, 2x + cp % 2, 2y + (cp / 2) % 2] (div/mod on the channel var), then a 1x1 conv 12 -> 32 as an inline hl.sum over cp (w[cp, co] cp innermost) + bias, ReLU; channels innermost output [co, x, y]",
      {'W': (1, 256), 'H': (1, 192)},
      outs=lambda v: [(F32, [32, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, 2 * v['W'], 2 * v['H']), 0, 255, np.uint8), runif(r, (12, 32), -0.5, 0.5), runif(r, (32,), -0.1, 0.1)],
      tol=1e-5, target='A')
def s2d(S, E):
    inp = hl.ImageParam(U8, 3, "inp"); w = hl.ImageParam(F32, 2, "w"); b = hl.ImageParam(F32, 1, "b")
    cp, x, y, co = V("cp", "x", "y", "co")
    sd = F("sd_s2d"); sd[cp, x, y] = hl.f32(inp[cp / 4, 2 * x + cp % 2, 2 * y + (cp / 2) % 2]) / 255.0 - 0.5
    rc = RD((0, 12), name="rc")
    o = F("sd_out"); o[co, x, y] = hl.max(b[co] + hl.sum(w[rc.x, co] * sd[rc.x, x, y]), 0.0)
    est_in(inp, 3, 2 * E['W'], 2 * E['H']); est_in(w, 12, 32); est_in(b, 32); est_out(o, [co, x, y], 32, E['W'], E['H'])
    return [o], [inp, w, b]


@spec("gemm_transa_param_select_alpha_beta_cin", "BLAS-style sgemm with a run-time transpose flag TA (0..1): op(A)[k, m] = select(TA == 1, A[m, k], A[k, m]) on one square buffer of side max(K, M); C = alpha * (acc update over RDom(0, K)) + beta * Cin (alpha, beta unranged float Params), N = 256",
      {'M': (1, 256), 'K': (1, 256), 'TA': (0, 1)},
      outs=lambda v: [(F32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (max(v['K'], v['M']), max(v['K'], v['M']))), rimg(r, (256, v['K'])), rimg(r, (256, v['M']))],
      tol=1e-4, target='B')
def gemmta(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); Cin = hl.ImageParam(F32, 2, "Cin")
    alpha = hl.Param(F32, "alpha", 1.5); beta = hl.Param(F32, "beta", 0.5)
    n, m = V("n", "m")
    r = RD((0, S['K']), name="rk")
    opa = hl.select(S['TA'] == 1, A[m, r.x], A[r.x, m])
    acc = F("gt_acc"); acc[n, m] = 0.0
    acc[n, m] += opa * B[n, r.x]
    o = F("gt_out"); o[n, m] = alpha * acc[n, m] + beta * Cin[n, m]
    KM = MX(E['K'], E['M'])
    est_in(A, KM, KM); est_in(B, 256, E['K']); est_in(Cin, 256, E['M']); est_out(o, [n, m], 256, E['M'])
    return [o], [A, B, Cin]


# ======================================= DP recurrences as RDom-only scans =====================================

@spec("ctc_forward_alpha_logspace_rdom_s_t_batch", "CTC loss forward pass per batch item b (pure var): log-softmax over C = 32 classes (hl.maximum, hl.sum), alpha[s, t, b] over the extended label sequence s < 2U+1 (blank-interleaved, labels buffer [U, B]) with -1e30 init, t = 0 set in the pure def, then a scan over RDom(s, 1..T-1) (s as an RVar, so the s-1 / s-2 reads are in order) with a 3-way log-sum-exp and the repeat rule; outputs loss[b] (0 when infeasible) and a feasibility flag i32",
      {'T': (1, 200), 'U': (1, 32), 'B': (1, 8)},
      outs=lambda v: [(F32, [v['B']]), (I32, [v['B']])],
      data=lambda v, r: [rimg(r, (32, v['T'], v['B'])), randint(r, (v['U'], v['B']), 1, 31, np.int32)], tol=1e-5, target='A')
def ctc(S, E):
    lg = hl.ImageParam(F32, 3, "logits"); lab = hl.ImageParam(I32, 2, "labels")
    s, t, b = V("s", "t", "b")
    T, U = S['T'], S['U']
    NEG = hl.f32(-1e30)
    rc = RD((0, 32), name="rc")
    mx = F("ctc_max"); mx[t, b] = hl.maximum(lg[rc.x, t, b])
    lz = F("ctc_lz"); lz[t, b] = mx[t, b] + hl.log(hl.sum(hl.exp(lg[rc.x, t, b] - mx[t, b])))
    ext = F("ctc_ext"); ext[s, b] = hl.select(s % 2 == 0, 0, lab[hl.clamp((s - 1) / 2, 0, U - 1), b])
    lp = lambda cc, tt: lg[hl.clamp(cc, 0, 31), tt, b] - lz[tt, b]

    def lse2(a, c):
        m_ = hl.max(a, c)
        return m_ + hl.log(1.0 + hl.exp(hl.min(a, c) - m_))
    al = F("ctc_alpha")
    al[s, t, b] = hl.select(t == 0, hl.select(s == 0, lp(0, 0), s == 1, lp(ext[1, b], 0), NEG), NEG)
    r = RD((0, 2 * U + 1), (1, T - 1), name="ra")
    ss, tt = r.x, r.y
    a0 = al[ss, tt - 1, b]
    a1 = hl.select(ss >= 1, al[hl.max(ss - 1, 0), tt - 1, b], NEG)
    skip = (ss >= 2) & (ext[ss, b] != 0) & (ext[ss, b] != ext[hl.max(ss - 2, 0), b])
    a2 = hl.select(skip, al[hl.max(ss - 2, 0), tt - 1, b], NEG)
    al[ss, tt, b] = lse2(lse2(a0, a1), a2) + lp(ext[ss, b], tt)
    fin = lse2(al[2 * U, T - 1, b], al[2 * U - 1, T - 1, b])
    feas = F("ctc_feasible"); feas[b] = hl.select(fin > hl.f32(-1e29), 1, 0)
    loss = F("ctc_loss"); loss[b] = hl.select(fin > hl.f32(-1e29), -fin, 0.0)
    est_in(lg, 32, E['T'], E['B']); est_in(lab, E['U'], E['B']); est_out(loss, [b], E['B']); est_out(feas, [b], E['B'])
    return [loss, feas], [lg, lab]


@spec("viterbi_tuple_argmax_rdom_s_s_t_backtrack_scan", "batched Viterbi decoding: delta 2-Tuple (score f32, back-pointer i32) [s, t, b], t = 0 from log prior + emission in the pure def, then ONE update over RDom(s', s, 1..T-1) (no pure var but the batch b) with a strict > Tuple max; final state by hl.argmax, then a backward scan path[T-2-r, b] = bp[path[T-1-r, b], T-1-r, b] (data-dependent read of the Tuple Func); outputs path i32 [T, B] and best score f32 [B]",
      {'NS': (2, 32), 'T': (1, 300), 'B': (1, 16)},
      outs=lambda v: [(I32, [v['T'], v['B']]), (F32, [v['B']])],
      data=lambda v, r: [fa(np.log(r.dirichlet(np.ones(v['NS']), v['NS']).T).astype(np.float32)),
                         fa((np.round(r.standard_normal((v['NS'], v['T'], v['B'])) * 8) / 8).astype(np.float32)),
                         fa(np.log(np.full(v['NS'], 1.0 / v['NS'])).astype(np.float32))], tol=1e-5, target='B')
def viterbi(S, E):
    lA = hl.ImageParam(F32, 2, "logA"); lB = hl.ImageParam(F32, 3, "logB"); lpi = hl.ImageParam(F32, 1, "logpi")
    s, t, b = V("s", "t", "b")
    NS, T = S['NS'], S['T']
    dt = F("vt_delta")
    dt[s, t, b] = (hl.select(t == 0, lpi[s] + lB[s, 0, b], hl.f32(-1e30)), hl.i32(0))
    r = RD((0, NS), (0, NS), (1, T - 1), name="rv")
    cand = dt[r.x, r.z - 1, b][0] + lA[r.x, r.y] + lB[r.y, r.z, b]
    vv, bp = dt[r.y, r.z, b][0], dt[r.y, r.z, b][1]
    dt[r.y, r.z, b] = (hl.select(cand > vv, cand, vv), hl.select(cand > vv, r.x, bp))
    rs = RD((0, NS), name="rs")
    am = hl.argmax(dt[rs.x, T - 1, b][0])
    last = F("vt_last"); last[b] = am[0]
    best = F("vt_best"); best[b] = am[1]
    path = F("vt_path"); path[t, b] = last[b]
    rb = RD((0, T - 1), name="rb")
    tt = T - 2 - rb.x
    path[tt, b] = dt[hl.clamp(path[tt + 1, b], 0, NS - 1), tt + 1, b][1]
    est_in(lA, E['NS'], E['NS']); est_in(lB, E['NS'], E['T'], E['B']); est_in(lpi, E['NS'])
    est_out(path, [t, b], E['T'], E['B']); est_out(best, [b], E['B'])
    return [path, best], [lA, lB, lpi]


# ======================================= follow-ups (#33-34), added after the first pass ========================

@spec("scatter_decay_hist_nonassoc_no_pure_var", "follow-up: an ORDER-DEPENDENT scatter with no pure loop: h = 0; over RDom(0, N) (N up to 1e6) h[bin] = 0.5 * h[bin] + w[r] with bin = clamp(x[r] >> 4) of u8 data (non-associative, so an rfactor into parallel chunks would change the result); 16 bins, plus a 0-D sum of h",
      {'N': (1, 1000000)},
      outs=lambda v: [(F32, [16]), (F32, [])],
      data=lambda v, r: [randint(r, (v['N'],), 0, 255, np.uint8), runif(r, (v['N'],))], tol=1e-5, target='B')
def decayhist(S, E):
    x = hl.ImageParam(U8, 1, "x"); w = hl.ImageParam(F32, 1, "w")
    b = hl.Var("b")
    h = F("dh_hist"); h[b] = 0.0
    r = RD((0, S['N']), name="rn")
    bn = hl.clamp(hl.i32(x[r.x]) >> 4, 0, 15)
    h[bn] = 0.5 * h[bn] + w[r.x]
    rb = RD((0, 16), name="rb")
    tot = F("dh_total"); tot[()] = 0.0; tot[()] += h[rb.x]
    est_in(x, E['N']); est_in(w, E['N']); est_out(h, [b], 16)
    return [h, tot], [x, w]


@spec("embed_gather_constant_exterior_then_proj", "follow-up on round 11's fixed crash class: out[n, t] = sum_k W[n, k] * ce[k, ids[t]] where ce = constant_exterior(E) of an embedding table E [128, V] (V run-time 1..5000) and ids an i32 buffer with some ids out of range (negative or >= V, which read 0 through the boundary); N = 128, T tokens run-time",
      {'T': (1, 512), 'V': (1, 5000)},
      outs=lambda v: [(F32, [128, v['T']])],
      data=lambda v, r: [rimg(r, (128, v['V'])), randint(r, (v['T'],), -3, v['V'] + 2, np.int32), runif(r, (128, 128), -0.1, 0.1)],
      tol=1e-4, target='A')
def embproj(S, E):
    Et = hl.ImageParam(F32, 2, "E"); ids = hl.ImageParam(I32, 1, "ids"); W = hl.ImageParam(F32, 2, "W")
    n, t = V("n", "t")
    ce = BF.constant_exterior(Et, 0.0, [(0, 128), (0, S['V'])])
    rk = RD((0, 128), name="rk")
    o = F("ep_out"); o[n, t] = 0.0
    o[n, t] += W[n, rk.x] * ce[rk.x, ids[t]]
    est_in(Et, 128, E['V']); est_in(ids, E['T']); est_in(W, 128, 128); est_out(o, [n, t], 128, E['T'])
    return [o], [Et, ids, W]
