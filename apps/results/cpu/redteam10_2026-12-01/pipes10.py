"""Red-team round 10 pipelines for Diet: names and styles not used by rounds 1-9 (camera-pipe pieces, ML layers ported
from PyTorch, signal processing, scientific, odd Halide usage). Same spec format as ../redteam9_2026-12-01/pipes9.py;
helpers imported from pipes9 through importlib (not copied). target: 'A' = AVX-512 target, 'B' = AVX2 target."""
import importlib.util
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec9 = importlib.util.spec_from_file_location("pipes_round9", os.path.join(_here, "..", "redteam9_2026-12-01", "pipes9.py"))
_round9 = importlib.util.module_from_spec(_spec9)
_spec9.loader.exec_module(_round9)
_round3 = _round9._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round9.V, _round9.est_in, _round9.est_out, _round9.fa, _round9.rimg, _round9.RD, _round9.TARGETS
D, MX, runif = _round9.D, _round9.MX, _round9.runif
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round9.F32, _round9.F64, _round9.U8, _round9.U16, _round9.U32, _round9.U64,
                                                  _round9.I8, _round9.I16, _round9.I32, _round9.I64)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def randint(r, shape, lo, hi, dtype=np.int32):
    return fa(r.integers(lo, hi + 1, size=shape).astype(dtype))


# ======================================= camera pipe / image =================================================

@spec("hot_pixel_suppress_bayer_same_color_u16", "camera-pipe hot-pixel suppression: clamp each raw u16 pixel to [min, max] of its 4 same-colour neighbours at distance 2 (repeat_edge)",
      {'W': (2, 1024), 'H': (2, 768)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 1023, np.uint16)], target='B')
def hotpix(S, E):
    im = hl.ImageParam(U16, 2, "raw")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    a, b, c, d = e[x - 2, y], e[x + 2, y], e[x, y - 2], e[x, y + 2]
    o = F("hp_out"); o[x, y] = hl.clamp(e[x, y], hl.min(hl.min(a, b), hl.min(c, d)), hl.max(hl.max(a, b), hl.max(c, d)))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("deinterleave_bayer_mux_4planes_u16", "camera-pipe deinterleave: raw [2W, 2H] -> [W, H, 4] planes (gr, r, b, gb) chosen by hl.mux on the plane var, then a green average plane as a 2nd output",
      {'W': (1, 512), 'H': (1, 384)},
      outs=lambda v: [(U16, [v['W'], v['H'], 4]), (U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (2 * v['W'], 2 * v['H']), 0, 4095, np.uint16)], target='A')
def deint(S, E):
    im = hl.ImageParam(U16, 2, "raw")
    x, y, c = V("x", "y", "c")
    dp = F("di_planes")
    dp[x, y, c] = hl.mux(c, [im[2 * x, 2 * y], im[2 * x + 1, 2 * y], im[2 * x, 2 * y + 1], im[2 * x + 1, 2 * y + 1]])
    g = F("di_green"); g[x, y] = hl.u16((hl.u32(dp[x, y, 0]) + hl.u32(dp[x, y, 3]) + 1) / 2)
    est_in(im, 2 * E['W'], 2 * E['H']); est_out(dp, [x, y, c], E['W'], E['H'], 4); est_out(g, [x, y], E['W'], E['H'])
    return [dp, g], [im]


_CCM = [[1.6, -0.4, -0.2], [-0.3, 1.5, -0.2], [0.05, -0.55, 1.5]]


@spec("ccm_float_param_matrix_planar", "colour-correction matrix held in 9 float Params + 3 offset Params (not ranged), applied per pixel over planar [W, H, 3] f32 with an RDom over input channels and a mux-selected Param coefficient, then clamp",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 3))], tol=1e-5, target='B')
def ccm(S, E):
    im = hl.ImageParam(F32, 3, "rgb")
    x, y, c = V("x", "y", "c")
    m = [[hl.Param(F32, "ccm_%d%d" % (i, j), _CCM[i][j]) for j in range(3)] for i in range(3)]
    off = [hl.Param(F32, "ccm_off%d" % i, 0.01 * (i + 1)) for i in range(3)]
    r = RD((0, 3))
    coef = hl.mux(c, [hl.mux(r.x, [m[i][0], m[i][1], m[i][2]]) for i in range(3)])
    acc = F("ccm_acc"); acc[x, y, c] = hl.mux(c, [off[0], off[1], off[2]])
    acc[x, y, c] += coef * im[x, y, r.x]
    o = F("ccm_out"); o[x, y, c] = hl.clamp(acc[x, y, c], 0.0, 1.0)
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [im]


@spec("gamma_curve_computed_lut_u16_to_u8", "gamma via a LUT Func computed from pow over 0..1023 (index clamped), gathered at raw >> 2 of a u16 (12-bit) image, black level Param BL subtracted first",
      {'W': (1, 1024), 'H': (1, 768), 'BL': (0, 256)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16)], target='A')
def gamlut(S, E):
    im = hl.ImageParam(U16, 2, "raw")
    x, y, i = V("x", "y", "i")
    lut = F("gl_lut"); lut[i] = hl.u8(hl.clamp(255.0 * hl.pow(hl.f32(hl.clamp(i, 0, 1023)) / 1023.0, 1.0 / 2.2) + 0.5, 0.0, 255.0))
    v = hl.max(hl.i32(im[x, y]) - S['BL'], 0) >> 2
    o = F("gl_out"); o[x, y] = lut[hl.clamp(v, 0, 1023)]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("local_laplacian_1level_K_param", "local Laplacian with one pyramid level and K (2..8) intensity levels: remap per level k (a 3rd pure dim of extent K), 2x2 downsample of each remapped image, Laplacian = remap - upsampled(nearest) down, output = interpolated Laplacian at the pixel's level (data-dependent k index) + upsampled down of the input",
      {'W': (2, 512), 'H': (2, 384), 'K': (2, 8)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def llap(S, E):
    im = hl.ImageParam(F32, 2, "gray")
    x, y, k = V("x", "y", "k")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    lvl = hl.f32(k) / hl.f32(S['K'] - 1)
    rm = F("ll_remap"); d = e[x, y] - lvl
    rm[x, y, k] = lvl + d + 0.5 * d * hl.exp(-d * d * 8.0)
    dn = F("ll_down"); dn[x, y, k] = 0.25 * (rm[2 * x, 2 * y, k] + rm[2 * x + 1, 2 * y, k] + rm[2 * x, 2 * y + 1, k] + rm[2 * x + 1, 2 * y + 1, k])
    lap = F("ll_lap"); lap[x, y, k] = rm[x, y, k] - dn[x / 2, y / 2, k]
    gd = F("ll_gdown"); gd[x, y] = 0.25 * (e[2 * x, 2 * y] + e[2 * x + 1, 2 * y] + e[2 * x, 2 * y + 1] + e[2 * x + 1, 2 * y + 1])
    lf = hl.clamp(e[x, y], 0.0, 1.0) * hl.f32(S['K'] - 1)
    li = hl.clamp(hl.i32(lf), 0, S['K'] - 2)
    fr = lf - hl.f32(li)
    o = F("ll_out"); o[x, y] = gd[x / 2, y / 2] + (1.0 - fr) * lap[x, y, li] + fr * lap[x, y, li + 1]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("hdr_merge_3_exposures_hat_weights", "HDR merge of 3 u16 exposures (3 ImageParams) with hat weights w=1-|2v-1| and float exposure-time Params: radiance = sum w_i v_i / t_i / max(sum w_i, eps); 2nd output: index of the best-exposed frame (u8 argmax of w by select chain)",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16) for _ in range(3)], tol=1e-4, target='A')
def hdr(S, E):
    ims = [hl.ImageParam(U16, 2, "ex%d" % i) for i in range(3)]
    ts = [hl.Param(F32, "t%d" % i, [1.0, 4.0, 16.0][i]) for i in range(3)]
    x, y = V("x", "y")
    nv = [F("hd_n%d" % i) for i in range(3)]
    for i in range(3):
        nv[i][x, y] = hl.f32(ims[i][x, y]) / 65535.0
    w = [1.0 - hl.abs(2.0 * nv[i][x, y] - 1.0) for i in range(3)]
    o = F("hd_rad"); o[x, y] = (w[0] * nv[0][x, y] / ts[0] + w[1] * nv[1][x, y] / ts[1] + w[2] * nv[2][x, y] / ts[2]) / hl.max(w[0] + w[1] + w[2], 1e-4)
    b = F("hd_best"); b[x, y] = hl.u8(hl.select((w[0] >= w[1]) & (w[0] >= w[2]), 0, w[1] >= w[2], 1, 2))
    for im in ims:
        est_in(im, E['W'], E['H'])
    est_out(o, [x, y], E['W'], E['H']); est_out(b, [x, y], E['W'], E['H'])
    return [o, b], ims


@spec("erode_structuring_element_buffer_u8", "morphological erosion by a structuring-element buffer se[(2R+1)^2] (u8 0/1, R 1..3 ranged): min over RDom(2R+1, 2R+1) of select(se != 0, img, 255), constant_exterior 255",
      {'W': (1, 640), 'H': (1, 480), 'R': (1, 3)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), randint(r, (2 * v['R'] + 1, 2 * v['R'] + 1), 0, 1, np.uint8)], target='B')
def erode_se(S, E):
    im = hl.ImageParam(U8, 2, "img"); se = hl.ImageParam(U8, 2, "se")
    x, y = V("x", "y")
    e = BF.constant_exterior(im, hl.u8(255), [(0, S['W']), (0, S['H'])])
    r = RD((0, 2 * S['R'] + 1), (0, 2 * S['R'] + 1))
    o = F("er_out"); o[x, y] = hl.u8(255)
    o[x, y] = hl.min(o[x, y], hl.select(se[r.x, r.y] != 0, e[x + r.x - S['R'], y + r.y - S['R']], hl.u8(255)))
    est_in(im, E['W'], E['H']); est_in(se, 2 * E['R'] + 1, 2 * E['R'] + 1); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im, se]


@spec("lens_shading_table_bilinear_gain_u16", "lens-shading correction: a small gain table [TW, TH] (ranged Params) bilinearly interpolated at pixel centres mapped by (x*(TW-1))/(W-1) in float, applied to a u16 image with saturation",
      {'W': (2, 1024), 'H': (2, 768), 'TW': (2, 17), 'TH': (2, 13)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16), runif(r, (v['TW'], v['TH']), 1.0, 2.0)], target='A')
def lenssh(S, E):
    im = hl.ImageParam(U16, 2, "img"); g = hl.ImageParam(F32, 2, "gain")
    x, y = V("x", "y")
    fx = hl.f32(x) * hl.f32(S['TW'] - 1) / hl.f32(S['W'] - 1)
    fy = hl.f32(y) * hl.f32(S['TH'] - 1) / hl.f32(S['H'] - 1)
    ix = hl.clamp(hl.i32(fx), 0, S['TW'] - 2); iy = hl.clamp(hl.i32(fy), 0, S['TH'] - 2)
    ax = fx - hl.f32(ix); ay = fy - hl.f32(iy)
    gi = F("ls_gain")
    gi[x, y] = (1 - ay) * ((1 - ax) * g[ix, iy] + ax * g[ix + 1, iy]) + ay * ((1 - ax) * g[ix, iy + 1] + ax * g[ix + 1, iy + 1])
    o = F("ls_out"); o[x, y] = hl.u16(hl.clamp(hl.f32(im[x, y]) * gi[x, y] + 0.5, 0.0, 65535.0))
    est_in(im, E['W'], E['H']); est_in(g, E['TW'], E['TH']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im, g]


@spec("bilateral_grid_scatter_rdom_trilinear_slice", "bilateral grid: scatter (pure def 0 + update over an RDom of the S x S cell, rounding the intensity to one of 8 z bins selected by a where-free select), 3-tap blur in z and x, trilinear slice at each pixel; cell size S ranged (2..8)",
      {'W': (1, 512), 'H': (1, 384), 'S': (2, 8)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-3, target='B')
def bgrid(S, E):
    im = hl.ImageParam(F32, 2, "gray")
    x, y, z = V("x", "y", "z")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    r = RD((0, S['S']), (0, S['S']))
    v = hl.clamp(e[x * S['S'] + r.x, y * S['S'] + r.y], 0.0, 1.0)
    zi = hl.i32(v * 7.0 + 0.5)
    gr = F("bg_grid"); gr[x, y, z] = hl.Tuple([hl.f32(0), hl.f32(0)])
    gr[x, y, z] = hl.Tuple([gr[x, y, z][0] + hl.select(zi == z, v, 0.0), gr[x, y, z][1] + hl.select(zi == z, 1.0, 0.0)])
    bz = F("bg_bz"); bz[x, y, z] = hl.Tuple([gr[x, y, z - 1][i] + 2 * gr[x, y, z][i] + gr[x, y, z + 1][i] for i in range(2)])
    bx = F("bg_bx"); bx[x, y, z] = hl.Tuple([bz[x - 1, y, z][i] + 2 * bz[x, y, z][i] + bz[x + 1, y, z][i] for i in range(2)])
    val = hl.clamp(e[x, y], 0.0, 1.0) * 7.0
    zf = hl.clamp(hl.i32(val), 0, 6); az = val - hl.f32(zf)
    gx = hl.f32(x) / hl.f32(S['S']); gy = hl.f32(y) / hl.f32(S['S'])
    xf = hl.i32(gx); yf = hl.i32(gy); ax = gx - hl.f32(xf); ay = gy - hl.f32(yf)

    def tri(i):
        acc = 0.0
        for dx, wx in ((0, 1 - ax), (1, ax)):
            for dy, wy in ((0, 1 - ay), (1, ay)):
                for dz, wz in ((0, 1 - az), (1, az)):
                    acc = acc + wx * wy * wz * bx[xf + dx, yf + dy, zf + dz][i]
        return acc
    o = F("bg_out"); o[x, y] = tri(0) / hl.max(tri(1), 1e-6)
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


# ======================================= ML layers ============================================================

@spec("depthwise_separable_bn_relu6_cinner", "MobileNet block ported from PyTorch, channels innermost [c, x, y]: depthwise 3x3 (zero pad, per-channel weights [9, C]), BN scale/shift buffers, ReLU6, then pointwise 1x1 C->CO by RDom, BN, ReLU6",
      {'C': (1, 32), 'CO': (1, 48), 'W': (1, 56), 'H': (1, 56)},
      outs=lambda v: [(F32, [v['CO'], v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['C'], v['W'], v['H'])), rimg(r, (9, v['C'])), runif(r, (2, v['C']), 0.5, 1.5), rimg(r, (v['C'], v['CO'])), runif(r, (2, v['CO']), 0.5, 1.5)], tol=1e-4, target='A')
def dwsep(S, E):
    x_ = hl.ImageParam(F32, 3, "x"); wd = hl.ImageParam(F32, 2, "wd"); bn1 = hl.ImageParam(F32, 2, "bn1")
    wp = hl.ImageParam(F32, 2, "wp"); bn2 = hl.ImageParam(F32, 2, "bn2")
    c, x, y, o = V("c", "x", "y", "o")
    xe = BF.constant_exterior(x_, 0.0, [(0, S['C']), (0, S['W']), (0, S['H'])])
    r = RD((0, 3), (0, 3))
    dw = F("ds_dw"); dw[c, x, y] = 0.0
    dw[c, x, y] += wd[r.x + 3 * r.y, c] * xe[c, x + r.x - 1, y + r.y - 1]
    a1 = F("ds_a1"); a1[c, x, y] = hl.clamp(dw[c, x, y] * bn1[0, c] + bn1[1, c], 0.0, 6.0)
    rc = RD((0, S['C']), name="rc")
    pw = F("ds_pw"); pw[o, x, y] = 0.0
    pw[o, x, y] += wp[rc, o] * a1[rc, x, y]
    out = F("ds_out"); out[o, x, y] = hl.clamp(pw[o, x, y] * bn2[0, o] + bn2[1, o], 0.0, 6.0)
    est_in(x_, E['C'], E['W'], E['H']); est_in(wd, 9, E['C']); est_in(bn1, 2, E['C']); est_in(wp, E['C'], E['CO']); est_in(bn2, 2, E['CO'])
    est_out(out, [o, x, y], E['CO'], E['W'], E['H'])
    return [out], [x_, wd, bn1, wp, bn2]


@spec("squeeze_excitation_gap_fc_sigmoid_scale", "squeeze-excitation on [W, H, C] planar: global average pool over (W, H) by RDom, FC C->CR + ReLU, FC CR->C + sigmoid, channel-wise rescale of the input",
      {'W': (1, 64), 'H': (1, 64), 'C': (1, 64), 'CR': (1, 16)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C'])), rimg(r, (v['C'], v['CR'])), rimg(r, (v['CR'], v['C']))], tol=1e-4, target='B')
def se_blk(S, E):
    x_ = hl.ImageParam(F32, 3, "x"); w1 = hl.ImageParam(F32, 2, "w1"); w2 = hl.ImageParam(F32, 2, "w2")
    x, y, c, j = V("x", "y", "c", "j")
    r = RD((0, S['W']), (0, S['H']))
    gp = F("se_pool"); gp[c] = 0.0
    gp[c] += x_[r.x, r.y, c]
    gm = F("se_mean"); gm[c] = gp[c] / hl.f32(S['W'] * S['H'])
    rc = RD((0, S['C']), name="rc")
    h1 = F("se_fc1"); h1[j] = 0.0
    h1[j] += w1[rc, j] * gm[rc]
    rj = RD((0, S['CR']), name="rj")
    h2 = F("se_fc2"); h2[c] = 0.0
    h2[c] += w2[rj, c] * hl.max(h1[rj], 0.0)
    o = F("se_out"); o[x, y, c] = x_[x, y, c] / (1.0 + hl.exp(-h2[c]))
    est_in(x_, E['W'], E['H'], E['C']); est_in(w1, E['C'], E['CR']); est_in(w2, E['CR'], E['C']); est_out(o, [x, y, c], E['W'], E['H'], E['C'])
    return [o], [x_, w1, w2]


@spec("layernorm_affine_in_separate_func", "LayerNorm over d of x[d, t] written the PyTorch way: mean Func, centred Func, var Func (biased), normalised Func, and the elementwise affine (gamma, beta) in a separate output Func; a 2nd output is the per-token rstd",
      {'Dm': (1, 768), 'T': (1, 256)},
      outs=lambda v: [(F32, [v['Dm'], v['T']]), (F32, [v['T']])],
      data=lambda v, r: [rimg(r, (v['Dm'], v['T'])), rimg(r, (v['Dm'],)), rimg(r, (v['Dm'],))], tol=1e-4, target='A')
def lnaff(S, E):
    x_ = hl.ImageParam(F32, 2, "x"); g = hl.ImageParam(F32, 1, "gamma"); b = hl.ImageParam(F32, 1, "beta")
    d, t = V("d", "t")
    r = RD((0, S['Dm']))
    mu = F("ln_mean"); mu[t] = 0.0; mu[t] += x_[r, t]; mu[t] = mu[t] / hl.f32(S['Dm'])
    xc = F("ln_xc"); xc[d, t] = x_[d, t] - mu[t]
    var = F("ln_var"); var[t] = 0.0; var[t] += xc[r, t] * xc[r, t]
    rs = F("ln_rstd"); rs[t] = 1.0 / hl.sqrt(var[t] / hl.f32(S['Dm']) + 1e-5)
    nz = F("ln_norm"); nz[d, t] = xc[d, t] * rs[t]
    o = F("ln_affine"); o[d, t] = nz[d, t] * g[d] + b[d]
    est_in(x_, E['Dm'], E['T']); est_in(g, E['Dm']); est_in(b, E['Dm']); est_out(o, [d, t], E['Dm'], E['T']); est_out(rs, [t], E['T'])
    return [o, rs], [x_, g, b]


@spec("rmsnorm_then_rotary_sincos_tables", "RMSNorm over d of x[d, t, h] (weight vector) then rotary embedding on pairs (2i, 2i+1) with cos/sin tables [HD, T] (HD = half head dim, ranged), pair member chosen by d % 2 select; output [2*HD, T, H]",
      {'HD': (1, 64), 'T': (1, 128), 'H': (1, 8)},
      outs=lambda v: [(F32, [2 * v['HD'], v['T'], v['H']])],
      data=lambda v, r: [rimg(r, (2 * v['HD'], v['T'], v['H'])), runif(r, (2 * v['HD'],), 0.5, 1.5), runif(r, (v['HD'], v['T']), -1, 1), runif(r, (v['HD'], v['T']), -1, 1)], tol=1e-4, target='B')
def rope(S, E):
    x_ = hl.ImageParam(F32, 3, "x"); w = hl.ImageParam(F32, 1, "w"); cs = hl.ImageParam(F32, 2, "cos"); sn = hl.ImageParam(F32, 2, "sin")
    d, t, h = V("d", "t", "h")
    DD = 2 * S['HD']
    r = RD((0, DD))
    ss = F("rp_ss"); ss[t, h] = 0.0; ss[t, h] += x_[r, t, h] * x_[r, t, h]
    n = F("rp_norm"); n[d, t, h] = x_[d, t, h] * w[d] / hl.sqrt(ss[t, h] / hl.f32(DD) + 1e-6)
    i = d / 2
    ev = n[2 * i, t, h]; od = n[2 * i + 1, t, h]
    o = F("rp_out"); o[d, t, h] = hl.select(d % 2 == 0, ev * cs[i, t] - od * sn[i, t], ev * sn[i, t] + od * cs[i, t])
    est_in(x_, 2 * E['HD'], E['T'], E['H']); est_in(w, 2 * E['HD']); est_in(cs, E['HD'], E['T']); est_in(sn, E['HD'], E['T'])
    est_out(o, [d, t, h], 2 * E['HD'], E['T'], E['H'])
    return [o], [x_, w, cs, sn]


@spec("causal_depthwise_conv1d_silu_mamba", "Mamba-style causal depthwise conv1d, [c, t] channels innermost, K=4 taps per channel w[k, c], bias, left zero padding by select(t-k >= 0), then SiLU; then a gated product with a 2nd input z (silu(z))",
      {'C': (1, 256), 'T': (1, 512)},
      outs=lambda v: [(F32, [v['C'], v['T']])],
      data=lambda v, r: [rimg(r, (v['C'], v['T'])), rimg(r, (4, v['C'])), rimg(r, (v['C'],)), rimg(r, (v['C'], v['T']))], tol=1e-4, target='A')
def mamba(S, E):
    x_ = hl.ImageParam(F32, 2, "x"); w = hl.ImageParam(F32, 2, "w"); b = hl.ImageParam(F32, 1, "b"); z = hl.ImageParam(F32, 2, "z")
    c, t = V("c", "t")
    r = RD((0, 4))
    cv = F("mb_conv"); cv[c, t] = b[c]
    cv[c, t] += hl.select(t - r.x >= 0, w[r.x, c] * x_[c, hl.max(t - r.x, 0)], 0.0)
    sl = F("mb_silu"); sl[c, t] = cv[c, t] / (1.0 + hl.exp(-cv[c, t]))
    o = F("mb_out"); o[c, t] = sl[c, t] * (z[c, t] / (1.0 + hl.exp(-z[c, t])))
    est_in(x_, E['C'], E['T']); est_in(w, 4, E['C']); est_in(b, E['C']); est_in(z, E['C'], E['T']); est_out(o, [c, t], E['C'], E['T'])
    return [o], [x_, w, b, z]


@spec("topk3_by_repeated_argmax_mask", "top-3 per column of scores[N, B] by repeated hl.argmax: step k masks the previous winners with select(n == idx_j, -inf); outputs i32 indices [3, B] (mux over k) and values [3, B]",
      {'N': (1, 1000), 'B': (1, 64)},
      outs=lambda v: [(I32, [3, v['B']]), (F32, [3, v['B']])],
      data=lambda v, r: [fa(r.permutation(v['N'] * v['B']).reshape(v['N'], v['B'], order='F').astype(np.float32))], target='B')
def topk(S, E):
    s = hl.ImageParam(F32, 2, "scores")
    k, b = V("k", "b")
    r = RD((0, S['N']))
    a0 = F("tk_a0"); a0[b] = hl.argmax(r, s[r, b])
    i0 = a0[b][0]
    a1 = F("tk_a1"); a1[b] = hl.argmax(r, hl.select(r.x == i0, -1e30, s[r, b]))
    i1 = a1[b][0]
    a2 = F("tk_a2"); a2[b] = hl.argmax(r, hl.select((r.x == i0) | (r.x == i1), -1e30, s[r, b]))
    oi = F("tk_idx"); oi[k, b] = hl.mux(k, [a0[b][0], a1[b][0], a2[b][0]])
    ov = F("tk_val"); ov[k, b] = hl.mux(k, [a0[b][1], a1[b][1], a2[b][1]])
    est_in(s, E['N'], E['B']); est_out(oi, [k, b], 3, E['B']); est_out(ov, [k, b], 3, E['B'])
    return [oi, ov], [s]


@spec("attention_key_padding_mask_buffer", "single-batch multi-head attention [d, t, h] with a u8 key-padding mask buffer[T] (PyTorch key_padding_mask): scores + select(mask, -1e9, 0), max-subtracted softmax over keys, P.V",
      {'Dh': (1, 64), 'T': (1, 128), 'H': (1, 4)},
      outs=lambda v: [(F32, [v['Dh'], v['T'], v['H']])],
      data=lambda v, r: [rimg(r, (v['Dh'], v['T'], v['H'])), rimg(r, (v['Dh'], v['T'], v['H'])), rimg(r, (v['Dh'], v['T'], v['H'])),
                         fa(np.array([1 if (i % 5 == 3) else 0 for i in range(v['T'])], dtype=np.uint8))], tol=1e-4, target='A')
def attn_kpm(S, E):
    q = hl.ImageParam(F32, 3, "q"); k_ = hl.ImageParam(F32, 3, "k"); vv = hl.ImageParam(F32, 3, "v"); m = hl.ImageParam(U8, 1, "kpm")
    d, i, j, h = V("d", "i", "j", "h")
    rd = RD((0, S['Dh']), name="rd")
    sc = F("ak_s"); sc[j, i, h] = 0.0
    sc[j, i, h] += q[rd, i, h] * k_[rd, j, h]
    sm = F("ak_sm"); sm[j, i, h] = sc[j, i, h] / hl.sqrt(hl.f32(S['Dh'])) + hl.select(m[j] != 0, -1e9, 0.0)
    rj = RD((0, S['T']), name="rj")
    mx = F("ak_max"); mx[i, h] = hl.maximum(sm[rj, i, h])
    ex = F("ak_exp"); ex[j, i, h] = hl.exp(sm[j, i, h] - mx[i, h])
    den = F("ak_den"); den[i, h] = 0.0; den[i, h] += ex[rj, i, h]
    pv = F("ak_pv"); pv[d, i, h] = 0.0
    pv[d, i, h] += ex[rj, i, h] * vv[d, rj, h]
    o = F("ak_out"); o[d, i, h] = pv[d, i, h] / den[i, h]
    for ip in (q, k_, vv):
        est_in(ip, E['Dh'], E['T'], E['H'])
    est_in(m, E['T']); est_out(o, [d, i, h], E['Dh'], E['T'], E['H'])
    return [o], [q, k_, vv, m]


@spec("embedding_bag_offsets_where_mean", "PyTorch EmbeddingBag(mode='mean') with an offsets buffer: bag b sums rows of table[Dm, V] at idx[offs[b] + r] for r in RDom(0, MAXB) where r < offs[b+1]-offs[b] (indices clamped), divided by the bag length (empty bag -> 0)",
      {'Dm': (1, 128), 'NB': (1, 64), 'MAXB': (1, 8), 'Vs': (1, 500)},
      outs=lambda v: [(F32, [v['Dm'], v['NB']])],
      data=lambda v, r: _ebag_data(v, r), tol=1e-4, target='B')
def ebag(S, E):
    tab = hl.ImageParam(F32, 2, "table"); idx = hl.ImageParam(I32, 1, "idx"); offs = hl.ImageParam(I32, 1, "offs")
    d, b = V("d", "b")
    r = RD((0, S['MAXB']))
    ln = offs[b + 1] - offs[b]
    r.where(r.x < ln)
    NI = offs[S['NB']]
    ii = hl.clamp(idx[hl.clamp(offs[b] + r.x, 0, S['NB'] * S['MAXB'] - 1)], 0, S['Vs'] - 1)
    sm = F("eb_sum"); sm[d, b] = 0.0
    sm[d, b] += tab[d, ii]
    o = F("eb_mean"); o[d, b] = hl.select(ln > 0, sm[d, b] / hl.f32(hl.max(ln, 1)), 0.0)
    est_in(tab, E['Dm'], E['Vs']); est_in(idx, E['NB'] * E['MAXB']); est_in(offs, E['NB'] + 1); est_out(o, [d, b], E['Dm'], E['NB'])
    del NI
    return [o], [tab, idx, offs]


def _ebag_data(v, r):
    lens = r.integers(0, v['MAXB'] + 1, size=v['NB'])
    offs = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    idx = r.integers(0, v['Vs'], size=v['NB'] * v['MAXB']).astype(np.int32)
    return [rimg(r, (v['Dm'], v['Vs'])), fa(idx), fa(offs)]


@spec("gqa_kv_head_div_group_param", "grouped-query attention: query head h reads kv head h / G (G ranged 1..4, H = G * KVH query heads), scores/softmax/PV with max subtraction via hl.maximum, [d, t, h] layout",
      {'Dh': (1, 32), 'T': (1, 96), 'KVH': (1, 4), 'G': (1, 4)},
      outs=lambda v: [(F32, [v['Dh'], v['T'], v['KVH'] * v['G']])],
      data=lambda v, r: [rimg(r, (v['Dh'], v['T'], v['KVH'] * v['G'])), rimg(r, (v['Dh'], v['T'], v['KVH'])), rimg(r, (v['Dh'], v['T'], v['KVH']))], tol=1e-4, target='A')
def gqa(S, E):
    q = hl.ImageParam(F32, 3, "q"); k_ = hl.ImageParam(F32, 3, "k"); vv = hl.ImageParam(F32, 3, "v")
    d, i, j, h = V("d", "i", "j", "h")
    kh = h / S['G']
    rd = RD((0, S['Dh']), name="rd")
    sc = F("gq_s"); sc[j, i, h] = 0.0
    sc[j, i, h] += q[rd, i, h] * k_[rd, j, kh]
    rj = RD((0, S['T']), name="rj")
    mx = F("gq_max"); mx[i, h] = hl.maximum(sc[rj, i, h])
    ex = F("gq_exp"); ex[j, i, h] = hl.exp((sc[j, i, h] - mx[i, h]) * 0.25)
    den = F("gq_den"); den[i, h] = hl.sum(ex[rj, i, h])
    o = F("gq_out"); o[d, i, h] = hl.sum(ex[rj, i, h] * vv[d, rj, kh]) / den[i, h]
    est_in(q, E['Dh'], E['T'], E['KVH'] * E['G']); est_in(k_, E['Dh'], E['T'], E['KVH']); est_in(vv, E['Dh'], E['T'], E['KVH'])
    est_out(o, [d, i, h], E['Dh'], E['T'], E['KVH'] * E['G'])
    return [o], [q, k_, vv]


@spec("cross_entropy_logsumexp_labels_0d_mean", "cross-entropy loss: logits[C, N], i32 labels[N] (clamped gather), per-sample loss = logsumexp - logit[label]; outputs per-sample f32 loss and the 0-d mean loss",
      {'C': (1, 1000), 'N': (1, 128)},
      outs=lambda v: [(F32, [v['N']]), (F32, [])],
      data=lambda v, r: [rimg(r, (v['C'], v['N'])), randint(r, (v['N'],), 0, v['C'] - 1)], tol=1e-4, target='B')
def xent(S, E):
    lg = hl.ImageParam(F32, 2, "logits"); lb = hl.ImageParam(I32, 1, "labels")
    n, = V("n")
    rc = RD((0, S['C']), name="rc")
    mx = F("ce_max"); mx[n] = hl.maximum(lg[rc, n])
    se = F("ce_sumexp"); se[n] = hl.sum(hl.exp(lg[rc, n] - mx[n]))
    ls = F("ce_loss"); ls[n] = hl.log(se[n]) + mx[n] - lg[hl.clamp(lb[n], 0, S['C'] - 1), n]
    rn = RD((0, S['N']), name="rn")
    mn = F("ce_mean"); mn[()] = 0.0
    mn[()] += ls[rn] / hl.f32(S['N'])
    est_in(lg, E['C'], E['N']); est_in(lb, E['N']); est_out(ls, [n], E['N'])
    return [ls, mn], [lg, lb]


@spec("fake_quant_per_tensor_minmax_u8", "QAT fake-quantisation per tensor: 0-d global min and max Funcs over [W, H], scale = (max-min)/255, zero point, round to u8 code, dequantise; outputs dequantised f32 and the u8 codes",
      {'W': (1, 1024), 'H': (1, 512)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def fq(S, E):
    x_ = hl.ImageParam(F32, 2, "x")
    x, y = V("x", "y")
    r = RD((0, S['W']), (0, S['H']))
    mn = F("fq_min"); mn[()] = hl.minimum(x_[r.x, r.y])
    mxx = F("fq_max"); mxx[()] = hl.maximum(x_[r.x, r.y])
    sc = F("fq_scale"); sc[()] = hl.max(mxx[()] - mn[()], 1e-8) / 255.0
    q = F("fq_code"); q[x, y] = hl.u8(hl.clamp(hl.round((x_[x, y] - mn[()]) / sc[()]), 0.0, 255.0))
    dq = F("fq_deq"); dq[x, y] = hl.f32(q[x, y]) * sc[()] + mn[()]
    est_in(x_, E['W'], E['H']); est_out(dq, [x, y], E['W'], E['H']); est_out(q, [x, y], E['W'], E['H'])
    return [dq, q], [x_]


# ======================================= signal processing ===================================================

@spec("cic_decimator_2int_scans_comb_M_param_i32", "CIC decimator: two cascaded integrators as order-dependent i32 scans over RDom(1, N-1) (wrapping adds), then decimation by a run-time factor M (1..16) and a 2-stage comb y[i] = s[iM] - 2 s[(i-1)M] + s[(i-2)M] (0 before start)",
      {'N': (1, 4000), 'M': (1, 16)},
      outs=lambda v: [(I32, [(v['N'] - 1) // v['M'] + 1])],
      data=lambda v, r: [randint(r, (v['N'],), -1000, 1000)], target='B')
def cic(S, E):
    x_ = hl.ImageParam(I32, 1, "x")
    n, i = V("n", "i")
    r = RD((1, S['N'] - 1))
    s1 = F("cic_int1"); s1[n] = x_[n]; s1[r] = s1[r] + s1[r - 1]
    s2 = F("cic_int2"); s2[n] = s1[n]; s2[r] = s2[r] + s2[r - 1]
    g = lambda k: hl.select(k >= 0, s2[hl.max(k, 0) * S['M']], 0)
    o = F("cic_out"); o[i] = g(i) - 2 * g(i - 1) + g(i - 2)
    est_in(x_, E['N']); est_out(o, [i], D(E['N'] - 1, E['M']) + 1)
    return [o], [x_]


@spec("goertzel_tuple_scan_per_bin", "Goertzel algorithm per frequency bin k (NBIN bins, coef table), a Tuple (s1, s2) update over RDom(0, N) (order-dependent recurrence s = x + c s1 - s2), then power per bin; bins as the pure var",
      {'N': (1, 2048), 'NBIN': (1, 64)},
      outs=lambda v: [(F32, [v['NBIN']])],
      data=lambda v, r: [runif(r, (v['N'],), -1, 1), fa((2 * np.cos(2 * np.pi * (np.arange(v['NBIN']) + 1) / 97.0)).astype(np.float32))], tol=2e-3, target='A')
def goertzel(S, E):
    x_ = hl.ImageParam(F32, 1, "x"); co = hl.ImageParam(F32, 1, "coef")
    k, = V("k")
    r = RD((0, S['N']))
    st = F("gz_state"); st[k] = hl.Tuple([hl.f32(0), hl.f32(0)])
    s1, s2 = st[k][0], st[k][1]
    st[k] = hl.Tuple([x_[r] + co[k] * s1 - s2, s1])
    p = F("gz_power"); a, b_ = st[k][0], st[k][1]
    p[k] = a * a + b_ * b_ - co[k] * a * b_
    est_in(x_, E['N']); est_in(co, E['NBIN']); est_out(p, [k], E['NBIN'])
    return [p], [x_, co]


@spec("sliding_median5_minmax_network_1d_batch", "sliding-window median of 5 per row of [N, B] by an explicit min/max network (Paeth-style: 7 compare-exchanges written as nested min/max exprs), repeat_edge",
      {'N': (1, 8000), 'B': (1, 8)},
      outs=lambda v: [(F32, [v['N'], v['B']])],
      data=lambda v, r: [rimg(r, (v['N'], v['B']))], target='B')
def med5(S, E):
    x_ = hl.ImageParam(F32, 2, "x")
    n, b = V("n", "b")
    e = BF.repeat_edge(x_, [(0, S['N']), (0, S['B'])])
    a = [e[n + k, b] for k in range(-2, 3)]
    # median of 5: max(min(max(a0,a1) ...)) classic formula
    f = F("md_lo"); f[n, b] = hl.Tuple([hl.min(a[0], a[1]), hl.max(a[0], a[1]), hl.min(a[3], a[4]), hl.max(a[3], a[4])])
    l1, h1, l2, h2 = f[n, b][0], f[n, b][1], f[n, b][2], f[n, b][3]
    # drop the overall min and max of the two pairs, then median of 3 of the remaining + a2
    u = hl.max(l1, l2); w = hl.min(h1, h2)
    m = F("md_out"); m[n, b] = hl.max(hl.min(u, w), hl.min(hl.max(u, w), a[2]))
    est_in(x_, E['N'], E['B']); est_out(m, [n, b], E['N'], E['B'])
    return [m], [x_]


@spec("peak_detect_local_max_thresh_count_0d", "1-D peak detection: u8 mask where x[n] > x[n-1], x[n] >= x[n+1] and x[n] > thr (a float Param), constant_exterior -inf; second output the 0-d i32 peak count",
      {'N': (1, 20000)},
      outs=lambda v: [(U8, [v['N']]), (I32, [])],
      data=lambda v, r: [rimg(r, (v['N'],))], target='A')
def peaks(S, E):
    x_ = hl.ImageParam(F32, 1, "x"); thr = hl.Param(F32, "thr", 0.5)
    n, = V("n")
    e = BF.constant_exterior(x_, -1e30, [(0, S['N'])])
    pk = F("pk_mask"); pk[n] = hl.u8(hl.select((e[n] > e[n - 1]) & (e[n] >= e[n + 1]) & (e[n] > thr), 1, 0))
    r = RD((0, S['N']))
    ct = F("pk_count"); ct[()] = 0; ct[()] += hl.i32(pk[r])
    est_in(x_, E['N']); est_out(pk, [n], E['N'])
    return [pk, ct], [x_]


@spec("downmix_5_1_to_stereo_i16_saturating", "5.1 -> stereo downmix of interleaved-order i16 audio [6, N] (channel innermost) with fixed Q14 gains, i32 accumulate, round, saturate to i16; output [2, N] with mux over the output channel",
      {'N': (1, 48000)},
      outs=lambda v: [(I16, [2, v['N']])],
      data=lambda v, r: [rimg(r, (6, v['N']), np.int16)], target='B')
def downmix(S, E):
    x_ = hl.ImageParam(I16, 2, "x")
    c, n = V("c", "n")
    gL = [16384, 0, 11585, 5793, 11585, 0]
    gR = [0, 16384, 11585, 5793, 0, 11585]
    accs = []
    for g in (gL, gR):
        a = hl.i32(0)
        for k, gk in enumerate(g):
            if gk:
                a = a + gk * hl.i32(x_[k, n])
        accs.append(a)
    o = F("dm_out"); o[c, n] = hl.i16(hl.clamp((hl.mux(c, accs) + (1 << 13)) >> 14, -32768, 32767))
    est_in(x_, 6, E['N']); est_out(o, [c, n], 2, E['N'])
    return [o], [x_]


# ======================================= scientific ==========================================================

@spec("jacobi3d_dirichlet_boundary_buffers_2steps", "3-D Jacobi, 2 sweeps, Dirichlet boundary values from 2 buffers (x-faces bx[2, Y, Z], the rest 0) selected by comparisons of the loop vars with the extents (no BoundaryConditions)",
      {'X': (3, 96), 'Y': (3, 64), 'Z': (3, 48)},
      outs=lambda v: [(F32, [v['X'], v['Y'], v['Z']])],
      data=lambda v, r: [rimg(r, (v['X'], v['Y'], v['Z'])), rimg(r, (2, v['Y'], v['Z']))], tol=1e-5, target='A')
def jac3(S, E):
    u0 = hl.ImageParam(F32, 3, "u"); bx = hl.ImageParam(F32, 3, "bx")
    x, y, z = V("x", "y", "z")
    X, Y, Z = S['X'], S['Y'], S['Z']

    def step(u, nm):
        f = F(nm)
        xc, yc, zc = hl.clamp(x, 1, X - 2), hl.clamp(y, 1, Y - 2), hl.clamp(z, 1, Z - 2)
        inner = (u[xc - 1, yc, zc] + u[xc + 1, yc, zc] + u[xc, yc - 1, zc] + u[xc, yc + 1, zc] + u[xc, yc, zc - 1] + u[xc, yc, zc + 1]) / 6.0
        yb, zb = hl.clamp(y, 0, Y - 1), hl.clamp(z, 0, Z - 1)
        f[x, y, z] = hl.select(x == 0, bx[0, yb, zb], x == X - 1, bx[1, yb, zb], (y == 0) | (y == Y - 1) | (z == 0) | (z == Z - 1), 0.0, inner)
        return f
    u1 = step(u0, "j3_u1")
    u2 = step(u1, "j3_u2")
    est_in(u0, E['X'], E['Y'], E['Z']); est_in(bx, 2, E['Y'], E['Z']); est_out(u2, [x, y, z], E['X'], E['Y'], E['Z'])
    return [u2], [u0, bx]


@spec("spmv_csr_rowptr_where_maxnnz", "SpMV in CSR: y[i] = sum over RDom(0, MAXNNZ) where r < rowptr[i+1]-rowptr[i] of vals[rowptr[i]+r] * x[col[rowptr[i]+r]] (all indices clamped); f64",
      {'N': (1, 2000), 'MAXNNZ': (1, 16)},
      outs=lambda v: [(F64, [v['N']])],
      data=lambda v, r: _csr_data(v, r), tol=1e-10, target='B')
def spmv(S, E):
    rp = hl.ImageParam(I32, 1, "rowptr"); col = hl.ImageParam(I32, 1, "col"); val = hl.ImageParam(F64, 1, "vals"); xv = hl.ImageParam(F64, 1, "x")
    i, = V("i")
    r = RD((0, S['MAXNNZ']))
    r.where(r.x < rp[i + 1] - rp[i])
    NZ = S['N'] * S['MAXNNZ']
    p = hl.clamp(rp[i] + r.x, 0, NZ - 1)
    y = F("csr_y"); y[i] = hl.f64(0)
    y[i] += val[p] * xv[hl.clamp(col[p], 0, S['N'] - 1)]
    est_in(rp, E['N'] + 1); est_in(col, E['N'] * E['MAXNNZ']); est_in(val, E['N'] * E['MAXNNZ']); est_in(xv, E['N']); est_out(y, [i], E['N'])
    return [y], [rp, col, val, xv]


def _csr_data(v, r):
    N, M = v['N'], v['MAXNNZ']
    lens = r.integers(0, M + 1, size=N)
    rp = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    col = r.integers(0, N, size=N * M).astype(np.int32)
    return [fa(rp), fa(col), fa(r.standard_normal(N * M)), fa(r.standard_normal(N))]


@spec("hog_cells_9bins_unsigned_orientation", "histogram of oriented gradients: central-difference gradients (repeat_edge), magnitude, unsigned orientation bin (atan2 folded to [0, pi), 9 bins), cell histograms hist[b, cx, cy] over an 8x8 RDom per cell with select(bin == b)",
      {'CW': (1, 64), 'CH': (1, 48)},
      outs=lambda v: [(F32, [9, v['CW'], v['CH']])],
      data=lambda v, r: [runif(r, (8 * v['CW'], 8 * v['CH']))], tol=1e-3, target='A')
def hog(S, E):
    im = hl.ImageParam(F32, 2, "img")
    x, y, b, cx, cy = V("x", "y", "b", "cx", "cy")
    e = BF.repeat_edge(im, [(0, 8 * S['CW']), (0, 8 * S['CH'])])
    gx = e[x + 1, y] - e[x - 1, y]; gy = e[x, y + 1] - e[x, y - 1]
    mg = F("hog_mag"); mg[x, y] = hl.sqrt(gx * gx + gy * gy)
    ang = hl.atan2(gy, gx)
    ang = hl.select(ang < 0, ang + 3.14159265, ang)
    bn = F("hog_bin"); bn[x, y] = hl.clamp(hl.i32(ang * (9.0 / 3.14159265)), 0, 8)
    r = RD((0, 8), (0, 8))
    hs = F("hog_hist"); hs[b, cx, cy] = 0.0
    px, py = cx * 8 + r.x, cy * 8 + r.y
    hs[b, cx, cy] += hl.select(bn[px, py] == b, mg[px, py], 0.0)
    est_in(im, 8 * E['CW'], 8 * E['CH']); est_out(hs, [b, cx, cy], 9, E['CW'], E['CH'])
    return [hs], [im]


@spec("cic_particle_deposit_scatter_float", "cloud-in-cell particle deposit: P particles pos[2, P] in [0, G-1), scatter of bilinear weights into grid [G, G] by 4 float scatter updates over RDom(0, P) (indices clamped; order-dependent float sums), then a 2nd output: grid normalised by the total mass (0-d sum)",
      {'P': (1, 4000), 'G': (2, 128)},
      outs=lambda v: [(F32, [v['G'], v['G']]), (F32, [v['G'], v['G']])],
      data=lambda v, r: [runif(r, (2, v['P']), 0.0, max(v['G'] - 1.001, 0.0))], tol=1e-4, target='B')
def cicdep(S, E):
    pos = hl.ImageParam(F32, 2, "pos")
    x, y = V("x", "y")
    r = RD((0, S['P']))
    px, py = pos[0, r], pos[1, r]
    ix = hl.clamp(hl.i32(hl.floor(px)), 0, S['G'] - 2); iy = hl.clamp(hl.i32(hl.floor(py)), 0, S['G'] - 2)
    fx = px - hl.f32(ix); fy = py - hl.f32(iy)
    g = F("cd_grid"); g[x, y] = 0.0
    g[ix, iy] += (1 - fx) * (1 - fy)
    g[ix + 1, iy] += fx * (1 - fy)
    g[ix, iy + 1] += (1 - fx) * fy
    g[ix + 1, iy + 1] += fx * fy
    rg = RD((0, S['G']), (0, S['G']), name="rg")
    tot = F("cd_total"); tot[()] = 0.0; tot[()] += g[rg.x, rg.y]
    nm = F("cd_norm"); nm[x, y] = g[x, y] / hl.max(tot[()], 1e-6)
    est_in(pos, 2, E['P']); est_out(g, [x, y], E['G'], E['G']); est_out(nm, [x, y], E['G'], E['G'])
    return [g, nm], [pos]


@spec("wave_leapfrog_3steps_boundary_on_intermediates", "2-D wave equation, leapfrog u_{n+1} = 2u_n - u_{n-1} + c2 lap(u_n), 3 steps as separate Funcs, each intermediate wrapped in BoundaryConditions.constant_exterior with Param extents (boundary conditions on intermediates)",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'])), rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def wave(S, E):
    u0 = hl.ImageParam(F32, 2, "u0"); u1 = hl.ImageParam(F32, 2, "u1")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]
    prev, cur = BF.constant_exterior(u0, 0.0, bnd), BF.constant_exterior(u1, 0.0, bnd)
    out = None
    for s in range(3):
        f = F("wv_u%d" % (s + 2))
        f[x, y] = 2.0 * cur[x, y] - prev[x, y] + 0.2 * (cur[x - 1, y] + cur[x + 1, y] + cur[x, y - 1] + cur[x, y + 1] - 4.0 * cur[x, y])
        out = f
        prev, cur = cur, BF.constant_exterior(f, 0.0, bnd)
    est_in(u0, E['W'], E['H']); est_in(u1, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [u0, u1]


@spec("monte_carlo_hash_rng_pi_blocks_u32", "Monte Carlo pi: per sample a u32 xorshift-multiply hash of (block, i, seed Param) gives (x, y); per-block hit counts over RDom(0, SPB) and a 0-d total over blocks (i32)",
      {'NB': (1, 256), 'SPB': (1, 1024), 'SEED': (0, 1000)},
      outs=lambda v: [(I32, [v['NB']]), (I32, [])],
      data=lambda v, r: [], target='B')
def mcpi(S, E):
    b, = V("b")

    def hsh(u):
        u = u ^ (u >> 16); u = u * hl.u32(0x7feb352d); u = u ^ (u >> 15); u = u * hl.u32(0x846ca68b); return u ^ (u >> 16)
    r = RD((0, S['SPB']))
    k = hl.u32(b) * hl.u32(1 << 20) + hl.u32(r.x) * hl.u32(2) + hl.u32(S['SEED']) * hl.u32(0x9e3779b9)
    hx = hsh(k); hy = hsh(k + hl.u32(1))
    fx = hl.f32(hx >> 8) * (1.0 / 16777216.0); fy = hl.f32(hy >> 8) * (1.0 / 16777216.0)
    c = F("mc_hits"); c[b] = 0; c[b] += hl.select(fx * fx + fy * fy <= 1.0, 1, 0)
    rb = RD((0, S['NB']), name="rb")
    t = F("mc_total"); t[()] = 0; t[()] += c[rb]
    est_out(c, [b], E['NB'])
    return [c, t], []


@spec("thomas_tridiagonal_batched_fwd_bwd_scans", "batched tridiagonal solve (Thomas algorithm), systems along n with the batch b innermost [b, n]: forward elimination as a Tuple update (c', d') over RDom(1, N-1), back substitution as a reversed scan over RDom(0, N-1) with index N-2-r",
      {'B': (1, 64), 'N': (2, 1000)},
      outs=lambda v: [(F32, [v['B'], v['N']])],
      data=lambda v, r: [runif(r, (v['B'], v['N']), -1, 1), runif(r, (v['B'], v['N']), 4, 5), runif(r, (v['B'], v['N']), -1, 1), rimg(r, (v['B'], v['N']))], tol=1e-3, target='A')
def thomas(S, E):
    a = hl.ImageParam(F32, 2, "a"); bb = hl.ImageParam(F32, 2, "bd"); cc = hl.ImageParam(F32, 2, "c"); dd = hl.ImageParam(F32, 2, "d")
    b, n = V("b", "n")
    fw = F("th_fwd")
    fw[b, n] = hl.Tuple([cc[b, n] / bb[b, n], dd[b, n] / bb[b, n]])
    r = RD((1, S['N'] - 1))
    den = bb[b, r] - a[b, r] * fw[b, r - 1][0]
    fw[b, r] = hl.Tuple([cc[b, r] / den, (dd[b, r] - a[b, r] * fw[b, r - 1][1]) / den])
    xo = F("th_x"); xo[b, n] = fw[b, n][1]
    rb = RD((0, S['N'] - 1), name="rb")
    k = S['N'] - 2 - rb
    xo[b, k] = fw[b, k][1] - fw[b, k][0] * xo[b, k + 1]
    for ip in (a, bb, cc, dd):
        est_in(ip, E['B'], E['N'])
    est_out(xo, [b, n], E['B'], E['N'])
    return [xo], [a, bb, cc, dd]


# ======================================= odd Halide usage =====================================================

@spec("five_dim_permute_and_reduce_two_axes", "5-D Funcs: out5[e, d, c, b, a] = in[a, b, c, d, e] * 2 + 1 (full reversal of the dims) and a 3-D output summing in over the 2nd and 4th dims (RDom(B, D)); all five extents ranged",
      {'A': (1, 16), 'B': (1, 12), 'C': (1, 10), 'Dd': (1, 12), 'Ee': (1, 8)},
      outs=lambda v: [(F32, [v['Ee'], v['Dd'], v['C'], v['B'], v['A']]), (F32, [v['A'], v['C'], v['Ee']])],
      data=lambda v, r: [rimg(r, (v['A'], v['B'], v['C'], v['Dd'], v['Ee']))], tol=1e-5, target='B')
def five(S, E):
    im = hl.ImageParam(F32, 5, "in5")
    a, b, c, d, e = V("a", "b", "c", "d", "e")
    t = F("f5_scaled"); t[a, b, c, d, e] = im[a, b, c, d, e] * 2.0 + 1.0
    o = F("f5_perm"); o[e, d, c, b, a] = t[a, b, c, d, e]
    r = RD((0, S['B']), (0, S['Dd']))
    s = F("f5_sum"); s[a, c, e] = 0.0; s[a, c, e] += t[a, r.x, c, r.y, e]
    est_in(im, E['A'], E['B'], E['C'], E['Dd'], E['Ee'])
    est_out(o, [e, d, c, b, a], E['Ee'], E['Dd'], E['C'], E['B'], E['A']); est_out(s, [a, c, e], E['A'], E['C'], E['Ee'])
    return [o, s], [im]


@spec("pure_tuple_mixed_u8_f32_i64_output", "one pure (non-reduction) Func returning a Tuple of mixed types (u8 quantised value, f32 residual, i64 running key x + y*W as i64 * large) realised into 3 buffers of different types; consumer-free",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (F32, [v['W'], v['H']]), (I64, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']), 0.0, 1.0)], tol=1e-5, target='A')
def tupmix(S, E):
    im = hl.ImageParam(F32, 2, "img")
    x, y = V("x", "y")
    q = hl.u8(hl.clamp(im[x, y] * 255.0 + 0.5, 0.0, 255.0))
    f = F("tm_tuple")
    f[x, y] = hl.Tuple([q, im[x, y] - hl.f32(q) / 255.0, (hl.i64(x) + hl.i64(y) * hl.i64(S['W'])) * hl.i64(1 << 33) + hl.i64(q)])
    est_in(im, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H'])
    return [f], [im]


@spec("three_updates_three_rdoms_rows_cols_diag", "one Func with 3 updates, each over its own RDom: add row sums (RDom over x), then column maxima (RDom over y), then a diagonal scatter f[r, r] *= 2 over RDom(0, min(W, H)); all i32",
      {'W': (1, 600), 'H': (1, 400)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), -100, 100)], target='B')
def threeupd(S, E):
    im = hl.ImageParam(I32, 2, "img")
    x, y = V("x", "y")
    rs = F("tu_rowsum"); rx = RD((0, S['W']), name="rx"); rs[y] = 0; rs[y] += im[rx, y]
    cm = F("tu_colmax"); ry = RD((0, S['H']), name="ry"); cm[x] = hl.maximum(im[x, ry])
    f = F("tu_out"); f[x, y] = im[x, y]
    f[x, y] = f[x, y] + rs[y]
    f[x, y] = f[x, y] - cm[x]
    rd = RD((0, hl.min(S['W'], S['H'])), name="rd")
    f[rd, rd] = f[rd, rd] * 2
    est_in(im, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H'])
    return [f], [im]


@spec("mirror_interior_on_blurred_intermediate", "boundary condition applied to an intermediate Func: blur_x of the input (repeat_edge), then BoundaryConditions.mirror_interior on the blurred Func with Param bounds, then a 5-tap vertical blur and a 5-tap horizontal second pass reading the mirrored intermediate",
      {'W': (2, 1024), 'H': (2, 768)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-5, target='A')
def mirint(S, E):
    im = hl.ImageParam(F32, 2, "img")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    bx = F("mi_bx"); bx[x, y] = (e[x - 1, y] + e[x, y] + e[x + 1, y]) / 3.0
    m = BF.mirror_interior(bx, [(0, S['W']), (0, S['H'])])
    by = F("mi_by"); by[x, y] = (m[x, y - 2] + m[x, y - 1] + m[x, y] + m[x, y + 1] + m[x, y + 2]) * 0.2
    m2 = BF.mirror_interior(by, [(0, S['W']), (0, S['H'])])
    o = F("mi_out"); o[x, y] = (m2[x - 2, y] + m2[x - 1, y] + m2[x, y] + m2[x + 1, y] + m2[x + 2, y]) * 0.2
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("output_user_mins_from_params_shift", "output buffers with nonzero mins set by the user from Params (min x = OX, min y = -OY): out[x, y] = in[x - OX, y + OY] * 3 + x - y, estimates with the same mins",
      {'W': (1, 800), 'H': (1, 600), 'OX': (0, 50), 'OY': (0, 50)},
      outs=lambda v: [(F32, [v['W'], v['H']], [v['OX'], -v['OY']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-5, target='B')
def usermins(S, E):
    im = hl.ImageParam(F32, 2, "img")
    x, y = V("x", "y")
    o = F("um_out"); o[x, y] = im[x - S['OX'], y + S['OY']] * 3.0 + hl.f32(x - y)
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'], mins=[E['OX'], -E['OY']])
    return [o], [im]


@spec("select_chain_on_loop_vars_param_bands", "piecewise definition by a select chain on the loop vars with Param thresholds: x < A -> blur, x < B -> sharpen, (y % 3 == 0) -> negate, else identity (A, B ranged, possibly outside the image)",
      {'W': (1, 800), 'H': (1, 600), 'A': (0, 400), 'B': (0, 800)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-5, target='A')
def selchain(S, E):
    im = hl.ImageParam(F32, 2, "img")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    bl = F("sc_blur"); bl[x, y] = (e[x - 1, y] + e[x, y] + e[x + 1, y]) / 3.0
    o = F("sc_out")
    o[x, y] = hl.select(x < S['A'], bl[x, y], x < S['B'], 2.0 * e[x, y] - bl[x, y], y % 3 == 0, -e[x, y], e[x, y])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("mux_channel_swizzle_param_u8", "channel swizzle with hl.mux on a ranged Param permutation index P (0..5) choosing one of 6 orders of [W, H, 3] planar u8, plus a luma plane from the swizzled Func",
      {'W': (1, 1024), 'H': (1, 768), 'P': (0, 5)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], 3), 0, 255, np.uint8)], target='B')
def swz(S, E):
    im = hl.ImageParam(U8, 3, "rgb")
    x, y, c = V("x", "y", "c")
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    src = hl.mux(S['P'], [hl.mux(c, [p[0], p[1], p[2]]) for p in perms])
    o = F("sw_out"); o[x, y, c] = im[x, y, hl.clamp(src, 0, 2)]
    l = F("sw_luma"); l[x, y] = hl.u8((77 * hl.u16(o[x, y, 0]) + 150 * hl.u16(o[x, y, 1]) + 29 * hl.u16(o[x, y, 2]) + 128) >> 8)
    est_in(im, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3); est_out(l, [x, y], E['W'], E['H'])
    return [o, l], [im]


@spec("tile_repeat_extent_product_of_params", "output extent W*K (an expression of two Params): out[i] = in[i % W] * g[i / W] (K gains), plus out2[j] = sum of out over each tile j by RDom(0, W)",
      {'W': (1, 2000), 'K': (1, 32)},
      outs=lambda v: [(F32, [v['W'] * v['K']]), (F32, [v['K']])],
      data=lambda v, r: [rimg(r, (v['W'],)), rimg(r, (v['K'],))], tol=1e-4, target='A')
def tilerep(S, E):
    im = hl.ImageParam(F32, 1, "x"); g = hl.ImageParam(F32, 1, "g")
    i, j = V("i", "j")
    o = F("tr_out"); o[i] = im[i % S['W']] * g[i / S['W']]
    r = RD((0, S['W']))
    s = F("tr_tilesum"); s[j] = 0.0; s[j] += o[j * S['W'] + r]
    est_in(im, E['W']); est_in(g, E['K']); est_out(o, [i], E['W'] * E['K']); est_out(s, [j], E['K'])
    return [o, s], [im, g]


@spec("mandelbrot_rdom_iter_tuple_escape_count", "Mandelbrot with a ranged iteration count IT (1..64): Tuple (zr, zi, n) updated over RDom(0, IT) with select(|z|^2 < 4) freezing escaped points; window from float Params; outputs the i32 count",
      {'W': (1, 512), 'H': (1, 384), 'IT': (1, 64)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [], target='B')
def mandel(S, E):
    x, y = V("x", "y")
    x0 = hl.Param(F32, "x0", -2.0); sc = hl.Param(F32, "scale", 1.0 / 150.0)
    cr = x0 + hl.f32(x) * sc; ci = -1.2 + hl.f32(y) * sc
    m = F("mb_state"); m[x, y] = hl.Tuple([hl.f32(0), hl.f32(0), 0])
    r = RD((0, S['IT']))
    zr, zi, n = m[x, y][0], m[x, y][1], m[x, y][2]
    inside = zr * zr + zi * zi < 4.0
    m[x, y] = hl.Tuple([hl.select(inside, zr * zr - zi * zi + cr, zr), hl.select(inside, 2.0 * zr * zi + ci, zi), n + hl.select(inside, 1, 0)])
    o = F("mb_count"); o[x, y] = m[x, y][2]
    est_out(o, [x, y], E['W'], E['H'])
    return [o], []


@spec("mandelbrot_rdom_iter_tuple_escape_count_rref", "as mandelbrot_rdom_iter_tuple_escape_count, but the update reads the RDom (inside & (r.x < IT)), so Halide keeps the IT-long update loop (the first version's update never read r, and Halide dropped the RDom: one iteration)",
      {'W': (1, 512), 'H': (1, 384), 'IT': (1, 64)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [], target='B')
def mandel2(S, E):
    x, y = V("x", "y")
    x0 = hl.Param(F32, "x0", -2.0); sc = hl.Param(F32, "scale", 1.0 / 150.0)
    cr = x0 + hl.f32(x) * sc; ci = hl.f32(-1.2) + hl.f32(y) * sc
    m = F("mb2_state"); m[x, y] = hl.Tuple([hl.f32(0), hl.f32(0), 0])
    r = RD((0, S['IT']))
    zr, zi, n = m[x, y][0], m[x, y][1], m[x, y][2]
    inside = (zr * zr + zi * zi < 4.0) & (r.x < S['IT'])
    m[x, y] = hl.Tuple([hl.select(inside, zr * zr - zi * zi + cr, zr), hl.select(inside, 2.0 * zr * zi + ci, zi), n + hl.select(inside, 1, 0)])
    o = F("mb2_count"); o[x, y] = m[x, y][2]
    est_out(o, [x, y], E['W'], E['H'])
    return [o], []
