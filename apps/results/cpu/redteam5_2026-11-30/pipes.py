"""Red-team round 5 pipelines for Diet: styles the earlier probes (redteam_, redteam3_fixes_,
redteam4_contractions_) do not use. Same spec format as ../redteam3_fixes_2026-11-30/pipes.py:
name, style, ranges {P: (lo, hi)}, build(S, E) -> (outputs, inputs), data(v, rng) -> numpy arrays
(Halide dim order, Fortran layout), outs(v) -> list of (hl type, shape), optional tests/times, tol.
S: dict of ranged hl.Param; E: what the estimates use (the Params for Diet, ints for the others)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

# Round 3's helpers (its module is also named pipes: loaded under another name).
_spec3 = importlib.util.spec_from_file_location(
    "pipes_round3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "redteam3_fixes_2026-11-30", "pipes.py"))
_round3 = importlib.util.module_from_spec(_spec3)
_spec3.loader.exec_module(_round3)
V, est_in, est_out, fa = _round3.V, _round3.est_in, _round3.est_out, _round3.fa

F32, F64, U8, U16, I8, I16, I32 = (hl.Float(32), hl.Float(64), hl.UInt(8), hl.UInt(16), hl.Int(8),
                                   hl.Int(16), hl.Int(32))
SPECS, spec, CREATED, F = _round3.registry()


def rimg(rng, shape, dtype=np.float32):
    if dtype == np.float32:
        return fa(rng.standard_normal(shape).astype(np.float32))
    if dtype == np.float64:
        return fa(rng.standard_normal(shape))
    info = np.iinfo(dtype)
    return fa(rng.integers(info.min, info.max + 1, size=shape).astype(dtype))


BF = hl.BoundaryConditions
WH = {'W': (1, 800), 'H': (1, 600)}


# 1 -------------------------------------------------------------------------------------------
@spec("resize_bicubic_tuple_taps",
      "bicubic resize W,H -> OW,OH (4 ranged Params, used in the scale), per-axis tap Tuple Func (i32 base, 4 f32 weights), clamp gathers",
      {'W': (1, 400), 'H': (1, 300), 'OW': (1, 600), 'OH': (1, 450)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def bicubic(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    W, H = S['W'], S['H']

    def taps(name, v, n_in, n_out):
        f = F(name)
        c = (hl.f32(v) + 0.5) * (hl.f32(n_in) / hl.f32(n_out)) - 0.5
        fl = hl.floor(c)
        t = c - fl
        A = -0.5
        u = 1.0 - t
        w1 = ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0
        w2 = ((A + 2.0) * u - (A + 3.0)) * u * u + 1.0
        w0 = ((A * (t + 1.0) - 5.0 * A) * (t + 1.0) + 8.0 * A) * (t + 1.0) - 4.0 * A
        w3 = 1.0 - w0 - w1 - w2
        f[v] = (hl.i32(fl), w0, w1, w2, w3)
        return f
    tx = taps("bc_tx", x, W, S['OW'])
    ty = taps("bc_ty", y, H, S['OH'])
    rows = F("bc_rows")
    rows[x, y] = sum(tx[x][k + 1] * inp[hl.clamp(tx[x][0] + k - 1, 0, W - 1), hl.clamp(y, 0, H - 1)]
                     for k in range(4))
    o = F("bicubic")
    o[x, y] = sum(ty[y][k + 1] * rows[x, hl.clamp(ty[y][0] + k - 1, 0, H - 1)] for k in range(4))
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [inp]


# 2 -------------------------------------------------------------------------------------------
@spec("rot90_and_flip_u8", "uint8 RGB brighten (u16 math, u8_sat), then two outputs: rotate-90 (H x W, transposed read) and horizontal flip (W-1-x)",
      {'W': (1, 700), 'H': (1, 500)},
      outs=lambda v: [(U8, [v['H'], v['W'], 3]), (U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3), np.uint8)])
def rot90(S, E):
    inp = hl.ImageParam(U8, 3, "inp")
    x, y, c = V("x", "y", "c")
    b = F("rf_bright")
    b[x, y, c] = hl.u8_sat(hl.u16(inp[x, y, c]) * 3 / 2)
    rot, flip = F("rot90"), F("flip_h")
    rot[x, y, c] = b[y, inp.height() - 1 - x, c]
    flip[x, y, c] = b[inp.width() - 1 - x, y, c]
    est_in(inp, E['W'], E['H'], 3)
    est_out(rot, [x, y, c], E['H'], E['W'], 3); est_out(flip, [x, y, c], E['W'], E['H'], 3)
    return [rot, flip], [inp]


# 3 -------------------------------------------------------------------------------------------
@spec("minmax_tuple_stretch_u16", "0-D Tuple reduction (min,max) over RDom(0,W,0,H) of a uint16 image, then integer contrast stretch to uint8",
      WH,
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.integers(1000, 40000, size=(v['W'], v['H'])).astype(np.uint16))])
def minmax(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y = V("x", "y")
    r = hl.RDom([hl.Range(0, S['W']), hl.Range(0, S['H'])], "r")
    mm = F("mm_lohi")
    mm[()] = (hl.u16(65535), hl.u16(0))
    val = inp[r.x, r.y]
    mm[()] = (hl.min(mm[()][0], val), hl.max(mm[()][1], val))
    lo, hi = mm[()][0], mm[()][1]
    o = F("stretch")
    o[x, y] = hl.u8((hl.u32(inp[x, y] - lo) * 255) / hl.u32(hl.max(hi - lo, hl.u16(1))))
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 4 -------------------------------------------------------------------------------------------
@spec("gamma_lut_per_channel_u8", "256x3 LUT Func (pow with an unranged float Param gamma, u8_sat), applied as a data-dependent gather to uint8 RGB",
      WH,
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3), np.uint8)])
def gamma_lut(S, E):
    inp = hl.ImageParam(U8, 3, "inp")
    gamma = hl.Param(F32, "gamma", 2.2)
    x, y, c, i = V("x", "y", "c", "i")
    lut = F("glut")
    lut[i, c] = hl.u8_sat(hl.pow(hl.f32(i) / 255.0, 1.0 / gamma) * (255.0 - 20.0 * hl.f32(c)) + 0.5)
    o = F("gamma_applied")
    o[x, y, c] = lut[hl.i32(inp[x, y, c]), c]
    est_in(inp, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [inp]


# 5 -------------------------------------------------------------------------------------------
@spec("iir_fwd_bwd_then_y", "recursive (IIR) smoothing: causal scan along x (RDom(1,W-1)), anticausal scan along x (index W-1-r), causal scan along y",
      {'W': (1, 1000), 'H': (1, 800)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def iir(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    a = 0.6
    Wd, Hd = inp.width(), inp.height()
    fw = F("iir_fwd")
    fw[x, y] = inp[x, y]
    r = hl.RDom([hl.Range(1, Wd - 1)], "r")
    fw[r, y] = a * fw[r - 1, y] + (1 - a) * inp[r, y]
    bw = F("iir_bwd")
    bw[x, y] = fw[x, y]
    r2 = hl.RDom([hl.Range(1, Wd - 1)], "r2")
    xr = Wd - 1 - r2
    bw[xr, y] = a * bw[xr + 1, y] + (1 - a) * fw[xr, y]
    vy = F("iir_y")
    vy[x, y] = bw[x, y]
    ry = hl.RDom([hl.Range(1, Hd - 1)], "ry")
    vy[x, ry] = a * vy[x, ry - 1] + (1 - a) * bw[x, ry]
    o = F("iir_out")
    o[x, y] = vy[x, y] * 2.0
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 6 -------------------------------------------------------------------------------------------
@spec("gauss7_single_2d_rdom_repeat_image", "7x7 gaussian written as ONE 2-D RDom sum of kw[r.x]*kw[r.y]*img (exp weights Func, 0-D normalizer Func), repeat_image",
      WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def gauss7(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y, i = V("x", "y", "i")
    e = BF.repeat_image(inp)
    kw = F("g_kw")
    kw[i] = hl.exp(-hl.f32(i * i) / (2.0 * 1.5 * 1.5))
    rk = hl.RDom([hl.Range(-3, 7)], "rk")
    ks = F("g_ksum")
    ks[()] = 0.0
    ks[()] += kw[rk]
    r = hl.RDom([hl.Range(-3, 7), hl.Range(-3, 7)], "r")
    o = F("gauss7")
    o[x, y] = hl.sum(kw[r.x] * kw[r.y] * e[x + r.x, y + r.y]) / (ks[()] * ks[()])
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 7 -------------------------------------------------------------------------------------------
@spec("upsample_odd_2w_minus_1", "2x upsample to odd size 2W-1 x 2H-1 via a 4-way parity hl.select (mirror_interior), output also consumed: constant_exterior + [1 2 1] downsample, residual output",
      {'W': (1, 500), 'H': (1, 400)},
      outs=lambda v: [(F32, [2 * v['W'] - 1, 2 * v['H'] - 1]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def up_odd(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    e = BF.mirror_interior(inp)
    xh, yh = x / 2, y / 2
    ex, ey = (x % 2 == 0), (y % 2 == 0)
    up = F("up_odd")
    up[x, y] = hl.select(ex & ey, e[xh, yh],
                         ey, (e[xh, yh] + e[xh + 1, yh]) * 0.5,
                         ex, (e[xh, yh] + e[xh, yh + 1]) * 0.5,
                         (e[xh, yh] + e[xh + 1, yh] + e[xh, yh + 1] + e[xh + 1, yh + 1]) * 0.25)
    ub = BF.constant_exterior(up, 0.0, [(0, 2 * W - 1), (0, 2 * H - 1)])
    dx = F("up_dx")
    dx[x, y] = (ub[2 * x - 1, y] + 2.0 * ub[2 * x, y] + ub[2 * x + 1, y]) * 0.25
    dn = F("up_dn")
    dn[x, y] = (dx[x, 2 * y - 1] + 2.0 * dx[x, 2 * y] + dx[x, 2 * y + 1]) * 0.25
    res = F("up_resid")
    res[x, y] = inp[x, y] - dn[x, y]
    est_in(inp, E['W'], E['H'])
    est_out(up, [x, y], 2 * E['W'] - 1, 2 * E['H'] - 1); est_out(res, [x, y], E['W'], E['H'])
    return [up, res], [inp]


# 8 -------------------------------------------------------------------------------------------
@spec("argmax2d_per_channel", "hl.argmax over a 2-D RDom(0,W,0,H) per channel c (C ranged): 3 outputs (x, y, value) of extent C",
      {'W': (1, 300), 'H': (1, 200), 'C': (1, 16)},
      outs=lambda v: [(I32, [v['C']]), (I32, [v['C']]), (F32, [v['C']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C']))])
def argmax2d(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    c, = V("c")
    r = hl.RDom([hl.Range(0, S['W']), hl.Range(0, S['H'])], "r")
    am = F("am2d")
    am[c] = hl.argmax(inp[r.x, r.y, c])
    ox, oy, ov = F("am_x"), F("am_y"), F("am_val")
    ox[c] = am[c][0]
    oy[c] = am[c][1]
    ov[c] = am[c][2]
    est_in(inp, E['W'], E['H'], E['C'])
    for f in (ox, oy, ov):
        est_out(f, [c], E['C'])
    return [ox, oy, ov], [inp]


# 9 -------------------------------------------------------------------------------------------
@spec("layernorm_channels_outer", "layernorm across the OUTERMOST dim c of (x,y,c), C ranged: sum/var as update Funcs over RDom(0,C), gamma/beta[c]",
      {'W': (1, 200), 'H': (1, 100), 'C': (1, 64)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C'])), rimg(r, (v['C'],)), rimg(r, (v['C'],))], tol=1e-3)
def ln_outer(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); g = hl.ImageParam(F32, 1, "g"); b = hl.ImageParam(F32, 1, "b")
    x, y, c = V("x", "y", "c")
    C = S['C']
    rc = hl.RDom([hl.Range(0, C)], "rc")
    s = F("ln_sum"); s[x, y] = 0.0; s[x, y] += inp[x, y, rc]
    mean = F("ln_mean"); mean[x, y] = s[x, y] / hl.f32(C)
    d = F("ln_d"); d[x, y, c] = inp[x, y, c] - mean[x, y]
    var = F("ln_var"); var[x, y] = 0.0; var[x, y] += d[x, y, rc] * d[x, y, rc]
    o = F("ln_outer")
    o[x, y, c] = d[x, y, c] / hl.sqrt(var[x, y] / hl.f32(C) + 1e-5) * g[c] + b[c]
    est_in(inp, E['W'], E['H'], E['C']); est_in(g, E['C']); est_in(b, E['C'])
    est_out(o, [x, y, c], E['W'], E['H'], E['C'])
    return [o], [inp, g, b]


# 10 ------------------------------------------------------------------------------------------
@spec("logsoftmax_f64_middle", "float64 log-softmax over the MIDDLE dim n of (a=8, n, b), N and B ranged, hl.maximum / hl.sum(exp)",
      {'N': (1, 1000), 'B': (1, 64)},
      outs=lambda v: [(F64, [8, v['N'], v['B']])],
      data=lambda v, r: [rimg(r, (8, v['N'], v['B']), np.float64)], tol=1e-9)
def lsm64(S, E):
    inp = hl.ImageParam(F64, 3, "inp")
    a, n, b = V("a", "n", "b")
    rn = hl.RDom([hl.Range(0, inp.dim(1).extent())], "rn")
    mx = F("lsm_max"); mx[a, b] = hl.maximum(inp[a, rn, b])
    se = F("lsm_sum"); se[a, b] = hl.sum(hl.exp(inp[a, rn, b] - mx[a, b]))
    o = F("logsoftmax64")
    o[a, n, b] = inp[a, n, b] - mx[a, b] - hl.log(se[a, b])
    est_in(inp, 8, E['N'], E['B']); est_out(o, [a, n, b], 8, E['N'], E['B'])
    return [o], [inp]


# 11 ------------------------------------------------------------------------------------------
@spec("bool_mask_erode_rowcount", "bool Func mask (float Param threshold), constant_exterior(False) on the bool Func, cross erosion with &, outputs u8 mask and per-row int32 counts over RDom(0,W)",
      WH,
      outs=lambda v: [(U8, [v['W'], v['H']]), (I32, [v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def boolmask(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    thr = hl.Param(F32, "thr", -0.6)
    x, y = V("x", "y")
    m = F("bm_mask"); m[x, y] = inp[x, y] > thr
    em = BF.constant_exterior(m, hl.cast(hl.Bool(), 0), [(0, S['W']), (0, S['H'])])
    er = F("bm_erode")
    er[x, y] = em[x, y] & em[x - 1, y] & em[x + 1, y] & em[x, y - 1] & em[x, y + 1]
    om = F("bm_u8"); om[x, y] = hl.select(er[x, y], hl.u8(255), hl.u8(0))
    r = hl.RDom([hl.Range(0, S['W'])], "r")
    cnt = F("bm_count"); cnt[y] = 0; cnt[y] += hl.select(er[r, y], 1, 0)
    est_in(inp, E['W'], E['H']); est_out(om, [x, y], E['W'], E['H']); est_out(cnt, [y], E['H'])
    return [om, cnt], [inp]


# 12 ------------------------------------------------------------------------------------------
@spec("laplacian_i16_sat_outputs", "uint8 -> int16 laplacian (mirror_image), outputs int8 edges (i8_sat of lap/4) and uint8 sharpened (u8_sat)",
      WH,
      outs=lambda v: [(I8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def lap16(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    e = BF.mirror_image(inp)
    s = lambda a, b: hl.i16(e[a, b])
    lap = F("lap16")
    lap[x, y] = s(x, y) * 4 - s(x - 1, y) - s(x + 1, y) - s(x, y - 1) - s(x, y + 1)
    ed = F("lap_edges"); ed[x, y] = hl.i8_sat(lap[x, y] / 4)
    sh = F("lap_sharp"); sh[x, y] = hl.u8_sat(s(x, y) + lap[x, y])
    est_in(inp, E['W'], E['H']); est_out(ed, [x, y], E['W'], E['H']); est_out(sh, [x, y], E['W'], E['H'])
    return [ed, sh], [inp]


# 13 ------------------------------------------------------------------------------------------
@spec("extent1_middle_dim_audio", "multichannel signal (t, 1, c) with an extent-1 middle dim: 3-tap smoothing * gain[c], plus mono mixdown output (t, 1) via hl.sum over RDom(0,C)",
      {'T': (1, 100000), 'C': (1, 8)},
      outs=lambda v: [(F32, [v['T'], 1, v['C']]), (F32, [v['T'], 1])],
      data=lambda v, r: [rimg(r, (v['T'], 1, v['C'])), rimg(r, (v['C'],))], tol=1e-3)
def ext1(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); gain = hl.ImageParam(F32, 1, "gain")
    t, z, c = V("t", "z", "c")
    e = BF.repeat_edge(inp)
    sm = F("a_smooth")
    sm[t, z, c] = (e[t - 1, z, c] + 2.0 * e[t, z, c] + e[t + 1, z, c]) * 0.25 * gain[c]
    rc = hl.RDom([hl.Range(0, S['C'])], "rc")
    mono = F("a_mono")
    mono[t, z] = hl.sum(sm[t, z, rc]) / hl.f32(S['C'])
    est_in(inp, E['T'], 1, E['C']); est_in(gain, E['C'])
    est_out(sm, [t, z, c], E['T'], 1, E['C']); est_out(mono, [t, z], E['T'], 1)
    return [sm, mono], [inp, gain]


# 14 ------------------------------------------------------------------------------------------
@spec("crop_offset_box_3params", "crop at a ranged offset X0 (3rd Param, also a gain factor) from an input of width OW+X0+2, then separable 3x3 box",
      {'OW': (1, 600), 'OH': (1, 400), 'X0': (0, 32)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [rimg(r, (v['OW'] + v['X0'] + 2, v['OH'] + 2))], tol=1e-4)
def crop(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    X0 = S['X0']
    cr = F("crop"); cr[x, y] = inp[x + X0 + 1, y + 1]
    bx = F("crop_bx"); bx[x, y] = cr[x - 1, y] + cr[x, y] + cr[x + 1, y]
    o = F("crop_box")
    o[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9.0 * (1.0 + hl.f32(X0) * 0.01)
    est_in(inp, E['OW'] + E['X0'] + 2, E['OH'] + 2); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [inp]


# 15 ------------------------------------------------------------------------------------------
@spec("roll_repeat_image_shift", "circular shift (np.roll-like) by ranged Params DX, DX/2 via repeat_image, then a backward-difference stencil on the shifted Func",
      {'W': (1, 700), 'H': (1, 500), 'DX': (0, 64)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4)
def roll(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_image(inp)
    DX = S['DX']
    sh = F("roll_sh"); sh[x, y] = e[x - DX, y + DX / 2]
    o = F("roll_diff"); o[x, y] = sh[x, y] - 0.5 * (sh[x - 1, y] + sh[x, y - 1])
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 16 ------------------------------------------------------------------------------------------
@spec("nv12_to_rgb_odd", "NV12 (Y plane W x H, interleaved UV plane 2 x ceil(W/2) x ceil(H/2)) -> RGB uint8: chroma Tuple Func, i32 BT.601 fixed point, >>8, select chain on c, u8_sat",
      WH,
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8),
                         rimg(r, (2, (v['W'] + 1) // 2, (v['H'] + 1) // 2), np.uint8)])
def nv12(S, E):
    Y = hl.ImageParam(U8, 2, "Y"); UV = hl.ImageParam(U8, 3, "UV")
    x, y, c = V("x", "y", "c")
    ch = F("nv_chroma")
    ch[x, y] = (hl.i32(UV[0, x, y]) - 128, hl.i32(UV[1, x, y]) - 128)
    yv = hl.i32(Y[x, y]) - 16
    u, v = ch[x / 2, y / 2][0], ch[x / 2, y / 2][1]
    R = (298 * yv + 409 * v + 128) >> 8
    G = (298 * yv - 100 * u - 208 * v + 128) >> 8
    B = (298 * yv + 516 * u + 128) >> 8
    o = F("nv_rgb")
    o[x, y, c] = hl.u8_sat(hl.select(c == 0, R, c == 1, G, B))
    est_in(Y, E['W'], E['H']); est_in(UV, 2, (E['W'] + 1) // 2, (E['H'] + 1) // 2)
    est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [Y, UV]


# 17 ------------------------------------------------------------------------------------------
def _jh_data(v, r):
    a = r.integers(0, 256, size=(v['W'], v['H']))
    b = (a + r.integers(-40, 41, size=a.shape)) % 256
    return [fa(a.astype(np.uint8)), fa(b.astype(np.uint8))]


@spec("joint_hist_entropy", "16x16 joint histogram of two uint8 images (2-D scatter i32(A)>>4, i32(B)>>4 over RDom(0,W,0,H)), normalized by W*H, and a 0-D entropy output",
      WH,
      outs=lambda v: [(F32, [16, 16]), (F32, [])],
      data=_jh_data, tol=1e-4)
def jhist(S, E):
    A = hl.ImageParam(U8, 2, "A"); B = hl.ImageParam(U8, 2, "B")
    i, j = V("i", "j")
    r = hl.RDom([hl.Range(0, S['W']), hl.Range(0, S['H'])], "r")
    h = F("jh_hist")
    h[i, j] = 0
    h[hl.i32(A[r.x, r.y]) >> 4, hl.i32(B[r.x, r.y]) >> 4] += 1
    p = F("jh_p"); p[i, j] = hl.f32(h[i, j]) / hl.f32(S['W'] * S['H'])
    rb = hl.RDom([hl.Range(0, 16), hl.Range(0, 16)], "rb")
    ent = F("jh_entropy")
    ent[()] = 0.0
    pv = p[rb.x, rb.y]
    ent[()] += hl.select(pv > 0.0, -pv * hl.log(hl.max(pv, 1e-30)), 0.0)
    est_in(A, E['W'], E['H']); est_in(B, E['W'], E['H']); est_out(p, [i, j], 16, 16)
    return [p, ent], [A, B]


# 18 ------------------------------------------------------------------------------------------
@spec("area_downscale_param_factor", "uint16 area downscale by a ranged integer factor F (Param in the input size F*OW, the RDom(0,F,0,F) extent and the rounding divisor)",
      {'F': (1, 4), 'OW': (1, 300), 'OH': (1, 200)},
      outs=lambda v: [(U16, [v['OW'], v['OH']])],
      data=lambda v, r: [rimg(r, (v['F'] * v['OW'], v['F'] * v['OH']), np.uint16)])
def area(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y = V("x", "y")
    Fp = S['F']
    r = hl.RDom([hl.Range(0, Fp), hl.Range(0, Fp)], "r")
    s = F("area_sum"); s[x, y] = hl.sum(hl.u32(inp[Fp * x + r.x, Fp * y + r.y]))
    o = F("area_down")
    o[x, y] = hl.u16((s[x, y] + hl.u32(Fp * Fp / 2)) / hl.u32(Fp * Fp))
    est_in(inp, E['F'] * E['OW'], E['F'] * E['OH']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [inp]


# 19 ------------------------------------------------------------------------------------------
@spec("colormap_tuple_output_u16", "uint16 depth smoothed (u32, repeat_edge), then a jet colormap as a Tuple-valued OUTPUT Func (3 uint8 buffers) built from integer hl.select chains",
      WH,
      outs=lambda v: [(U8, [v['W'], v['H']])] * 3,
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16)])
def colormap(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    sm = F("cm_smooth")
    sm[x, y] = (hl.u32(e[x - 1, y]) + 2 * hl.u32(e[x, y]) + hl.u32(e[x + 1, y]) + 2) / 4
    q = hl.i32(sm[x, y] >> 6)
    rr = hl.select(q < 384, 0, q < 640, q - 384, q < 896, 255, 255 - (q - 896))
    gg = hl.select(q < 128, 0, q < 384, q - 128, q < 640, 255, q < 896, 255 - (q - 640), 0)
    bb = hl.select(q < 128, 128 + q, q < 384, 255, q < 640, 255 - (q - 384), 0)
    cm = F("colormap")
    cm[x, y] = (hl.u8(rr), hl.u8(gg), hl.u8(bb))
    est_in(inp, E['W'], E['H']); est_out(cm, [x, y], E['W'], E['H'])
    return [cm], [inp]


# 20 ------------------------------------------------------------------------------------------
@spec("dct8x8_blocks", "blockwise 8x8 DCT-II: cos table Func ct[k,n], one 2-D RDom(8x8) sum with block index x/8*8 and frequency x%8, BW,BH ranged",
      {'BW': (1, 100), 'BH': (1, 75)},
      outs=lambda v: [(F32, [8 * v['BW'], 8 * v['BH']])],
      data=lambda v, r: [rimg(r, (8 * v['BW'], 8 * v['BH']))], tol=1e-3)
def dct(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y, k, n = V("x", "y", "k", "n")
    ct = F("dct_cos")
    ct[k, n] = hl.cos(hl.f32((2 * n + 1) * k) * (math.pi / 16.0)) * \
        hl.select(k == 0, math.sqrt(1.0 / 8.0), math.sqrt(2.0 / 8.0))
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    o = F("dct8x8")
    o[x, y] = hl.sum(ct[x % 8, r.x] * ct[y % 8, r.y] * inp[(x / 8) * 8 + r.x, (y / 8) * 8 + r.y])
    est_in(inp, 8 * E['BW'], 8 * E['BH']); est_out(o, [x, y], 8 * E['BW'], 8 * E['BH'])
    return [o], [inp]
