"""Red-team round 9 pipelines for Diet: names and styles not used by rounds 1-8 (audio/DSP, image, ML, scientific,
odd Halide usage). Same spec format as ../redteam3_fixes_2026-11-30/pipes.py and ../redteam8_2026-12-01/pipes8.py
(helpers imported from pipes8, not copied), plus `target`: 'A' = AVX-512 target, 'B' = AVX2 target.
S: ranged int Params (or CInt constants for Adams2019c), E: estimates (Params for Diet, ints otherwise)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec8 = importlib.util.spec_from_file_location("pipes_round8", os.path.join(_here, "..", "redteam8_2026-12-01", "pipes8.py"))
_round8 = importlib.util.module_from_spec(_spec8)
_spec8.loader.exec_module(_round8)
_round3 = _round8._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round3.V, _round3.est_in, _round3.est_out, _round3.fa, _round8.rimg, _round8.RD, _round8.TARGETS
SPECS, spec, CREATED, F = _round3.registry()
TARGETS = dict(TARGETS, Bs=TARGETS['B'] + "-strict_float")  # 'Bs': AVX2 + strict_float (Kahan needs it)

F32, F64 = hl.Float(32), hl.Float(64)
U8, U16, U32, U64 = hl.UInt(8), hl.UInt(16), hl.UInt(32), hl.UInt(64)
I8, I16, I32, I64 = hl.Int(8), hl.Int(16), hl.Int(32), hl.Int(64)
BOOL = hl.Bool()
BF = hl.BoundaryConditions


def D(a, b):
    """integer floor division for ints (CInt) and Exprs alike"""
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    if isinstance(a, int):
        a = hl.Expr(a)
    return a / b


def MX(a, b):
    return max(a, b) if isinstance(a, int) and isinstance(b, int) else hl.max(a, b)


def runif(r, shape, lo=0.0, hi=1.0, dtype=np.float32):
    return fa((lo + (hi - lo) * r.random(shape)).astype(dtype))


# ======================================= audio / DSP ========================================================

@spec("biquad_cascade_2stage_scan_tc", "two biquad sections as order-dependent scans along t per channel ([t, c], t innermost): FIR part as a pure def, recursive part as an update over RDom(0,T) with select-guarded y[r-1], y[r-2]; second section consumes the first",
      {'T': (1, 2000), 'C': (1, 8)},
      outs=lambda v: [(F32, [v['T'], v['C']])],
      data=lambda v, r: [rimg(r, (v['T'], v['C'])), fa(np.array([[0.2, 0.3, 0.2, -1.2, 0.5], [0.5, -0.2, 0.1, -0.6, 0.3]], dtype=np.float32).T.copy())],
      tol=1e-4, target='B')
def biquad(S, E):
    x = hl.ImageParam(F32, 2, "x"); co = hl.ImageParam(F32, 2, "co")
    t, c = V("t", "c")
    xe = BF.constant_exterior(x, 0.0, [(0, S['T']), (0, S['C'])])
    r = RD((0, S['T']))

    def section(inp, s, nm):
        y = F(nm)
        y[t, c] = co[0, s] * inp[t, c] + co[1, s] * inp[t - 1, c] + co[2, s] * inp[t - 2, c]
        y1 = hl.select(r.x >= 1, y[hl.max(r.x - 1, 0), c], 0.0)
        y2 = hl.select(r.x >= 2, y[hl.max(r.x - 2, 0), c], 0.0)
        y[r.x, c] = y[r.x, c] - co[3, s] * y1 - co[4, s] * y2
        return y
    y1 = section(xe, 0, "bq_s1")
    y1e = F("bq_s1e"); y1e[t, c] = hl.select(t >= 0, y1[hl.max(t, 0), c], 0.0)
    y2 = section(y1e, 1, "bq_s2")
    est_in(x, E['T'], E['C']); est_in(co, 5, 2); est_out(y2, [t, c], E['T'], E['C'])
    return [y2], [x, co]


def _resample_len(v):
    return ((v['N'] - 1) * v['STEP'] >> 16) + 2


@spec("resample_linear_q16_runtime_ratio_cinner", "linear resampling by a run-time Q16 step STEP (1..200000): pos = i*STEP, x[c, pos>>16] lerp x[c, (pos>>16)+1] with frac (pos & 0xffff)/65536; interleaved-style audio [c, n] with channels innermost (C 1..4)",
      {'N': (1, 3000), 'C': (1, 4), 'STEP': (1, 200000)},
      outs=lambda v: [(F32, [v['C'], v['N']])],
      data=lambda v, r: [rimg(r, (v['C'], _resample_len(v)))], tol=1e-5, target='A')
def resamp(S, E):
    x = hl.ImageParam(F32, 2, "x")
    c, i = V("c", "i")
    pos = i * S['STEP']
    i0 = pos >> 16
    fr = hl.f32(pos & 0xffff) * (1.0 / 65536.0)
    o = F("rs_out"); o[c, i] = x[c, i0] * (1.0 - fr) + x[c, i0 + 1] * fr
    est_in(x, E['C'], ((E['N'] - 1) * E['STEP'] >> 16) + 2); est_out(o, [c, i], E['C'], E['N'])
    return [o], [x]


@spec("stft_frames_energy_zcr_hop_param", "STFT-like framing with run-time frame length N and hop HOP: fr[n,f] = x[f*HOP+n]*win[n]; outputs energy[f] = sum_n fr^2 (f32) and the zero-crossing count zcr[f] over RDom(1,N-1) (i32)",
      {'N': (1, 256), 'HOP': (1, 128), 'NF': (1, 300)},
      outs=lambda v: [(F32, [v['NF']]), (I32, [v['NF']])],
      data=lambda v, r: [rimg(r, ((v['NF'] - 1) * v['HOP'] + v['N'],)), runif(r, (v['N'],), 0.1, 1.0)], tol=1e-4, target='B')
def stft(S, E):
    x = hl.ImageParam(F32, 1, "x"); w = hl.ImageParam(F32, 1, "win")
    n, f = V("n", "f")
    fr = F("st_fr"); fr[n, f] = x[f * S['HOP'] + n] * w[n]
    r = RD((0, S['N']))
    en = F("st_energy"); en[f] = 0.0; en[f] += fr[r, f] * fr[r, f]
    r1 = RD((1, S['N'] - 1), name="r1")
    z = F("st_zcr"); z[f] = 0
    z[f] += hl.select((fr[r1, f] >= 0.0) != (fr[r1 - 1, f] >= 0.0), 1, 0)
    est_in(x, (E['NF'] - 1) * E['HOP'] + E['N']); est_in(w, E['N']); est_out(en, [f], E['NF']); est_out(z, [f], E['NF'])
    return [en, z], [x, w]


@spec("overlap_add_clamped_scatter", "overlap-add synthesis by a scatter update with a clamped computed index: y = 0; y[clamp(r.x + r.y*HOP, 0, LEN-1)] += fr[r.x, r.y] * win[r.x] over RDom(N, NF), LEN = (NF-1)*HOP + N",
      {'N': (1, 128), 'HOP': (1, 64), 'NF': (1, 100)},
      outs=lambda v: [(F32, [(v['NF'] - 1) * v['HOP'] + v['N']])],
      data=lambda v, r: [rimg(r, (v['N'], v['NF'])), runif(r, (v['N'],), 0.1, 1.0)], tol=1e-4, target='A')
def ola(S, E):
    fr = hl.ImageParam(F32, 2, "fr"); w = hl.ImageParam(F32, 1, "win")
    t, = V("t")
    LEN = (S['NF'] - 1) * S['HOP'] + S['N']
    r = RD((0, S['N']), (0, S['NF']))
    y = F("ola_y"); y[t] = 0.0
    y[hl.clamp(r.x + r.y * S['HOP'], 0, LEN - 1)] += fr[r.x, r.y] * w[r.x]
    est_in(fr, E['N'], E['NF']); est_in(w, E['N']); est_out(y, [t], (E['NF'] - 1) * E['HOP'] + E['N'])
    return [y], [fr, w]


@spec("mulaw_encode_decode_err_i64", "G.711-style mu-law: i16 [N,C] -> u8 code (bias 132, exponent by a 7-way select chain, mantissa shift by a data-dependent amount), decode by a 256-entry i16 LUT gather; outputs code u8, decoded i16 and per-channel i64 squared error (3 outputs)",
      {'N': (1, 4000), 'C': (1, 6)},
      outs=lambda v: [(U8, [v['N'], v['C']]), (I16, [v['N'], v['C']]), (I64, [v['C']])],
      data=lambda v, r: [rimg(r, (v['N'], v['C']), np.int16), rimg(r, (256,), np.int16)], target='B')
def mulaw(S, E):
    x = hl.ImageParam(I16, 2, "x"); lut = hl.ImageParam(I16, 1, "dec")
    n, c = V("n", "c")
    xi = hl.i32(x[n, c])
    sign = hl.select(xi < 0, 0x80, 0)
    mag = hl.min(hl.abs(xi), 32635) + 132
    ex = hl.i32(0)
    for k in range(1, 8):
        ex = ex + hl.select(hl.i32(mag) >= (128 << k), 1, 0)
    mant = (hl.i32(mag) >> (ex + 3)) & 0xF
    code = F("mu_code"); code[n, c] = hl.u8(255 - (sign | (ex << 4) | mant))
    dec = F("mu_dec"); dec[n, c] = lut[hl.i32(code[n, c])]
    r = RD((0, S['N']))
    err = F("mu_err"); err[c] = hl.i64(0)
    d = hl.i64(dec[r, c]) - hl.i64(x[r, c])
    err[c] += d * d
    est_in(x, E['N'], E['C']); est_in(lut, 256)
    est_out(code, [n, c], E['N'], E['C']); est_out(dec, [n, c], E['N'], E['C']); est_out(err, [c], E['C'])
    return [code, dec, err], [x, lut]


@spec("envelope_follower_attack_release_cinner", "nonlinear order-dependent scan per channel, channels innermost [c, t]: e[c,0] = |x|; e[c,r] = e[c,r-1] + select(|x| > e[c,r-1], 0.3, 0.01) * (|x| - e[c,r-1]) over RDom(1,T-1); second output gain g = x / max(e, 1e-3)",
      {'C': (1, 16), 'T': (1, 3000)},
      outs=lambda v: [(F32, [v['C'], v['T']]), (F32, [v['C'], v['T']])],
      data=lambda v, r: [rimg(r, (v['C'], v['T']))], tol=1e-4, target='A')
def envf(S, E):
    x = hl.ImageParam(F32, 2, "x")
    c, t = V("c", "t")
    e = F("ef_env"); e[c, t] = hl.abs(x[c, t])
    r = RD((1, S['T'] - 1))
    a = hl.abs(x[c, r]); p = e[c, r - 1]
    e[c, r] = p + hl.select(a > p, 0.3, 0.01) * (a - p)
    g = F("ef_gain"); g[c, t] = x[c, t] / hl.max(e[c, t], 1e-3)
    est_in(x, E['C'], E['T']); est_out(e, [c, t], E['C'], E['T']); est_out(g, [c, t], E['C'], E['T'])
    return [e, g], [x]


@spec("polyphase_upsample_L_param", "polyphase interpolation by a run-time factor L (1..4) with TP (1..8) taps per phase: y[n] = sum_k h[k*L + n%L] * x[n/L - k] (zero-padded x), output length N*L",
      {'N': (1, 1500), 'L': (1, 4), 'TP': (1, 8)},
      outs=lambda v: [(F32, [v['N'] * v['L']])],
      data=lambda v, r: [rimg(r, (v['N'],)), rimg(r, (v['TP'] * v['L'],))], tol=1e-4, target='B')
def polyup(S, E):
    x = hl.ImageParam(F32, 1, "x"); h = hl.ImageParam(F32, 1, "h")
    n, = V("n")
    xe = BF.constant_exterior(x, 0.0, [(0, S['N'])])
    r = RD((0, S['TP']))
    y = F("pu_y"); y[n] = 0.0
    y[n] += h[r * S['L'] + n % S['L']] * xe[n / S['L'] - r]
    est_in(x, E['N']); est_in(h, E['TP'] * E['L']); est_out(y, [n], E['N'] * E['L'])
    return [y], [x, h]


# ======================================= image =============================================================

@spec("morph_gradient_sep_radius_u8", "morphological gradient with a run-time radius R (0..5): separable dilate (max) and erode (min) by inline hl.maximum/minimum over RDom(-R, 2R+1), repeat_edge; outputs grad = dil - ero and dil (u8)",
      {'W': (1, 800), 'H': (1, 600), 'R': (0, 5)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)], target='A')
def morphgrad(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    r = RD((-S['R'], 2 * S['R'] + 1))
    dx = F("mg_dx"); dx[x, y] = hl.maximum(e[x + r, y])
    ex = F("mg_ex"); ex[x, y] = hl.minimum(e[x + r, y])
    dl = F("mg_dil"); dl[x, y] = hl.maximum(dx[x, y + r])
    er = F("mg_ero"); er[x, y] = hl.minimum(ex[x, y + r])
    g = F("mg_grad"); g[x, y] = dl[x, y] - er[x, y]
    est_in(im, E['W'], E['H']); est_out(g, [x, y], E['W'], E['H']); est_out(dl, [x, y], E['W'], E['H'])
    return [g, dl], [im]


@spec("canny_nms_double_threshold_select", "Canny-like: Sobel gx, gy in i16 (repeat_edge), |gx|+|gy| u16, direction by integer select (tan 22.5 ~ 5/12), non-maximum suppression by direction-selected neighbour pair, double threshold TH/2TH -> u8 0/128/255",
      {'W': (1, 700), 'H': (1, 500), 'TH': (1, 400)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)], target='B')
def canny(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    p = F("cn_p"); p[x, y] = hl.i16(e[x, y])
    gx = F("cn_gx"); gx[x, y] = (p[x + 1, y - 1] + 2 * p[x + 1, y] + p[x + 1, y + 1]) - (p[x - 1, y - 1] + 2 * p[x - 1, y] + p[x - 1, y + 1])
    gy = F("cn_gy"); gy[x, y] = (p[x - 1, y + 1] + 2 * p[x, y + 1] + p[x + 1, y + 1]) - (p[x - 1, y - 1] + 2 * p[x, y - 1] + p[x + 1, y - 1])
    mag = F("cn_mag"); mag[x, y] = hl.u16(hl.abs(gx[x, y])) + hl.u16(hl.abs(gy[x, y]))
    ax = hl.i32(hl.abs(gx[x, y])); ay = hl.i32(hl.abs(gy[x, y]))
    same = (gx[x, y] > 0) == (gy[x, y] > 0)
    horiz = ay * 12 < ax * 5
    vert = ay * 5 > ax * 12
    n1 = hl.select(horiz, mag[x - 1, y], vert, mag[x, y - 1], same, mag[x - 1, y - 1], mag[x + 1, y - 1])
    n2 = hl.select(horiz, mag[x + 1, y], vert, mag[x, y + 1], same, mag[x + 1, y + 1], mag[x - 1, y + 1])
    m = mag[x, y]
    keep = (m >= n1) & (m > n2)
    mi = hl.i32(m)
    o = F("cn_out"); o[x, y] = hl.u8(hl.select(keep & (mi >= 2 * S['TH']), 255, keep & (mi >= S['TH']), 128, 0))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("bilateral_range_lut_radius_tuple", "bilateral filter with a run-time radius R (1..4): weight = rlut[absd(I(x+d), I(x))] * slut[dx^2+dy^2] from two input LUTs; a Tuple (num, den) update over RDom(-R..R)^2, repeat_edge, output num/den",
      {'W': (1, 640), 'H': (1, 480), 'R': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8), fa(np.exp(-np.arange(256) ** 2 / (2 * 30.0 ** 2)).astype(np.float32)),
                         fa(np.exp(-np.arange(33) / 8.0).astype(np.float32))], tol=1e-4, target='A')
def bilat(S, E):
    im = hl.ImageParam(U8, 2, "im"); rl = hl.ImageParam(F32, 1, "rlut"); sl = hl.ImageParam(F32, 1, "slut")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    r = RD((-S['R'], 2 * S['R'] + 1), (-S['R'], 2 * S['R'] + 1))
    c = e[x, y]; nb = e[x + r.x, y + r.y]
    wgt = rl[hl.i32(hl.absd(nb, c))] * sl[hl.clamp(r.x * r.x + r.y * r.y, 0, 32)]  # clamp: Halide bounds r.x*r.x as [-R*R, R*R]
    acc = F("bl_acc"); acc[x, y] = (hl.f32(0), hl.f32(0))
    acc[x, y] = (acc[x, y][0] + wgt * hl.f32(nb), acc[x, y][1] + wgt)
    o = F("bl_out"); o[x, y] = acc[x, y][0] / acc[x, y][1]
    est_in(im, E['W'], E['H']); est_in(rl, 256); est_in(sl, 33); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im, rl, sl]


@spec("unsharp_runtime_sigma_taps_u16", "unsharp mask whose Gaussian taps are computed in the pipeline from run-time Params: sigma = 0.5 + 0.25*SG, radius R; k[i] = exp(-i^2/2s^2) normalised by an hl.sum over RDom(-R,2R+1); separable blur (repeat_edge) of u16 input, out = in + 1.5*(in - blur) (f32)",
      {'W': (1, 900), 'H': (1, 600), 'SG': (1, 12), 'R': (1, 6)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16)], tol=1e-4, target='B')
def unsharp_sig(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y, i = V("x", "y", "i")
    sig = 0.5 + 0.25 * hl.f32(S['SG'])
    kr = F("us_kraw"); kr[i] = hl.exp(-hl.f32(i * i) / (2.0 * sig * sig))
    rn = RD((-S['R'], 2 * S['R'] + 1), name="rn")
    nrm = F("us_norm"); nrm[()] = hl.sum(kr[rn])
    k = F("us_k"); k[i] = kr[i] / nrm[()]
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    r = RD((-S['R'], 2 * S['R'] + 1))
    bx = F("us_bx"); bx[x, y] = hl.sum(k[r] * hl.f32(e[x + r, y]))
    r2 = RD((-S['R'], 2 * S['R'] + 1), name="r2")
    by = F("us_by"); by[x, y] = hl.sum(k[r2] * bx[x, y + r2])
    o = F("us_out"); o[x, y] = hl.f32(im[x, y]) + 1.5 * (hl.f32(im[x, y]) - by[x, y])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


def _clahe_ref_shape(v):
    return (v['NTX'] * v['TS'], v['NTY'] * v['TS'])


@spec("clahe_tile_cdf_bilinear_u8", "CLAHE-like: per-tile 64-bin histogram (scatter over RDom(TS,TS), TS a run-time tile size), clip at max(1, TS*TS/16), cdf by a scan update over bins, integer LUT per tile, per-pixel bilinear blend of the 4 nearest tiles' LUTs in exact integer arithmetic (u8 out)",
      {'NTX': (1, 12), 'NTY': (1, 10), 'TS': (2, 48)},
      outs=lambda v: [(U8, list(_clahe_ref_shape(v)))],
      data=lambda v, r: [rimg(r, _clahe_ref_shape(v), np.uint8)], target='A')
def clahe(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, b, tx, ty = V("x", "y", "b", "tx", "ty")
    TS = S['TS']
    r = RD((0, TS), (0, TS))
    hist = F("ch_hist"); hist[b, tx, ty] = 0
    hist[hl.i32(im[tx * TS + r.x, ty * TS + r.y]) >> 2, tx, ty] += 1
    clip = MX(D(TS * TS, 16), 1)
    cdf = F("ch_cdf"); cdf[b, tx, ty] = hl.min(hist[b, tx, ty], clip)
    rb = RD((1, 63), name="rb")
    cdf[rb, tx, ty] = cdf[rb, tx, ty] + cdf[rb - 1, tx, ty]
    lut = F("ch_lut"); lut[b, tx, ty] = cdf[b, tx, ty] * 255 / hl.max(cdf[63, tx, ty], 1)
    half = D(TS, 2)
    px = x - half; py = y - half
    tx0 = hl.clamp(px / TS, 0, S['NTX'] - 1); ty0 = hl.clamp(py / TS, 0, S['NTY'] - 1)
    tx1 = hl.min(tx0 + 1, S['NTX'] - 1); ty1 = hl.min(ty0 + 1, S['NTY'] - 1)
    wx = hl.clamp(px - tx0 * TS, 0, TS); wy = hl.clamp(py - ty0 * TS, 0, TS)
    bi = hl.i32(im[x, y]) >> 2
    top = lut[bi, tx0, ty0] * (TS - wx) + lut[bi, tx1, ty0] * wx
    bot = lut[bi, tx0, ty1] * (TS - wx) + lut[bi, tx1, ty1] * wx
    o = F("ch_out"); o[x, y] = hl.u8((top * (TS - wy) + bot * wy) / (TS * TS))
    est_in(im, E['NTX'] * E['TS'], E['NTY'] * E['TS']); est_out(o, [x, y], E['NTX'] * E['TS'], E['NTY'] * E['TS'])
    return [o], [im]


@spec("gamma_lut12_ordered_dither_planar", "12-bit u16 planar RGB [W,H,3] -> 16-bit gamma LUT gather (4096 entries) -> 4x4 ordered dither from an input matrix indexed by (x&3, y&3) -> u8 = min(255, (lut + d*16) >> 8)",
      {'W': (1, 1000), 'H': (1, 700)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3), np.uint16), rimg(r, (4096,), np.uint16), rimg(r, (4, 4), np.uint8, 0, 15)], target='B')
def gdither(S, E):
    im = hl.ImageParam(U16, 3, "im"); lut = hl.ImageParam(U16, 1, "lut"); bm = hl.ImageParam(U8, 2, "bayer4")
    x, y, c = V("x", "y", "c")
    g = F("gd_g"); g[x, y, c] = lut[hl.i32(im[x, y, c] & 0xFFF)]
    o = F("gd_out"); o[x, y, c] = hl.u8(hl.min(255, (hl.u32(g[x, y, c]) + hl.u32(bm[x & 3, y & 3]) * 16) >> 8))
    est_in(im, E['W'], E['H'], 3); est_in(lut, 4096); est_in(bm, 4, 4); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [im, lut, bm]


@spec("diagonal_antidiagonal_prefix_scans_i32", "two diagonal prefix scans (no pure var in the updates; Halide forbids x-1 with a pure x): d[r.x,r.y] += select(r.x>0, d[max(r.x-1,0), r.y-1], 0) and a[r.x,r.y] += select(r.x<W-1, a[min(r.x+1,W-1), r.y-1], 0) over RDom(0..W, 1..H-1) (two outputs, i32)",
      {'W': (1, 1000), 'H': (1, 700)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.int32, -1000, 1000)], target='A')
def diagscan(S, E):
    im = hl.ImageParam(I32, 2, "im")
    x, y = V("x", "y")
    r = RD((0, S['W']), (1, S['H'] - 1))
    d = F("dg_d"); d[x, y] = im[x, y]
    d[r.x, r.y] += hl.select(r.x > 0, d[hl.max(r.x - 1, 0), r.y - 1], 0)
    a = F("dg_a"); a[x, y] = im[x, y]
    a[r.x, r.y] += hl.select(r.x < S['W'] - 1, a[hl.min(r.x + 1, S['W'] - 1), r.y - 1], 0)
    est_in(im, E['W'], E['H']); est_out(d, [x, y], E['W'], E['H']); est_out(a, [x, y], E['W'], E['H'])
    return [d, a], [im]


@spec("perona_malik_3iter_clamped_each", "3 iterations of Perona-Malik anisotropic diffusion, conductance exp(-(g/K)^2) with K = 0.05*KP (KP a ranged Param), each iteration reads a repeat_edge of the previous Func (no growing halo)",
      {'W': (1, 600), 'H': (1, 500), 'KP': (1, 50)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def perona(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    K = 0.05 * hl.f32(S['KP'])
    cur = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    out = None
    for it in range(3):
        u = cur[x, y]
        acc = 0.0
        for dx, dy in ((0, -1), (0, 1), (1, 0), (-1, 0)):
            g = cur[x + dx, y + dy] - u
            acc = acc + hl.exp(-(g / K) * (g / K)) * g
        f = F("pm_it%d" % it); f[x, y] = u + 0.2 * acc
        out = f
        if it < 2:
            cur = BF.repeat_edge(f, [(0, S['W']), (0, S['H'])])
    est_in(im, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [im]


@spec("rgb_to_lab_planar_select_c", "sRGB f32 planar [W,H,3] -> linearise (select + pow 2.4) -> XYZ by a constant 3x3 -> Lab with a cube-root/linear select; the output [W,H,3] is assembled by select on the channel var c",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 3))], tol=2e-3, target='A')
def lab(S, E):
    im = hl.ImageParam(F32, 3, "im")
    x, y, c = V("x", "y", "c")
    lin = F("lab_lin")
    v = im[x, y, c]
    lin[x, y, c] = hl.select(v <= 0.04045, v / 12.92, hl.pow((v + 0.055) / 1.055, 2.4))
    M = [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    wt = [0.95047, 1.0, 1.08883]
    fxyz = []
    for k in range(3):
        t = (M[k][0] * lin[x, y, 0] + M[k][1] * lin[x, y, 1] + M[k][2] * lin[x, y, 2]) / wt[k]
        ff = F("lab_f%d" % k)
        ff[x, y] = hl.select(t > 0.008856, hl.pow(hl.max(t, 1e-6), 1.0 / 3.0), 7.787 * t + 16.0 / 116.0)
        fxyz.append(ff)
    L = 116.0 * fxyz[1][x, y] - 16.0
    a = 500.0 * (fxyz[0][x, y] - fxyz[1][x, y])
    bb = 200.0 * (fxyz[1][x, y] - fxyz[2][x, y])
    o = F("lab_out"); o[x, y, c] = hl.select(c == 0, L, c == 1, a, bb)
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [im]


@spec("heightmap_normals_tuple_4outputs", "a Tuple Func nrm = normalize(-dh/dx, -dh/dy, 2) from a repeat_edge heightmap, consumed by FOUR outputs: nx, ny, nz and a Lambert shade max(0, n.L)",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(F32, [v['W'], v['H']])] * 4,
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='B')
def normals(S, E):
    hm = hl.ImageParam(F32, 2, "hm")
    x, y = V("x", "y")
    h = BF.repeat_edge(hm, [(0, S['W']), (0, S['H'])])
    dx = h[x + 1, y] - h[x - 1, y]; dy = h[x, y + 1] - h[x, y - 1]
    inv = 1.0 / hl.sqrt(dx * dx + dy * dy + 4.0)
    n = F("hn_n"); n[x, y] = (-dx * inv, -dy * inv, 2.0 * inv)
    outs = []
    for k, nm in enumerate(("hn_nx", "hn_ny", "hn_nz")):
        f = F(nm); f[x, y] = n[x, y][k]; outs.append(f)
    sh = F("hn_shade"); sh[x, y] = hl.max(0.0, 0.3 * n[x, y][0] + 0.5 * n[x, y][1] + 0.81 * n[x, y][2])
    outs.append(sh)
    est_in(hm, E['W'], E['H'])
    for f in outs:
        est_out(f, [x, y], E['W'], E['H'])
    return outs, [hm]


# ======================================= ML ================================================================

@spec("groupnorm_groups_cpg_params_cinner", "GroupNorm with run-time G groups of CPG channels, channels innermost x[c, p, n] (C = G*CPG): mean/var per (g, n) by 2-D RDom(CPG, P) sums, normalise with c / CPG (run-time divisor), per-channel gamma/beta",
      {'G': (1, 8), 'CPG': (1, 16), 'P': (1, 256), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['G'] * v['CPG'], v['P'], v['N']])],
      data=lambda v, r: [rimg(r, (v['G'] * v['CPG'], v['P'], v['N'])), rimg(r, (v['G'] * v['CPG'],)), rimg(r, (v['G'] * v['CPG'],))], tol=1e-3, target='A')
def gnorm(S, E):
    X = hl.ImageParam(F32, 3, "X"); ga = hl.ImageParam(F32, 1, "gamma"); be = hl.ImageParam(F32, 1, "beta")
    c, p, n, g = V("c", "p", "n", "g")
    r = RD((0, S['CPG']), (0, S['P']))
    cnt = hl.f32(S['CPG'] * S['P'])
    mu = F("gn_mean"); mu[g, n] = 0.0; mu[g, n] += X[g * S['CPG'] + r.x, r.y, n]
    va = F("gn_var"); va[g, n] = 0.0
    dd = X[g * S['CPG'] + r.x, r.y, n] - mu[g, n] / cnt
    va[g, n] += dd * dd
    gi = c / S['CPG']
    o = F("gn_out"); o[c, p, n] = (X[c, p, n] - mu[gi, n] / cnt) / hl.sqrt(va[gi, n] / cnt + 1e-5) * ga[c] + be[c]
    est_in(X, E['G'] * E['CPG'], E['P'], E['N']); est_in(ga, E['G'] * E['CPG']); est_in(be, E['G'] * E['CPG'])
    est_out(o, [c, p, n], E['G'] * E['CPG'], E['P'], E['N'])
    return [o], [X, ga, be]


@spec("swiglu_mlp_block", "SwiGLU MLP: h1 = W1 x, h3 = W3 x (two contractions sharing x), g = silu(h1) * h3, y = W2 g (third contraction); weights [out, in] (output index innermost), x [D, T]",
      {'D': (1, 96), 'HD': (1, 192), 'T': (1, 48)},
      outs=lambda v: [(F32, [v['D'], v['T']])],
      data=lambda v, r: [rimg(r, (v['D'], v['T'])), fa(rimg(r, (v['HD'], v['D'])) * 0.2), fa(rimg(r, (v['HD'], v['D'])) * 0.2), fa(rimg(r, (v['D'], v['HD'])) * 0.2)],
      tol=1e-3, target='B')
def swiglu(S, E):
    X = hl.ImageParam(F32, 2, "X"); W1 = hl.ImageParam(F32, 2, "W1"); W3 = hl.ImageParam(F32, 2, "W3"); W2 = hl.ImageParam(F32, 2, "W2")
    j, t, d = V("j", "t", "d")
    r = RD((0, S['D']))
    h1 = F("sw_h1"); h1[j, t] = 0.0; h1[j, t] += W1[j, r] * X[r, t]
    h3 = F("sw_h3"); h3[j, t] = 0.0; h3[j, t] += W3[j, r] * X[r, t]
    g = F("sw_g"); g[j, t] = h1[j, t] / (1.0 + hl.exp(-h1[j, t])) * h3[j, t]
    r2 = RD((0, S['HD']), name="r2")
    y = F("sw_y"); y[d, t] = 0.0; y[d, t] += W2[d, r2] * g[r2, t]
    est_in(X, E['D'], E['T']); est_in(W1, E['HD'], E['D']); est_in(W3, E['HD'], E['D']); est_in(W2, E['D'], E['HD'])
    est_out(y, [d, t], E['D'], E['T'])
    return [y], [X, W1, W3, W2]


@spec("gelu_tanh_mlp_residual_tokens_inner", "transformer MLP with tanh-GELU and residual, TOKENS innermost everywhere: h[t,j] = b1[j] + sum_d x[t,d] W1[d,j]; y[t,d] = x[t,d] + b2[d] + sum_j gelu(h)[t,j] W2[j,d]",
      {'T': (1, 64), 'D': (1, 64), 'HD': (1, 256)},
      outs=lambda v: [(F32, [v['T'], v['D']])],
      data=lambda v, r: [rimg(r, (v['T'], v['D'])), fa(rimg(r, (v['D'], v['HD'])) * 0.2), rimg(r, (v['HD'],)), fa(rimg(r, (v['HD'], v['D'])) * 0.1), rimg(r, (v['D'],))],
      tol=1e-3, target='A')
def gelumlp(S, E):
    X = hl.ImageParam(F32, 2, "X"); W1 = hl.ImageParam(F32, 2, "W1"); b1 = hl.ImageParam(F32, 1, "b1")
    W2 = hl.ImageParam(F32, 2, "W2"); b2 = hl.ImageParam(F32, 1, "b2")
    t, j, d = V("t", "j", "d")
    r = RD((0, S['D']))
    h = F("gm_h"); h[t, j] = b1[j]; h[t, j] += X[t, r] * W1[r, j]
    hv = h[t, j]
    g = F("gm_g"); g[t, j] = 0.5 * hv * (1.0 + hl.tanh(0.7978845608 * (hv + 0.044715 * hv * hv * hv)))
    r2 = RD((0, S['HD']), name="r2")
    y = F("gm_y"); y[t, d] = X[t, d] + b2[d]; y[t, d] += g[t, r2] * W2[r2, d]
    est_in(X, E['T'], E['D']); est_in(W1, E['D'], E['HD']); est_in(b1, E['HD']); est_in(W2, E['HD'], E['D']); est_in(b2, E['D'])
    est_out(y, [t, d], E['T'], E['D'])
    return [y], [X, W1, b1, W2, b2]


@spec("depthwise3x3_stride_dilation_params", "depthwise 3x3 conv, planar [x,y,c], with run-time stride S (1..3) AND dilation DL (1..3): out[x,y,c] = sum w[kx,ky,c] * in[x*S + (kx-1)*DL, y*S + (ky-1)*DL, c], zero padding (constant_exterior), input [OW*S, OH*S, C]",
      {'OW': (1, 128), 'OH': (1, 96), 'C': (1, 16), 'S': (1, 3), 'DL': (1, 3)},
      outs=lambda v: [(F32, [v['OW'], v['OH'], v['C']])],
      data=lambda v, r: [rimg(r, (v['OW'] * v['S'], v['OH'] * v['S'], v['C'])), rimg(r, (3, 3, v['C']))], tol=1e-4, target='B')
def dwsd(S, E):
    im = hl.ImageParam(F32, 3, "im"); w = hl.ImageParam(F32, 3, "w")
    x, y, c = V("x", "y", "c")
    e = BF.constant_exterior(im, 0.0, [(0, S['OW'] * S['S']), (0, S['OH'] * S['S']), (0, S['C'])])
    r = RD((0, 3), (0, 3))
    o = F("dw_out"); o[x, y, c] = 0.0
    o[x, y, c] += w[r.x, r.y, c] * e[x * S['S'] + (r.x - 1) * S['DL'], y * S['S'] + (r.y - 1) * S['DL'], c]
    est_in(im, E['OW'] * E['S'], E['OH'] * E['S'], E['C']); est_in(w, 3, 3, E['C']); est_out(o, [x, y, c], E['OW'], E['OH'], E['C'])
    return [o], [im, w]


@spec("alibi_causal_attention_heads", "causal attention with ALiBi bias: s[j,i,h] = scale * q.k - slope[h]*(i-j); row max / exp / sum over RDom(0,T).where(r <= i); out[d,i,h] = sum_j p[j,i,h] v[d,j,h] (masked j > i), layouts q,k,v [d, pos, h]",
      {'T': (1, 96), 'DH': (1, 32), 'H': (1, 4)},
      outs=lambda v: [(F32, [v['DH'], v['T'], v['H']])],
      data=lambda v, r: [rimg(r, (v['DH'], v['T'], v['H'])), rimg(r, (v['DH'], v['T'], v['H'])), rimg(r, (v['DH'], v['T'], v['H'])),
                         fa(np.array([2.0 ** (-(k + 1)) for k in range(v['H'])], dtype=np.float32))], tol=1e-4, target='A')
def alibi(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 3, "k"); vv = hl.ImageParam(F32, 3, "v"); sl = hl.ImageParam(F32, 1, "slope")
    j, i, h, d = V("j", "i", "h", "d")
    rd = RD((0, S['DH']), name="rd")
    sc = F("al_s"); sc[j, i, h] = 0.0; sc[j, i, h] += q[rd, i, h] * k[rd, j, h]
    s = F("al_sb"); s[j, i, h] = sc[j, i, h] * 0.17 - sl[h] * hl.f32(i - j)
    rm = RD((0, S['T']), name="rm"); rm.where(rm.x <= i)
    mx = F("al_max"); mx[i, h] = hl.f32(-1e30); mx[i, h] = hl.max(mx[i, h], s[rm, i, h])
    p = F("al_p"); p[j, i, h] = hl.select(j <= i, hl.exp(s[j, i, h] - mx[i, h]), 0.0)
    rs = RD((0, S['T']), name="rs")
    den = F("al_den"); den[i, h] = 0.0; den[i, h] += p[rs, i, h]
    rv = RD((0, S['T']), name="rv")
    o = F("al_out"); o[d, i, h] = 0.0; o[d, i, h] += p[rv, i, h] * vv[d, rv, h]
    o2 = F("al_norm"); o2[d, i, h] = o[d, i, h] / den[i, h]
    est_in(q, E['DH'], E['T'], E['H']); est_in(k, E['DH'], E['T'], E['H']); est_in(vv, E['DH'], E['T'], E['H']); est_in(sl, E['H'])
    est_out(o2, [d, i, h], E['DH'], E['T'], E['H'])
    return [o2], [q, k, vv, sl]


@spec("relpos_bucket_bias_softmax_argmax", "scores [j,i,h] + a relative-position bias gathered from a 33-entry table per head, bucket = clamp(j-i, -16, 16)+16; softmax over j (hl.maximum / hl.sum over RDom(0,T)); second output: per-row hl.argmax over j (i32)",
      {'T': (1, 128), 'H': (1, 6)},
      outs=lambda v: [(F32, [v['T'], v['T'], v['H']]), (I32, [v['T'], v['H']])],
      data=lambda v, r: [rimg(r, (v['T'], v['T'], v['H'])), rimg(r, (33, v['H']))], tol=1e-4, target='B')
def relpos(S, E):
    sc = hl.ImageParam(F32, 3, "sc"); tb = hl.ImageParam(F32, 2, "table")
    j, i, h = V("j", "i", "h")
    b = F("rp_b"); b[j, i, h] = sc[j, i, h] + tb[hl.clamp(j - i, -16, 16) + 16, h]
    r = RD((0, S['T']))
    mx = F("rp_max"); mx[i, h] = hl.maximum(b[r, i, h])
    ex = F("rp_exp"); ex[j, i, h] = hl.exp(b[j, i, h] - mx[i, h])
    r2 = RD((0, S['T']), name="r2")
    sm = F("rp_sum"); sm[i, h] = hl.sum(ex[r2, i, h])
    p = F("rp_p"); p[j, i, h] = ex[j, i, h] / sm[i, h]
    r3 = RD((0, S['T']), name="r3")
    am = F("rp_arg"); am[i, h] = hl.argmax(b[r3, i, h])[0]
    est_in(sc, E['T'], E['T'], E['H']); est_in(tb, 33, E['H']); est_out(p, [j, i, h], E['T'], E['T'], E['H']); est_out(am, [i, h], E['T'], E['H'])
    return [p, am], [sc, tb]


@spec("embedding_bag_weighted_clamped_idx", "EmbeddingBag (weighted sum): out[d,b] = sum_l w[l,b] * E[d, clamp(idx[l,b], 0, V-1)], indices from data incl. out-of-range ones (clamped), vocab V a run-time Param",
      {'D': (1, 128), 'L': (1, 16), 'B': (1, 64), 'V': (1, 500)},
      outs=lambda v: [(F32, [v['D'], v['B']])],
      data=lambda v, r: [rimg(r, (v['D'], v['V'])), rimg(r, (v['L'], v['B']), np.int32, -3, v['V'] + 3), rimg(r, (v['L'], v['B']))],
      tol=1e-4, target='A')
def embbag(S, E):
    Em = hl.ImageParam(F32, 2, "E"); idx = hl.ImageParam(I32, 2, "idx"); w = hl.ImageParam(F32, 2, "w")
    d, b = V("d", "b")
    r = RD((0, S['L']))
    o = F("eb_out"); o[d, b] = 0.0
    o[d, b] += w[r, b] * Em[d, hl.clamp(idx[r, b], 0, S['V'] - 1)]
    est_in(Em, E['D'], E['V']); est_in(idx, E['L'], E['B']); est_in(w, E['L'], E['B']); est_out(o, [d, b], E['D'], E['B'])
    return [o], [Em, idx, w]


@spec("int8_linear_perchan_scale_silu_requant", "int8 linear x i8 [K,T] . W i8 [K,N] (both k innermost) -> i32; dequantise with per-token sx[t] and per-channel sw[n] scales + bias, SiLU, requantise to i8 by round/saturate; outputs the f32 activations and the i8 codes",
      {'K': (1, 256), 'N': (1, 128), 'T': (1, 32)},
      outs=lambda v: [(F32, [v['N'], v['T']]), (I8, [v['N'], v['T']])],
      data=lambda v, r: [rimg(r, (v['K'], v['T']), np.int8), rimg(r, (v['K'], v['N']), np.int8), runif(r, (v['T'],), 0.001, 0.01),
                         runif(r, (v['N'],), 0.001, 0.01), rimg(r, (v['N'],))], tol=1e-4, target='B')
def i8lin(S, E):
    X = hl.ImageParam(I8, 2, "X"); W = hl.ImageParam(I8, 2, "W"); sx = hl.ImageParam(F32, 1, "sx"); sw = hl.ImageParam(F32, 1, "sw")
    bias = hl.ImageParam(F32, 1, "bias")
    n, t = V("n", "t")
    r = RD((0, S['K']))
    acc = F("q8_acc"); acc[n, t] = 0; acc[n, t] += hl.i32(X[r, t]) * hl.i32(W[r, n])
    z = hl.f32(acc[n, t]) * sx[t] * sw[n] + bias[n]
    a = F("q8_act"); a[n, t] = z / (1.0 + hl.exp(-z))
    q = F("q8_q"); q[n, t] = hl.saturating_cast(I8, hl.i32(hl.floor(a[n, t] * 40.0 + 0.5)))
    est_in(X, E['K'], E['T']); est_in(W, E['K'], E['N']); est_in(sx, E['T']); est_in(sw, E['N']); est_in(bias, E['N'])
    est_out(a, [n, t], E['N'], E['T']); est_out(q, [n, t], E['N'], E['T'])
    return [a, q], [X, W, sx, sw, bias]


def _pool_in(v):
    return ((v['OW'] - 1) * v['S'] + max(v['K'] - 1, 1), (v['OH'] - 1) * v['S'] + max(v['K'] - 1, 1), v['C'])


@spec("pool_ceil_mode_avg_count_valid_and_max", "ceil-mode pooling with run-time kernel K (1..4) and stride S (1..3): the last window overhangs the input; average divides by the count of in-bounds elements (min(x*S+K, W_in) - x*S per axis), max uses a -inf exterior; two outputs [OW,OH,C]",
      {'OW': (1, 64), 'OH': (1, 48), 'C': (1, 16), 'K': (1, 4), 'S': (1, 3)},
      outs=lambda v: [(F32, [v['OW'], v['OH'], v['C']]), (F32, [v['OW'], v['OH'], v['C']])],
      data=lambda v, r: [rimg(r, _pool_in(v))], tol=1e-5, target='A')
def poolceil(S, E):
    im = hl.ImageParam(F32, 3, "im")
    x, y, c = V("x", "y", "c")
    WI = (S['OW'] - 1) * S['S'] + MX(S['K'] - 1, 1)
    HI = (S['OH'] - 1) * S['S'] + MX(S['K'] - 1, 1)
    z = BF.constant_exterior(im, 0.0, [(0, WI), (0, HI), (0, S['C'])])
    ni = BF.constant_exterior(im, -1e30, [(0, WI), (0, HI), (0, S['C'])])
    r = RD((0, S['K']), (0, S['K']))
    sm = F("pc_sum"); sm[x, y, c] = 0.0; sm[x, y, c] += z[x * S['S'] + r.x, y * S['S'] + r.y, c]
    mx = F("pc_max"); mx[x, y, c] = hl.maximum(ni[x * S['S'] + r.x, y * S['S'] + r.y, c])
    cx = hl.min(x * S['S'] + S['K'], WI) - x * S['S']
    cy = hl.min(y * S['S'] + S['K'], HI) - y * S['S']
    av = F("pc_avg"); av[x, y, c] = sm[x, y, c] / hl.f32(cx * cy)
    est_in(im, (E['OW'] - 1) * E['S'] + E['K'], (E['OH'] - 1) * E['S'] + E['K'], E['C'])
    est_out(av, [x, y, c], E['OW'], E['OH'], E['C']); est_out(mx, [x, y, c], E['OW'], E['OH'], E['C'])
    return [av, mx], [im]


@spec("wavenet_gated_dilated_2layers_cinner", "two WaveNet layers, channels innermost [c, t]: causal 2-tap dilated conv (dilation DL, then 2*DL, zero history) for filter and gate (contractions over c and the tap), z = tanh(a) * sigmoid(g), residual x + Wr z; layer 2 reads layer 1",
      {'C': (1, 16), 'T': (1, 1000), 'DL': (1, 8)},
      outs=lambda v: [(F32, [v['C'], v['T']])],
      data=lambda v, r: [rimg(r, (v['C'], v['T'])), fa(rimg(r, (v['C'], v['C'], 2, 2)) * 0.3), fa(rimg(r, (v['C'], v['C'], 2, 2)) * 0.3), fa(rimg(r, (v['C'], v['C'], 2)) * 0.3)],
      tol=1e-3, target='B')
def wavenet(S, E):
    X = hl.ImageParam(F32, 2, "X"); Wf = hl.ImageParam(F32, 4, "Wf"); Wg = hl.ImageParam(F32, 4, "Wg"); Wr = hl.ImageParam(F32, 3, "Wr")
    o, t, c = V("o", "t", "c")
    cur = BF.constant_exterior(X, 0.0, [(0, S['C']), (0, S['T'])])
    res = None
    for l in range(2):
        dil = S['DL'] * (l + 1)
        r = RD((0, S['C']), (0, 2), name="r%d" % l)
        a = F("wn_a%d" % l); a[o, t] = 0.0; a[o, t] += Wf[o, r.x, r.y, l] * cur[r.x, t - r.y * dil]
        g = F("wn_g%d" % l); g[o, t] = 0.0; g[o, t] += Wg[o, r.x, r.y, l] * cur[r.x, t - r.y * dil]
        z = F("wn_z%d" % l); z[o, t] = hl.tanh(a[o, t]) / (1.0 + hl.exp(-g[o, t]))
        rr = RD((0, S['C']), name="rr%d" % l)
        res = F("wn_res%d" % l); res[o, t] = cur[o, t]; res[o, t] += Wr[o, rr, l] * z[rr, t]
        if l == 0:
            cur = F("wn_ce0"); cur[c, t] = hl.select(t >= 0, res[c, hl.max(t, 0)], 0.0)
    est_in(X, E['C'], E['T']); est_in(Wf, E['C'], E['C'], 2, 2); est_in(Wg, E['C'], E['C'], 2, 2); est_in(Wr, E['C'], E['C'], 2)
    est_out(res, [o, t], E['C'], E['T'])
    return [res], [X, Wf, Wg, Wr]


@spec("lrn_across_channels_middle_dim", "local response normalisation across channels with channels in the MIDDLE [x, c, y]: sq = sum over RDom(-2,5) of select(c+r in range) x^2; out = x * pow(2 + 1e-4/5 * sq, -0.75)",
      {'W': (1, 200), 'C': (1, 64), 'H': (1, 100)},
      outs=lambda v: [(F32, [v['W'], v['C'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['C'], v['H']))], tol=1e-4, target='A')
def lrn(S, E):
    X = hl.ImageParam(F32, 3, "X")
    x, c, y = V("x", "c", "y")
    r = RD((-2, 5))
    cc = c + r
    v = X[x, hl.clamp(cc, 0, S['C'] - 1), y]
    sq = F("lrn_sq"); sq[x, c, y] = hl.sum(hl.select((cc >= 0) & (cc < S['C']), v * v, 0.0))
    o = F("lrn_out"); o[x, c, y] = X[x, c, y] * hl.pow(2.0 + (1e-4 / 5.0) * sq[x, c, y], -0.75)
    est_in(X, E['W'], E['C'], E['H']); est_out(o, [x, c, y], E['W'], E['C'], E['H'])
    return [o], [X]


# ======================================= scientific ========================================================

@spec("stencil3d_7pt_two_steps_f64", "3-D 7-point stencil applied twice in f64 (repeat_edge before the first step only; halos grow), [X,Y,Z] x innermost",
      {'X': (1, 128), 'Y': (1, 96), 'Z': (1, 64)},
      outs=lambda v: [(F64, [v['X'], v['Y'], v['Z']])],
      data=lambda v, r: [rimg(r, (v['X'], v['Y'], v['Z']), np.float64)], tol=1e-10, target='B')
def st7(S, E):
    u = hl.ImageParam(F64, 3, "u")
    x, y, z = V("x", "y", "z")
    cur = BF.repeat_edge(u, [(0, S['X']), (0, S['Y']), (0, S['Z'])])
    for s in range(2):
        f = F("s7_%d" % s)
        f[x, y, z] = 0.4 * cur[x, y, z] + 0.1 * (cur[x - 1, y, z] + cur[x + 1, y, z] + cur[x, y - 1, z] + cur[x, y + 1, z] + cur[x, y, z - 1] + cur[x, y, z + 1])
        cur = f
    est_in(u, E['X'], E['Y'], E['Z']); est_out(cur, [x, y, z], E['X'], E['Y'], E['Z'])
    return [cur], [u]


@spec("stencil3d_27pt_weights_rdom", "3-D 27-point stencil: hl.sum over a 3-D RDom(3,3,3) of w[r] * u[x+r.x-1, y+r.y-1, z+r.z-1] with zero (constant_exterior) boundaries, weights an input buffer",
      {'X': (1, 96), 'Y': (1, 96), 'Z': (1, 48)},
      outs=lambda v: [(F32, [v['X'], v['Y'], v['Z']])],
      data=lambda v, r: [rimg(r, (v['X'], v['Y'], v['Z'])), rimg(r, (3, 3, 3))], tol=1e-4, target='A')
def st27(S, E):
    u = hl.ImageParam(F32, 3, "u"); w = hl.ImageParam(F32, 3, "w")
    x, y, z = V("x", "y", "z")
    e = BF.constant_exterior(u, 0.0, [(0, S['X']), (0, S['Y']), (0, S['Z'])])
    r = RD((0, 3), (0, 3), (0, 3))
    o = F("s27_out"); o[x, y, z] = hl.sum(w[r.x, r.y, r.z] * e[x + r.x - 1, y + r.y - 1, z + r.z - 1])
    est_in(u, E['X'], E['Y'], E['Z']); est_in(w, 3, 3, 3); est_out(o, [x, y, z], E['X'], E['Y'], E['Z'])
    return [o], [u, w]


@spec("red_black_gauss_seidel_2sweeps", "two red-black Gauss-Seidel sweeps for Poisson (4 stages): red points ((x+y)%2==0) update from the previous iterate, black points from the red-updated one; select on parity, repeat_edge of each stage",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'])), rimg(r, (v['W'], v['H']))], tol=1e-4, target='B')
def rbgs(S, E):
    u = hl.ImageParam(F32, 2, "u"); rhs = hl.ImageParam(F32, 2, "rhs")
    x, y = V("x", "y")
    cur = BF.repeat_edge(u, [(0, S['W']), (0, S['H'])])
    out = None
    for s in range(4):
        par = s % 2
        f = F("rb_%d" % s)
        nb = cur[x - 1, y] + cur[x + 1, y] + cur[x, y - 1] + cur[x, y + 1]
        f[x, y] = hl.select((x + y) % 2 == par, 0.25 * (nb - 0.01 * rhs[hl.clamp(x, 0, S['W'] - 1), hl.clamp(y, 0, S['H'] - 1)]), cur[x, y])
        out = f
        cur = BF.repeat_edge(f, [(0, S['W']), (0, S['H'])])
    est_in(u, E['W'], E['H']); est_in(rhs, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [u, rhs]


@spec("prefix_sums_3axes_i64_volume", "3-D summed-volume table in i64: three chained scans, along x (RDom(1,X-1) update), then y, then z, each a Func with an update reading the previous one",
      {'X': (1, 64), 'Y': (1, 64), 'Z': (1, 32)},
      outs=lambda v: [(I64, [v['X'], v['Y'], v['Z']])],
      data=lambda v, r: [rimg(r, (v['X'], v['Y'], v['Z']), np.int32, -100000, 100000)], target='A')
def psum3(S, E):
    im = hl.ImageParam(I32, 3, "im")
    x, y, z = V("x", "y", "z")
    sx = F("ps_x"); sx[x, y, z] = hl.i64(im[x, y, z])
    rx = RD((1, S['X'] - 1), name="rx"); sx[rx, y, z] += sx[rx - 1, y, z]
    sy = F("ps_y"); sy[x, y, z] = sx[x, y, z]
    ry = RD((1, S['Y'] - 1), name="ry"); sy[x, ry, z] += sy[x, ry - 1, z]
    sz = F("ps_z"); sz[x, y, z] = sy[x, y, z]
    rz = RD((1, S['Z'] - 1), name="rz"); sz[x, y, rz] += sz[x, y, rz - 1]
    est_in(im, E['X'], E['Y'], E['Z']); est_out(sz, [x, y, z], E['X'], E['Y'], E['Z'])
    return [sz], [im]


@spec("spmv_ell_masked_padding_cols", "ELLPACK sparse matrix-vector product: y[i] = sum_k select(col[k,i] >= 0, val[k,i] * x[clamp(col[k,i])], 0) (padding col = -1), plus the per-row nonzero count (i32); gathers via an index buffer",
      {'N': (1, 3000), 'KE': (1, 16), 'M': (1, 3000)},
      outs=lambda v: [(F32, [v['N']]), (I32, [v['N']])],
      data=lambda v, r: [rimg(r, (v['KE'], v['N'])), rimg(r, (v['KE'], v['N']), np.int32, -1, v['M'] - 1), rimg(r, (v['M'],))], tol=1e-4, target='B')
def spmv(S, E):
    val = hl.ImageParam(F32, 2, "val"); col = hl.ImageParam(I32, 2, "col"); xv = hl.ImageParam(F32, 1, "x")
    i, = V("i")
    r = RD((0, S['KE']))
    cc = col[r, i]
    y = F("sp_y"); y[i] = 0.0; y[i] += hl.select(cc >= 0, val[r, i] * xv[hl.clamp(cc, 0, S['M'] - 1)], 0.0)
    nz = F("sp_nnz"); nz[i] = 0; nz[i] += hl.select(cc >= 0, 1, 0)
    est_in(val, E['KE'], E['N']); est_in(col, E['KE'], E['N']); est_in(xv, E['M']); est_out(y, [i], E['N']); est_out(nz, [i], E['N'])
    return [y, nz], [val, col, xv]


@spec("radix2_dif_two_stages_tuple_f64", "two decimation-in-frequency radix-2 FFT stages on length 4Q (Q a Param) with complex values as f64 Tuples; each stage is a select on n < half between a+b and (a-b)*twiddle, twiddles cos/sin of run-time angles",
      {'Q': (1, 500)},
      outs=lambda v: [(F64, [4 * v['Q']]), (F64, [4 * v['Q']])],
      data=lambda v, r: [rimg(r, (4 * v['Q'],), np.float64), rimg(r, (4 * v['Q'],), np.float64)], tol=1e-9, target='A')
def fft2(S, E):
    xr = hl.ImageParam(F64, 1, "xr"); xi = hl.ImageParam(F64, 1, "xi")
    n, = V("n")
    x0 = F("fx_in"); x0[n] = (xr[n], xi[n])
    Q = S['Q']

    def stage(src, half, blk, nm):
        # within each block of size 2*half (blk = 2*half): first half a+b, second half (a-b)*w(k)
        f = F(nm)
        base = (n / blk) * blk
        k = n - base
        lo = k < half
        ia = hl.clamp(base + hl.select(lo, k, k - half), 0, 4 * Q - 1 - half)  # clamp: bounds of the select are unbounded
        a = src[ia]; b = src[ia + half]
        kk = hl.select(lo, 0, k - half)
        ang = -2.0 * math.pi * hl.f64(kk) / hl.f64(blk)
        wr, wi = hl.cos(ang), hl.sin(ang)
        dr, di = a[0] - b[0], a[1] - b[1]
        f[n] = (hl.select(lo, a[0] + b[0], dr * wr - di * wi), hl.select(lo, a[1] + b[1], dr * wi + di * wr))
        return f
    s1 = stage(x0, 2 * Q, 4 * Q, "fx_s1")
    s2 = stage(s1, Q, 2 * Q, "fx_s2")
    est_in(xr, 4 * E['Q']); est_in(xi, 4 * E['Q']); est_out(s2, [n], 4 * E['Q'])
    return [s2], [xr, xi]


@spec("nbody_forces_tuple4_softened", "all-pairs gravity: a 4-component Tuple (fx, fy, fz, potential) update over RDom(0,N) per body with softening 1e-2, positions [3, N] (xyz innermost), 4 output buffers",
      {'N': (1, 1024)},
      outs=lambda v: [(F32, [v['N']])] * 4,
      data=lambda v, r: [rimg(r, (3, v['N'])), runif(r, (v['N'],), 0.5, 1.5)], tol=1e-3, target='B')
def nbody(S, E):
    p = hl.ImageParam(F32, 2, "pos"); m = hl.ImageParam(F32, 1, "mass")
    i, = V("i")
    r = RD((0, S['N']))
    dx = p[0, r] - p[0, i]; dy = p[1, r] - p[1, i]; dz = p[2, r] - p[2, i]
    inv = 1.0 / hl.sqrt(dx * dx + dy * dy + dz * dz + 1e-2)
    inv3 = inv * inv * inv
    f = F("nb_f"); f[i] = (hl.f32(0), hl.f32(0), hl.f32(0), hl.f32(0))
    f[i] = (f[i][0] + m[r] * dx * inv3, f[i][1] + m[r] * dy * inv3, f[i][2] + m[r] * dz * inv3, f[i][3] - m[r] * inv)
    est_in(p, 3, E['N']); est_in(m, E['N']); est_out(f, [i], E['N'])
    return [f], [p, m]


_CX = [0, 1, 0, -1, 0, 1, -1, -1, 1]
_CY = [0, 0, 1, 0, -1, 1, 1, -1, -1]
_WQ = [4 / 9] + [1 / 9] * 4 + [1 / 36] * 4


@spec("lbm_d2q9_stream_collide_mux", "one lattice-Boltzmann D2Q9 step: periodic streaming fs[x,y,q] = f[(x - cx[q]) mod W, (y - cy[q]) mod H, q] with cx/cy by hl.mux on q, density and velocity by unrolled sums over the 9 q, BGK collision with feq by mux; outputs f' [W,H,9] and density [W,H]",
      {'W': (1, 256), 'H': (1, 256)},
      outs=lambda v: [(F32, [v['W'], v['H'], 9]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 9), 0.05, 0.2)], tol=1e-4, target='A')
def lbm(S, E):
    f = hl.ImageParam(F32, 3, "f")
    x, y, q = V("x", "y", "q")
    fp = BF.repeat_image(f, [(0, S['W']), (0, S['H']), (0, 9)])
    cxq = hl.mux(q, _CX); cyq = hl.mux(q, _CY)
    fs = F("lb_fs"); fs[x, y, q] = fp[x - cxq, y - cyq, q]
    rho = F("lb_rho"); rho[x, y] = sum(fs[x, y, k] for k in range(9))
    ux = F("lb_ux"); ux[x, y] = sum(_CX[k] * fs[x, y, k] for k in range(9) if _CX[k]) / rho[x, y]
    uy = F("lb_uy"); uy[x, y] = sum(_CY[k] * fs[x, y, k] for k in range(9) if _CY[k]) / rho[x, y]
    cu = 3.0 * (hl.f32(cxq) * ux[x, y] + hl.f32(cyq) * uy[x, y])
    usq = 1.5 * (ux[x, y] * ux[x, y] + uy[x, y] * uy[x, y])
    feq = hl.mux(q, [hl.f32(w) for w in _WQ]) * rho[x, y] * (1.0 + cu + 0.5 * cu * cu - usq)
    o = F("lb_out"); o[x, y, q] = fs[x, y, q] - 0.6 * (fs[x, y, q] - feq)
    est_in(f, E['W'], E['H'], 9); est_out(o, [x, y, q], E['W'], E['H'], 9); est_out(rho, [x, y], E['W'], E['H'])
    return [o, rho], [f]


# ======================================= odd Halide usage =================================================

@spec("stats6_tuple_cols_mixed_int_types", "one Func with a 6-component Tuple per column over RDom(0,H): (min i32, max i32, sum i64, sum of squares u64, first argmin i32, first argmax i32), strict comparisons keep the first tie; realised into 6 buffers",
      {'W': (1, 1000), 'H': (1, 500)},
      outs=lambda v: [(I32, [v['W']]), (I32, [v['W']]), (I64, [v['W']]), (U64, [v['W']]), (I32, [v['W']]), (I32, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.int32, -50, 50)], target='B')
def stats6(S, E):
    im = hl.ImageParam(I32, 2, "im")
    x, = V("x")
    r = RD((0, S['H']))
    f = F("s6_t")
    f[x] = (hl.i32(2 ** 31 - 1), hl.i32(-2 ** 31), hl.i64(0), hl.u64(0), hl.i32(-1), hl.i32(-1))
    v = im[x, r]
    lt = v < f[x][0]; gt = v > f[x][1]
    f[x] = (hl.select(lt, v, f[x][0]), hl.select(gt, v, f[x][1]), f[x][2] + hl.i64(v), f[x][3] + hl.u64(v * v),
            hl.select(lt, r, f[x][4]), hl.select(gt, r, f[x][5]))
    est_in(im, E['W'], E['H']); est_out(f, [x], E['W'])
    return [f], [im]


@spec("life_bool_two_steps_and_popcount", "Game of Life on a Bool (u1) buffer, two generations (constant_exterior False on each), Bool output buffer plus a 0-D u32 population count of the result",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(BOOL, [v['W'], v['H']]), (U32, [])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])) < 0.35)], target='A')
def life(S, E):
    b = hl.ImageParam(BOOL, 2, "board")
    x, y = V("x", "y")
    cur = BF.constant_exterior(b, hl.cast(BOOL, 0), [(0, S['W']), (0, S['H'])])
    gen = None
    for g in range(2):
        n = sum(hl.select(cur[x + dx, y + dy], 1, 0) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
        gen = F("lf_g%d" % g)
        gen[x, y] = (n == 3) | (hl.Expr(cur[x, y]) & (n == 2))
        cur = BF.constant_exterior(gen, hl.cast(BOOL, 0), [(0, S['W']), (0, S['H'])])
    r = RD((0, S['W']), (0, S['H']))
    pop = F("lf_pop"); pop[()] = hl.u32(0); pop[()] += hl.select(gen[r.x, r.y], hl.u32(1), hl.u32(0))
    est_in(b, E['W'], E['H']); est_out(gen, [x, y], E['W'], E['H'])
    return [gen, pop], [b]


def _bshape(v):
    return ((v['X'] - 1) * v['SA'] + 1, (v['Y'] - 1) * v['SB'] + 1, v['C'])


@spec("broadcast_stride0_or_1_params", "numpy-style broadcasting by run-time strides SA, SB in {0, 1}: out[x,y,c] = u16(a[x*SA, y*SB, c]) * 3 + u16(b[x, y, c]); a's extent is 1 along an axis whose stride is 0 (data shaped accordingly), b full size; u16 out",
      {'X': (1, 700), 'Y': (1, 500), 'C': (1, 3), 'SA': (0, 1), 'SB': (0, 1)},
      outs=lambda v: [(U16, [v['X'], v['Y'], v['C']])],
      data=lambda v, r: [rimg(r, _bshape(v), np.uint8), rimg(r, (v['X'], v['Y'], v['C']), np.uint8)], target='B')
def bcast(S, E):
    a = hl.ImageParam(U8, 3, "a"); b = hl.ImageParam(U8, 3, "b")
    x, y, c = V("x", "y", "c")
    o = F("bc_out"); o[x, y, c] = hl.u16(a[x * S['SA'], y * S['SB'], c]) * 3 + hl.u16(b[x, y, c])
    est_in(a, E['X'], E['Y'], E['C']); est_in(b, E['X'], E['Y'], E['C']); est_out(o, [x, y, c], E['X'], E['Y'], E['C'])
    return [o], [a, b]


@spec("one_blur_feeds_four_outputs_hist", "one 3x3 u16 blur of a u8 image (repeat_edge) consumed by FOUR outputs of different shapes/kinds: 2x2-average downsample [W/2,H/2] u8, gx and gy (i16, central differences), and a 64-bin histogram (i32) of blur>>6 by a scatter over RDom(W,H)",
      {'W': (2, 640), 'H': (2, 480)},
      outs=lambda v: [(U8, [v['W'] // 2, v['H'] // 2]), (I16, [v['W'], v['H']]), (I16, [v['W'], v['H']]), (I32, [64])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)], target='A')
def blur4(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, b = V("x", "y", "b")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    bl = F("b4_blur"); bl[x, y] = sum(hl.u16(e[x + i, y + j]) for i in (-1, 0, 1) for j in (-1, 0, 1))
    dn = F("b4_down"); dn[x, y] = hl.u8((hl.u32(bl[2 * x, 2 * y]) + bl[2 * x + 1, 2 * y] + bl[2 * x, 2 * y + 1] + bl[2 * x + 1, 2 * y + 1]) / 36)
    gx = F("b4_gx"); gx[x, y] = hl.i16(bl[x + 1, y]) - hl.i16(bl[x - 1, y])
    gy = F("b4_gy"); gy[x, y] = hl.i16(bl[x, y + 1]) - hl.i16(bl[x, y - 1])
    r = RD((0, S['W']), (0, S['H']))
    hs = F("b4_hist"); hs[b] = 0; hs[hl.i32(bl[r.x, r.y] >> 6)] += 1
    est_in(im, E['W'], E['H']); est_out(dn, [x, y], D(E['W'], 2), D(E['H'], 2)); est_out(gx, [x, y], E['W'], E['H'])
    est_out(gy, [x, y], E['W'], E['H']); est_out(hs, [b], 64)
    return [dn, gx, gy, hs], [im]


@spec("piecewise_cubic_tonecurve_select8", "8-segment piecewise cubic tone curve: t = u16/65535, value = a nested 8-way select on knots (input buffer kn[9]) between Horner cubics with coefficients from co[4, 8] (f32)",
      {'W': (1, 1200), 'H': (1, 800)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16), fa(np.linspace(0, 1, 9).astype(np.float32)), rimg(r, (4, 8))], tol=1e-4, target='B')
def tonecurve(S, E):
    im = hl.ImageParam(U16, 2, "im"); kn = hl.ImageParam(F32, 1, "kn"); co = hl.ImageParam(F32, 2, "co")
    x, y = V("x", "y")
    t = hl.f32(im[x, y]) * (1.0 / 65535.0)
    polys = []
    for s in range(8):
        u = t - kn[s]
        polys.append(((co[3, s] * u + co[2, s]) * u + co[1, s]) * u + co[0, s])
    args = []
    for s in range(7):
        args += [t < kn[s + 1], polys[s]]
    o = F("tc_out"); o[x, y] = hl.select(*(args + [polys[7]]))
    est_in(im, E['W'], E['H']); est_in(kn, 9); est_in(co, 4, 8); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im, kn, co]


@spec("modmul_prefix_product_u64_param_mod", "u64 modular arithmetic with a run-time modulus P (a ranged Param 2..1000003): m = (u64(a)*u64(b)) % P elementwise, then the running product mod P along n (order-dependent scan over RDom(1,N-1)); two u64 outputs [N, C]",
      {'N': (1, 3000), 'C': (1, 4), 'P': (2, 1000003)},
      outs=lambda v: [(U64, [v['N'], v['C']]), (U64, [v['N'], v['C']])],
      data=lambda v, r: [rimg(r, (v['N'], v['C']), np.uint32), rimg(r, (v['N'], v['C']), np.uint32)], target='A')
def modmul(S, E):
    a = hl.ImageParam(U32, 2, "a"); b = hl.ImageParam(U32, 2, "b")
    n, c = V("n", "c")
    P = hl.u64(S['P'])
    m = F("mm_m"); m[n, c] = (hl.u64(a[n, c]) * hl.u64(b[n, c])) % P
    pp = F("mm_pp"); pp[n, c] = m[n, c]
    r = RD((1, S['N'] - 1))
    pp[r, c] = (pp[r - 1, c] * m[r, c]) % P
    est_in(a, E['N'], E['C']); est_in(b, E['N'], E['C']); est_out(m, [n, c], E['N'], E['C']); est_out(pp, [n, c], E['N'], E['C'])
    return [m, pp], [a, b]


@spec("kahan_rowsum_tuple_f64_exact", "Kahan-compensated row sums as a 2-Tuple update (s, comp) over RDom(0,W) along the INNER dim, data mixing 1e15-scale and unit values; compared bit-exactly (any reassociation changes the result); target AVX2 + strict_float, since without it Halide's simplifier folds the compensation (t - s) - y to 0 (see probe_kahan.py)",
      {'W': (1, 3000), 'H': (1, 200)},
      outs=lambda v: [(F64, [v['H']]), (F64, [v['H']])],
      data=lambda v, r: [fa((r.standard_normal((v['W'], v['H'])) * np.where(r.random((v['W'], v['H'])) < 0.1, 1e15, 1.0)).astype(np.float64))],
      tol=1e-300, target='Bs')
def kahan(S, E):
    im = hl.ImageParam(F64, 2, "im")
    y, = V("y")
    r = RD((0, S['W']))
    k = F("kh_t"); k[y] = (hl.f64(0), hl.f64(0))
    yy = im[r, y] - k[y][1]
    t = k[y][0] + yy
    k[y] = (t, (t - k[y][0]) - yy)
    est_in(im, E['W'], E['H']); est_out(k, [y], E['H'])
    return [k], [im]


@spec("where_on_row_mean_threshold_tuple", "RDom.where on DATA against a threshold that is itself a reduction: mean[y] = hl.sum(in[r,y])/W; a Tuple (sum, count) update over RDom(0,W).where(in[r,y] > mean[y] + 0.5); outputs sum f32 and count i32",
      {'W': (1, 1500), 'H': (1, 400)},
      outs=lambda v: [(F32, [v['H']]), (I32, [v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def whmean(S, E):
    im = hl.ImageParam(F32, 2, "im")
    y, = V("y")
    r0 = RD((0, S['W']), name="r0")
    mean = F("wm_mean"); mean[y] = hl.sum(im[r0, y]) / hl.f32(S['W'])
    r = RD((0, S['W']))
    r.where(im[r, y] > mean[y] + 0.5)
    acc = F("wm_acc"); acc[y] = (hl.f32(0), hl.i32(0))
    acc[y] = (acc[y][0] + im[r, y], acc[y][1] + 1)
    est_in(im, E['W'], E['H']); est_out(acc, [y], E['H'])
    return [acc], [im]


# ============ follow-ups to the wavenet crash: a non-extent Param (stride / offset / factor) between two contractions ============

@spec("conv1d_stride_param_then_pointwise_cinner", "strided conv1d with a run-time stride S (1..3), channels innermost: y1[o,t] = sum_{c,k<3} W1[o,c,k] * x[c, t*S + k]; then a pointwise contraction y2[o,t] = sum_c W2[o,c] * relu(y1[c,t]); input length (T-1)*S + 3",
      {'C': (1, 16), 'T': (1, 600), 'S': (1, 3)},
      outs=lambda v: [(F32, [v['C'], v['T']])],
      data=lambda v, r: [rimg(r, (v['C'], (v['T'] - 1) * v['S'] + 3)), fa(rimg(r, (v['C'], v['C'], 3)) * 0.3), fa(rimg(r, (v['C'], v['C'])) * 0.3)],
      tol=1e-4, target='A')
def c1sp(S, E):
    X = hl.ImageParam(F32, 2, "X"); W1 = hl.ImageParam(F32, 3, "W1"); W2 = hl.ImageParam(F32, 2, "W2")
    o, t = V("o", "t")
    r = RD((0, S['C']), (0, 3))
    y1 = F("cs_y1"); y1[o, t] = 0.0; y1[o, t] += W1[o, r.x, r.y] * X[r.x, t * S['S'] + r.y]
    rr = RD((0, S['C']), name="rr")
    y2 = F("cs_y2"); y2[o, t] = 0.0; y2[o, t] += W2[o, rr] * hl.max(y1[rr, t], 0.0)
    est_in(X, E['C'], (E['T'] - 1) * E['S'] + 3); est_in(W1, E['C'], E['C'], 3); est_in(W2, E['C'], E['C']); est_out(y2, [o, t], E['C'], E['T'])
    return [y2], [X, W1, W2]


@spec("matmul_chain_second_reads_offset_param", "two chained matmuls where the second reads the first at a run-time row offset OFF (0..4): C1[j,m] = sum_k A[k,m] * B[j,k] over m in [0, M+OFF); C2[n,m] = sum_j C1[j, m + OFF] * D[n,j]",
      {'M': (1, 96), 'N': (1, 96), 'K': (1, 64), 'J': (1, 64), 'OFF': (0, 4)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'] + v['OFF'])), fa(rimg(r, (v['J'], v['K'])) * 0.3), fa(rimg(r, (v['N'], v['J'])) * 0.3)],
      tol=1e-4, target='B')
def mmoff(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); Dm = hl.ImageParam(F32, 2, "D")
    j, m, n = V("j", "m", "n")
    rk = RD((0, S['K']), name="rk")
    C1 = F("mo_c1"); C1[j, m] = 0.0; C1[j, m] += A[rk, m] * B[j, rk]
    rj = RD((0, S['J']), name="rj")
    C2 = F("mo_c2"); C2[n, m] = 0.0; C2[n, m] += C1[rj, m + S['OFF']] * Dm[n, rj]
    est_in(A, E['K'], E['M'] + E['OFF']); est_in(B, E['J'], E['K']); est_in(Dm, E['N'], E['J']); est_out(C2, [n, m], E['N'], E['M'])
    return [C2], [A, B, Dm]


@spec("upsample_factor_param_then_contract", "nearest upsampling by a run-time factor F (1..4) along m feeding a contraction: U[k,m] = A[k, m / F]; C[n,m] = sum_k U[k,m] * B[n,k], output [N, M*F]; then a second contraction E2[n,q] = sum_m C[n,m] * G[m,q]",
      {'M': (1, 48), 'N': (1, 64), 'K': (1, 64), 'F': (1, 4), 'Q': (1, 32)},
      outs=lambda v: [(F32, [v['N'], v['Q']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), fa(rimg(r, (v['N'], v['K'])) * 0.3), fa(rimg(r, (v['M'] * v['F'], v['Q'])) * 0.3)],
      tol=1e-4, target='A')
def upcon(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); G = hl.ImageParam(F32, 2, "G")
    k, m, n, q = V("k", "m", "n", "q")
    U = F("uc_u"); U[k, m] = A[k, m / S['F']]
    rk = RD((0, S['K']), name="rk")
    C = F("uc_c"); C[n, m] = 0.0; C[n, m] += U[rk, m] * B[n, rk]
    rm = RD((0, S['M'] * S['F']), name="rm")
    E2 = F("uc_e"); E2[n, q] = 0.0; E2[n, q] += C[n, rm] * G[rm, q]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_in(G, E['M'] * E['F'], E['Q']); est_out(E2, [n, q], E['N'], E['Q'])
    return [E2], [A, B, G]


@spec("matmul_chain_offset_param_not_in_estimates", "as matmul_chain_second_reads_offset_param, but OFF appears in NO estimate (A's estimate is [K, M], like DL in the wavenet crash): C1[j,m] = sum_k A[k,m] * B[j,k]; C2[n,m] = sum_j C1[j, m + OFF] * D[n,j]",
      {'M': (1, 96), 'N': (1, 96), 'K': (1, 64), 'J': (1, 64), 'OFF': (0, 4)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'] + v['OFF'])), fa(rimg(r, (v['J'], v['K'])) * 0.3), fa(rimg(r, (v['N'], v['J'])) * 0.3)],
      tol=1e-4, target='B')
def mmoff2(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); Dm = hl.ImageParam(F32, 2, "D")
    j, m, n = V("j", "m", "n")
    rk = RD((0, S['K']), name="rk")
    C1 = F("mo2_c1"); C1[j, m] = 0.0; C1[j, m] += A[rk, m] * B[j, rk]
    rj = RD((0, S['J']), name="rj")
    C2 = F("mo2_c2"); C2[n, m] = 0.0; C2[n, m] += C1[rj, m + S['OFF']] * Dm[n, rj]
    est_in(A, E['K'], E['M']); est_in(B, E['J'], E['K']); est_in(Dm, E['N'], E['J']); est_out(C2, [n, m], E['N'], E['M'])
    return [C2], [A, B, Dm]
