"""Red-team round 11 pipelines for Diet: names and styles not used by rounds 1-10 (window reductions with Param radii /
dilations / centres and mirror/repeat boundaries, morphology, resampling, fixed point, f16 storage, PyTorch/numpy ports
with unusual dim orders, Tuple and where reductions, updates on outputs). Same spec format as
../redteam10_2026-12-01/pipes10.py; helpers imported from pipes10 (and through it pipes9) by importlib, not copied.
target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for Adams2019c), E: estimates."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec10 = importlib.util.spec_from_file_location("pipes_round10", os.path.join(_here, "..", "redteam10_2026-12-01", "pipes10.py"))
_round10 = importlib.util.module_from_spec(_spec10)
_spec10.loader.exec_module(_round10)
_round3 = _round10._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round10.V, _round10.est_in, _round10.est_out, _round10.fa, _round10.rimg, _round10.RD, _round10.TARGETS
D, MX, runif, randint = _round10.D, _round10.MX, _round10.runif, _round10.randint
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round10.F32, _round10.F64, _round10.U8, _round10.U16, _round10.U32, _round10.U64,
                                                  _round10.I8, _round10.I16, _round10.I32, _round10.I64)
F16 = hl.Float(16)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def fE(v):
    """float32 of a Param, an Expr or a CInt"""
    return hl.f32(v)


# ======================================= window reductions with Param radius / dilation ======================

@spec("box_sep_rdom0_centre_minusR_mirror_image_f32", "separable box blur with a run-time radius R: two explicit update Funcs over RDom(0, 2R+1) read at x + r - R (not RDom(-R, ..)), mirror_image input, normalised by (2R+1)^2 in a third Func",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 8)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-5, target='B')
def boxsep(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])
    r = RD((0, 2 * S['R'] + 1))
    bx = F("bs_x"); bx[x, y] = 0.0; bx[x, y] += e[x + r.x - S['R'], y]
    by = F("bs_y"); by[x, y] = 0.0; by[x, y] += bx[x, y + r.x - S['R']]
    o = F("bs_out"); o[x, y] = by[x, y] / fE((2 * S['R'] + 1) * (2 * S['R'] + 1))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("dilated_laplacian_5pt_repeat_image_u16_i32", "5-point Laplacian with a run-time dilation DL (1..8) on u16 over repeat_image (periodic, DL may exceed W); i32 output and a u8 edge map u8_sat(|lap| >> 2)",
      {'W': (1, 1024), 'H': (1, 768), 'DL': (1, 8)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16)], target='A')
def dillap(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_image(im, [(0, S['W']), (0, S['H'])])
    d = S['DL']
    g = lambda a, b: hl.i32(e[a, b])
    o = F("dl_lap"); o[x, y] = 4 * g(x, y) - g(x - d, y) - g(x + d, y) - g(x, y - d) - g(x, y + d)
    m = F("dl_edge"); m[x, y] = hl.saturating_cast(U8, hl.abs(o[x, y]) >> 2)
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H']); est_out(m, [x, y], E['W'], E['H'])
    return [o, m], [im]


@spec("sliding_argmin_rows_mirror_interior_rdom_negR", "per row of x[N, B] a sliding hl.argmin over RDom(-R, 2R+1) (R 1..6) on mirror_interior (mirrored duplicates make exact ties: first wins); outputs the winning offset (i32) and the value (f32)",
      {'N': (2, 2000), 'B': (1, 16), 'R': (1, 6)},
      outs=lambda v: [(I32, [v['N'], v['B']]), (F32, [v['N'], v['B']])],
      data=lambda v, r: [rimg(r, (v['N'], v['B']))], target='B')
def slargmin(S, E):
    xi = hl.ImageParam(F32, 2, "x")
    n, b = V("n", "b")
    e = BF.mirror_interior(xi, [(0, S['N']), (0, S['B'])])
    r = RD((-S['R'], 2 * S['R'] + 1))
    am = hl.argmin(e[n + r.x, b])
    oi = F("sa_idx"); oi[n, b] = am[0]
    ov = F("sa_val"); ov[n, b] = am[1]
    est_in(xi, E['N'], E['B']); est_out(oi, [n, b], E['N'], E['B']); est_out(ov, [n, b], E['N'], E['B'])
    return [oi, ov], [xi]


@spec("local_std_f64_sat_two_scan_funcs_clamped_corners", "local standard deviation: f64 summed-area tables of I and I^2, each as an x-scan Func (RDom(1, W-1)) then a separate y-scan Func (RDom(1, H-1)); box of radius R (1..10) by 4 corner lookups with select(<0 -> 0) and clamped far corners, true in-image count",
      {'W': (1, 800), 'H': (1, 600), 'R': (1, 10)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='A')
def localstd(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    W, H, R = S['W'], S['H'], S['R']

    def sat(val, nm):
        sx = F(nm + "_x"); sx[x, y] = val
        rx = RD((1, W - 1), name="rx"); sx[rx, y] += sx[rx - 1, y]
        sy = F(nm + "_y"); sy[x, y] = sx[x, y]
        ry = RD((1, H - 1), name="ry"); sy[x, ry] += sy[x, ry - 1]
        return sy
    s1 = sat(hl.f64(im[x, y]), "ls_s1"); s2 = sat(hl.f64(im[x, y]) * hl.f64(im[x, y]), "ls_s2")

    def at(t, xx, yy):
        return hl.select((xx < 0) | (yy < 0), hl.f64(0), t[hl.clamp(xx, 0, W - 1), hl.clamp(yy, 0, H - 1)])

    def box(t):
        x0, x1, y0, y1 = x - R - 1, hl.min(x + R, W - 1), y - R - 1, hl.min(y + R, H - 1)
        return at(t, x1, y1) - at(t, x0, y1) - at(t, x1, y0) + at(t, x0, y0)
    cnt = hl.f64((hl.min(x + R, W - 1) - hl.max(x - R, 0) + 1) * (hl.min(y + R, H - 1) - hl.max(y - R, 0) + 1))
    mean = F("ls_mean"); mean[x, y] = box(s1) / cnt
    o = F("ls_std"); o[x, y] = hl.f32(hl.sqrt(hl.max(box(s2) / cnt - mean[x, y] * mean[x, y], 0.0)))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


_MED9 = [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3), (5, 8), (4, 7), (3, 6), (1, 4), (2, 5),
         (4, 7), (4, 2), (6, 4), (4, 2)]


@spec("opt_med9_paeth_19cmp_repeat_image_u16", "3x3 median of u16 by Paeth's opt_med9 (19 compare-exchanges written as a C port: a list of 9 Exprs swapped in place by min/max), repeat_image boundary",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16)], target='B')
def med9(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_image(im, [(0, S['W']), (0, S['H'])])
    p = [e[x + dx, y + dy] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    for a, b in _MED9:
        p[a], p[b] = hl.min(p[a], p[b]), hl.max(p[a], p[b])
    o = F("m9_out"); o[x, y] = p[4]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("white_tophat_open_sep_update_funcs_u8", "white top-hat = img - opening: separable erosion (update Funcs min over RDom(-R, 2R+1), constant_exterior 255 input) then dilation (max, constant_exterior 0 applied to the eroded intermediate Func), R 1..5; outputs top-hat and opening (u8)",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 5)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def tophat(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]
    c255 = BF.constant_exterior(im, hl.u8(255), bnd)
    r = RD((-S['R'], 2 * S['R'] + 1))
    ex = F("th_ex"); ex[x, y] = hl.u8(255); ex[x, y] = hl.min(ex[x, y], c255[x + r.x, y])
    ey = F("th_ey"); ey[x, y] = hl.u8(255); ey[x, y] = hl.min(ey[x, y], ex[x, y + r.x])
    ey0 = BF.constant_exterior(ey, hl.u8(0), bnd)
    dx = F("th_dx"); dx[x, y] = hl.u8(0); dx[x, y] = hl.max(dx[x, y], ey0[x + r.x, y])
    dy = F("th_dy"); dy[x, y] = hl.u8(0); dy[x, y] = hl.max(dy[x, y], dx[x, y + r.x])
    op = F("th_open"); op[x, y] = dy[x, y]
    th = F("th_out"); th[x, y] = im[x, y] - hl.min(dy[x, y], im[x, y])
    est_in(im, E['W'], E['H']); est_out(th, [x, y], E['W'], E['H']); est_out(op, [x, y], E['W'], E['H'])
    return [th, op], [im]


@spec("canny_f32_atan2_bins_nms_hysteresis1_u8", "Canny in float: Sobel (repeat_edge), L2 magnitude, direction by atan2 quantised to 4 bins, NMS by select-chosen neighbours, double threshold with ranged int Params LO/HI, one hysteresis step (weak kept if a 3x3 neighbour is strong); u8 outputs",
      {'W': (2, 1024), 'H': (2, 768), 'LO': (10, 100), 'HI': (100, 400)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def cannyf(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    f = lambda a, b: hl.f32(e[a, b])
    gx = F("cf_gx"); gx[x, y] = f(x + 1, y - 1) + 2 * f(x + 1, y) + f(x + 1, y + 1) - f(x - 1, y - 1) - 2 * f(x - 1, y) - f(x - 1, y + 1)
    gy = F("cf_gy"); gy[x, y] = f(x - 1, y + 1) + 2 * f(x, y + 1) + f(x + 1, y + 1) - f(x - 1, y - 1) - 2 * f(x, y - 1) - f(x + 1, y - 1)
    mag = F("cf_mag"); mag[x, y] = hl.sqrt(gx[x, y] * gx[x, y] + gy[x, y] * gy[x, y])
    bn = F("cf_bin"); bn[x, y] = hl.i32(hl.floor((hl.atan2(gy[x, y], gx[x, y]) + math.pi) / (math.pi / 4) + 0.5)) % 4
    d = bn[x, y]
    ox = hl.select(d == 0, 1, d == 1, 1, d == 2, 0, -1)
    oy = hl.select(d == 0, 0, d == 1, 1, d == 2, 1, 1)
    m = mag[x, y]
    nms = F("cf_nms"); nms[x, y] = hl.select((m >= mag[x + ox, y + oy]) & (m >= mag[x - ox, y - oy]), m, 0.0)
    strong = F("cf_strong"); strong[x, y] = hl.select(nms[x, y] >= fE(S['HI']), hl.u8(1), hl.u8(0))
    thr = F("cf_thr"); thr[x, y] = hl.select(nms[x, y] >= fE(S['HI']), hl.u8(255), nms[x, y] >= fE(S['LO']), hl.u8(128), hl.u8(0))
    rr = RD((-1, 3), (-1, 3))
    nb = hl.maximum(strong[x + rr.x, y + rr.y])
    hy = F("cf_hyst"); hy[x, y] = hl.select((thr[x, y] == 255) | ((thr[x, y] == 128) & (nb > 0)), hl.u8(255), hl.u8(0))
    est_in(im, E['W'], E['H']); est_out(thr, [x, y], E['W'], E['H']); est_out(hy, [x, y], E['W'], E['H'])
    return [thr, hy], [im]


@spec("gauss_pyramid4_select_level_param_nearest_up", "4-level Gaussian pyramid (1-4-6-4-1 separable downsample, each level read through clamp to its own size W>>k), output = level L (ranged 0..3) upsampled nearest to full size, chosen by a select chain on the Param L (all levels are demanded)",
      {'W': (8, 1024), 'H': (8, 768), 'L': (0, 3)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-5, target='A')
def pyrsel(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    lv = [F("pg_l0")]
    lv[0][x, y] = im[hl.clamp(x, 0, S['W'] - 1), hl.clamp(y, 0, S['H'] - 1)]
    wk = [1.0, 4.0, 6.0, 4.0, 1.0]
    for k in range(1, 4):
        pw, ph = D(S['W'], 1 << (k - 1)), D(S['H'], 1 << (k - 1))
        prev = lv[-1]
        cl = lambda a, b: prev[hl.clamp(a, 0, pw - 1), hl.clamp(b, 0, ph - 1)]
        dxf = F("pg_dx%d" % k); dxf[x, y] = sum(wk[i] * cl(2 * x + i - 2, y) for i in range(5)) / 16.0
        cur = F("pg_l%d" % k); cur[x, y] = sum(wk[i] * dxf[x, hl.clamp(2 * y + i - 2, 0, ph - 1)] for i in range(5)) / 16.0
        lv.append(cur)
    L = S['L']
    o = F("pg_out")
    o[x, y] = hl.select(L == 0, lv[0][x, y], L == 1, lv[1][x / 2, y / 2], L == 2, lv[2][x / 4, y / 4], lv[3][x / 8, y / 8])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("resize_catmull_rom_weight_func_rdom4x4_f32", "bicubic (Catmull-Rom) resize to an independent output size OW x OH (ratio W/OW in float, pixel-centre convention): weight Funcs wx[x, k], wy[y, k] (k a pure tap var, hl.mux of the 4 cubics), one 2-D RDom(4, 4) hl.sum over repeat_edge input",
      {'W': (4, 800), 'H': (4, 600), 'OW': (1, 1200), 'OH': (1, 900)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def cubic(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, k = V("x", "y", "k")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])

    def taps(v, n_in, n_out, nm):
        c = (hl.f32(v) + 0.5) * fE(n_in) / fE(n_out) - 0.5
        fl = F(nm + "_i"); fl[v] = hl.i32(hl.floor(c))
        t = c - hl.floor(c)
        w = F(nm + "_w")
        w[v, k] = hl.mux(k, [((-0.5 * t + 1.0) * t - 0.5) * t, (1.5 * t - 2.5) * t * t + 1.0, ((-1.5 * t + 2.0) * t + 0.5) * t, (0.5 * t - 0.5) * t * t])
        return fl, w
    ix, wx = taps(x, S['W'], S['OW'], "cr_x")
    iy, wy = taps(y, S['H'], S['OH'], "cr_y")
    r = RD((0, 4), (0, 4))
    o = F("cr_out"); o[x, y] = hl.sum(wx[x, r.x] * wy[y, r.y] * e[ix[x] + r.x - 1, iy[y] + r.y - 1])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [im]


@spec("hist_match_cdf_argmin_search_u8", "histogram matching of image A [W, H] to a reference image B [W2, H2] (u8): two 256-bin scatter histograms, two CDF scan Funcs, normalised float CDFs, map[i] = hl.argmin over 256 bins of |cdfA[i] - cdfB[j]| (flat CDF stretches make exact ties), out = map[A]; outputs image and the 256-entry map",
      {'W': (1, 512), 'H': (1, 512), 'W2': (1, 512), 'H2': (1, 512)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [256])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), fa((r.random((v['W2'], v['H2'])) ** 2 * 200).astype(np.uint8))], target='A')
def histmatch(S, E):
    a = hl.ImageParam(U8, 2, "a"); b = hl.ImageParam(U8, 2, "b")
    x, y, i = V("x", "y", "i")

    def cdf(im, w, h, nm):
        hs = F(nm + "_hist"); hs[i] = 0
        r = RD((0, w), (0, h), name=nm + "_r"); hs[hl.i32(im[r.x, r.y])] += 1
        c = F(nm + "_cdf"); c[i] = hs[i]
        s = RD((1, 255), name=nm + "_s"); c[s] += c[s - 1]
        n = F(nm + "_n"); n[i] = hl.f32(c[i]) / fE(w * h)
        return n
    ca, cb = cdf(a, S['W'], S['H'], "hm_a"), cdf(b, S['W2'], S['H2'], "hm_b")
    j = RD((0, 256), name="j")
    mp = F("hm_map"); mp[i] = hl.u8(hl.argmin(hl.abs(ca[i] - cb[j]))[0])
    o = F("hm_out"); o[x, y] = mp[hl.i32(a[x, y])]
    est_in(a, E['W'], E['H']); est_in(b, E['W2'], E['H2']); est_out(o, [x, y], E['W'], E['H']); est_out(mp, [i], 256)
    return [o, mp], [a, b]


@spec("i420_planes_to_interleaved_rgb_bt709_q8", "I420 (three separate planes: Y [2HW, 2HH], U and V [HW, HH]) -> interleaved RGB u8 output (stride 3, channel innermost): BT.709 limited range in Q8 i32 (298, 459, 55, 136, 541), hl.mux over c, u8_sat",
      {'HW': (1, 512), 'HH': (1, 384)},
      outs=lambda v: [(U8, [2 * v['HW'], 2 * v['HH'], 3])],
      data=lambda v, r: [randint(r, (2 * v['HW'], 2 * v['HH']), 0, 255, np.uint8), randint(r, (v['HW'], v['HH']), 0, 255, np.uint8),
                         randint(r, (v['HW'], v['HH']), 0, 255, np.uint8)], interleaved=True, target='B')
def i420(S, E):
    Y = hl.ImageParam(U8, 2, "Y"); U = hl.ImageParam(U8, 2, "U"); Vp = hl.ImageParam(U8, 2, "V")
    x, y, c = V("x", "y", "c")
    yy = 298 * (hl.i32(Y[x, y]) - 16) + 128
    u = hl.i32(U[x / 2, y / 2]) - 128; v = hl.i32(Vp[x / 2, y / 2]) - 128
    o = F("yu_rgb")
    o[x, y, c] = hl.saturating_cast(U8, hl.mux(c, [(yy + 459 * v) >> 8, (yy - 55 * u - 136 * v) >> 8, (yy + 541 * u) >> 8]))
    o.output_buffer().dim(0).set_stride(3); o.output_buffer().dim(2).set_stride(1); o.output_buffer().dim(2).set_bounds(0, 3)
    est_in(Y, 2 * E['HW'], 2 * E['HH']); est_in(U, E['HW'], E['HH']); est_in(Vp, E['HW'], E['HH'])
    est_out(o, [x, y, c], 2 * E['HW'], 2 * E['HH'], 3)
    return [o], [Y, U, Vp]


@spec("f16_cxy_sep_gauss5_f32_compute", "float16 storage, channels innermost [c, x, y] (C 1..4): separable 1-4-6-4-1 blur computed in f32 via two Funcs (repeat_edge), written back as f16",
      {'C': (1, 4), 'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(F16, [v['C'], v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['C'], v['W'], v['H']), dtype=np.float16)], tol=2e-3, target='A')
def f16blur(S, E):
    im = hl.ImageParam(F16, 3, "im")
    c, x, y = V("c", "x", "y")
    e = BF.repeat_edge(im, [(0, S['C']), (0, S['W']), (0, S['H'])])
    wk = [1.0, 4.0, 6.0, 4.0, 1.0]
    bx = F("fh_bx"); bx[c, x, y] = sum(wk[i] * hl.f32(e[c, x + i - 2, y]) for i in range(5)) / 16.0
    o = F("fh_out"); o[c, x, y] = hl.cast(F16, sum(wk[i] * bx[c, x, y + i - 2] for i in range(5)) / 16.0)
    est_in(im, E['C'], E['W'], E['H']); est_out(o, [c, x, y], E['C'], E['W'], E['H'])
    return [o], [im]


# ======================================= ML layers ported from PyTorch / numpy ===============================

@spec("layernorm_middle_dim_batch_innermost_bdt", "LayerNorm over d with the batch INNERMOST x[b, d, t] (numpy port of (T, D, B)): mean by inline hl.sum over RDom(0, D) at x[b, r, t], variance of the centred values by a second hl.sum, affine gamma/beta[d]; B 1..8",
      {'B': (1, 8), 'D': (1, 512), 'T': (1, 128)},
      outs=lambda v: [(F32, [v['B'], v['D'], v['T']])],
      data=lambda v, r: [rimg(r, (v['B'], v['D'], v['T'])), rimg(r, (v['D'],)), rimg(r, (v['D'],))], tol=1e-4, target='B')
def lnbdt(S, E):
    xi = hl.ImageParam(F32, 3, "x"); g = hl.ImageParam(F32, 1, "gamma"); be = hl.ImageParam(F32, 1, "beta")
    b, d, t = V("b", "d", "t")
    r = RD((0, S['D']))
    mu = F("lb_mean"); mu[b, t] = hl.sum(xi[b, r.x, t]) / fE(S['D'])
    var = F("lb_var"); var[b, t] = hl.sum((xi[b, r.x, t] - mu[b, t]) * (xi[b, r.x, t] - mu[b, t])) / fE(S['D'])
    o = F("lb_out"); o[b, d, t] = (xi[b, d, t] - mu[b, t]) / hl.sqrt(var[b, t] + 1e-5) * g[d] + be[d]
    est_in(xi, E['B'], E['D'], E['T']); est_in(g, E['D']); est_in(be, E['D']); est_out(o, [b, d, t], E['B'], E['D'], E['T'])
    return [o], [xi, g, be]


@spec("softmax_temperature_channel_dim3_of_nchw", "softmax over the channel dim of NCHW reversed to [x, y, c, n] (c the 3rd dim) with a temperature TP/4 (TP a ranged int Param): the max as an explicit update Func over RDom(0, C), the sum as an inline hl.sum",
      {'W': (1, 64), 'H': (1, 64), 'C': (1, 100), 'N': (1, 4), 'TP': (1, 10)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C'], v['N']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C'], v['N']))], tol=1e-5, target='A')
def smc(S, E):
    xi = hl.ImageParam(F32, 4, "x")
    x, y, c, n = V("x", "y", "c", "n")
    z = F("sc_z"); z[x, y, c, n] = xi[x, y, c, n] * (4.0 / fE(S['TP']))
    r = RD((0, S['C']))
    mx = F("sc_max"); mx[x, y, n] = -1e30; mx[x, y, n] = hl.max(mx[x, y, n], z[x, y, r.x, n])
    ex = F("sc_exp"); ex[x, y, c, n] = hl.exp(z[x, y, c, n] - mx[x, y, n])
    sm = F("sc_sum"); sm[x, y, n] = hl.sum(ex[x, y, r.x, n])
    o = F("sc_out"); o[x, y, c, n] = ex[x, y, c, n] / sm[x, y, n]
    est_in(xi, E['W'], E['H'], E['C'], E['N']); est_out(o, [x, y, c, n], E['W'], E['H'], E['C'], E['N'])
    return [o], [xi]


def _erf(v):
    t = 1.0 / (1.0 + 0.3275911 * hl.abs(v))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return hl.select(v >= 0, 1.0, -1.0) * (1.0 - poly * hl.exp(-v * v))


@spec("gelu_erf_poly_mlp_nt_weights", "MLP with exact-GELU (erf by the Abramowitz-Stegun 7.1.26 polynomial, sign by select), weights stored k-innermost (NT: W1[d, j], W2[j, o]): h[j, t] = b1[j] + sum_d W1[d, j] x[d, t]; y[o, t] = b2[o] + sum_j W2[j, o] gelu(h)[j, t]; explicit update Funcs",
      {'D': (1, 256), 'T': (1, 128), 'HD': (1, 512)},
      outs=lambda v: [(F32, [v['D'], v['T']])],
      data=lambda v, r: [rimg(r, (v['D'], v['T'])), fa((0.05 * r.standard_normal((v['D'], v['HD']))).astype(np.float32)), rimg(r, (v['HD'],)),
                         fa((0.05 * r.standard_normal((v['HD'], v['D']))).astype(np.float32)), rimg(r, (v['D'],))], tol=1e-4, target='B')
def gelumlp(S, E):
    xi = hl.ImageParam(F32, 2, "x"); W1 = hl.ImageParam(F32, 2, "W1"); b1 = hl.ImageParam(F32, 1, "b1")
    W2 = hl.ImageParam(F32, 2, "W2"); b2 = hl.ImageParam(F32, 1, "b2")
    j, t, o = V("j", "t", "o")
    rd = RD((0, S['D']), name="rd"); rj = RD((0, S['HD']), name="rj")
    h = F("ge_h"); h[j, t] = b1[j]; h[j, t] += W1[rd, j] * xi[rd, t]
    g = F("ge_g"); g[j, t] = 0.5 * h[j, t] * (1.0 + _erf(h[j, t] * 0.70710678))
    y = F("ge_y"); y[o, t] = b2[o]; y[o, t] += W2[rj, o] * g[rj, t]
    est_in(xi, E['D'], E['T']); est_in(W1, E['D'], E['HD']); est_in(b1, E['HD']); est_in(W2, E['HD'], E['D']); est_in(b2, E['D'])
    est_out(y, [o, t], E['D'], E['T'])
    return [y], [xi, W1, b1, W2, b2]


@spec("conv1d_groups_param_same_pad_batch_innermost", "PyTorch Conv1d(groups=G, kernel 5, padding='same') with G (1..4) and channels per group CPG (1..8) run-time, ported with the batch INNERMOST x[n, c, l] (N 1..8): out[n, co, l] = b[co] + sum over RDom(CPG, 5) w[k, ci, co] * x[n, (co / CPG) * CPG + ci, l + k - 2] (zero pad by constant_exterior)",
      {'N': (1, 8), 'G': (1, 4), 'CPG': (1, 8), 'L': (1, 256)},
      outs=lambda v: [(F32, [v['N'], v['G'] * v['CPG'], v['L']])],
      data=lambda v, r: [rimg(r, (v['N'], v['G'] * v['CPG'], v['L'])), rimg(r, (5, v['CPG'], v['G'] * v['CPG'])), rimg(r, (v['G'] * v['CPG'],))],
      tol=1e-4, target='A')
def conv1dg(S, E):
    xi = hl.ImageParam(F32, 3, "x"); w = hl.ImageParam(F32, 3, "w"); bi = hl.ImageParam(F32, 1, "b")
    n, co, l = V("n", "co", "l")
    C = S['G'] * S['CPG']
    xe = BF.constant_exterior(xi, 0.0, [(0, S['N']), (0, C), (0, S['L'])])
    r = RD((0, S['CPG']), (0, 5))
    o = F("cg_out"); o[n, co, l] = bi[co]
    o[n, co, l] += w[r.y, r.x, co] * xe[n, (co / S['CPG']) * S['CPG'] + r.x, l + r.y - 2]
    est_in(xi, E['N'], E['G'] * E['CPG'], E['L']); est_in(w, 5, E['CPG'], E['G'] * E['CPG']); est_in(bi, E['G'] * E['CPG'])
    est_out(o, [n, co, l], E['N'], E['G'] * E['CPG'], E['L'])
    return [o], [xi, w, bi]


@spec("maxpool3x3_s2_pad1_dilation_param_chw", "PyTorch MaxPool2d(3, stride 2, padding 1, dilation DL (1..3)) on planar [x, y, c]: input size W = 2*OW + 2*DL - 3 (torch's formula inverted), -inf padding by constant_exterior, inline hl.maximum over RDom(3, 3) at 2x - 1 + r*DL",
      {'OW': (1, 256), 'OH': (1, 256), 'C': (1, 32), 'DL': (1, 3)},
      outs=lambda v: [(F32, [v['OW'], v['OH'], v['C']])],
      data=lambda v, r: [rimg(r, (2 * v['OW'] + 2 * v['DL'] - 3, 2 * v['OH'] + 2 * v['DL'] - 3, v['C']))], target='B')
def maxpoold(S, E):
    xi = hl.ImageParam(F32, 3, "x")
    x, y, c = V("x", "y", "c")
    DL = S['DL']
    e = BF.constant_exterior(xi, -math.inf, [(0, 2 * S['OW'] + 2 * DL - 3), (0, 2 * S['OH'] + 2 * DL - 3), (0, S['C'])])
    r = RD((0, 3), (0, 3))
    o = F("mp_out"); o[x, y, c] = hl.maximum(e[2 * x - 1 + r.x * DL, 2 * y - 1 + r.y * DL, c])
    est_in(xi, 2 * E['OW'] + 2 * E['DL'] - 3, 2 * E['OH'] + 2 * E['DL'] - 3, E['C']); est_out(o, [x, y, c], E['OW'], E['OH'], E['C'])
    return [o], [xi]


@spec("bert_embeddings_tok_pos_type_sum_layernorm", "BERT embeddings: word table [128, V] gathered at clamp(ids[t, b]), + position table [128, 512] at t, + token-type table [128, 2] at clamp(tt[t, b], 0, 1); LayerNorm over the 128-wide d (mean/var Funcs by hl.sum), gamma/beta; V ranged 10..5000",
      {'T': (1, 256), 'B': (1, 4), 'V': (10, 5000)},
      outs=lambda v: [(F32, [128, v['T'], v['B']])],
      data=lambda v, r: [randint(r, (v['T'], v['B']), -3, v['V'] + 3), randint(r, (v['T'], v['B']), 0, 1), rimg(r, (128, v['V'])), rimg(r, (128, 512)),
                         rimg(r, (128, 2)), rimg(r, (128,)), rimg(r, (128,))], tol=1e-4, target='A')
def bertemb(S, E):
    ids = hl.ImageParam(I32, 2, "ids"); tt = hl.ImageParam(I32, 2, "tt"); wt = hl.ImageParam(F32, 2, "wtab")
    pt = hl.ImageParam(F32, 2, "ptab"); tyt = hl.ImageParam(F32, 2, "ttab"); g = hl.ImageParam(F32, 1, "g"); be = hl.ImageParam(F32, 1, "be")
    d, t, b = V("d", "t", "b")
    em = F("be_sum"); em[d, t, b] = wt[d, hl.clamp(ids[t, b], 0, S['V'] - 1)] + pt[d, t] + tyt[d, hl.clamp(tt[t, b], 0, 1)]
    r = RD((0, 128))
    mu = F("be_mean"); mu[t, b] = hl.sum(em[r.x, t, b]) / 128.0
    var = F("be_var"); var[t, b] = hl.sum((em[r.x, t, b] - mu[t, b]) * (em[r.x, t, b] - mu[t, b])) / 128.0
    o = F("be_out"); o[d, t, b] = (em[d, t, b] - mu[t, b]) / hl.sqrt(var[t, b] + 1e-12) * g[d] + be[d]
    est_in(ids, E['T'], E['B']); est_in(tt, E['T'], E['B']); est_in(wt, 128, E['V']); est_in(pt, 128, 512); est_in(tyt, 128, 2)
    est_in(g, 128); est_in(be, 128); est_out(o, [d, t, b], 128, E['T'], E['B'])
    return [o], [ids, tt, wt, pt, tyt, g, be]


@spec("bce_with_logits_pos_weight_class_mean_0d", "PyTorch BCEWithLogitsLoss(pos_weight) in the stable form (1-t) z + (1 + (pw-1) t)(log(1 + exp(-|z|)) + max(-z, 0)) on logits [C, N]: outputs the per-element loss, the per-class mean over N (inline hl.sum) and the 0-D mean over everything (explicit update over a 2-D RDom)",
      {'C': (1, 1000), 'N': (1, 256)},
      outs=lambda v: [(F32, [v['C'], v['N']]), (F32, [v['C']]), (F32, [])],
      data=lambda v, r: [rimg(r, (v['C'], v['N'])), fa((r.random((v['C'], v['N'])) < 0.3).astype(np.float32)), runif(r, (v['C'],), 0.5, 3.0)],
      tol=1e-4, target='A')
def bce(S, E):
    z = hl.ImageParam(F32, 2, "z"); tg = hl.ImageParam(F32, 2, "t"); pw = hl.ImageParam(F32, 1, "pw")
    c, n = V("c", "n")
    zz, tt = z[c, n], tg[c, n]
    L = F("bc_loss"); L[c, n] = (1.0 - tt) * zz + (1.0 + (pw[c] - 1.0) * tt) * (hl.log(1.0 + hl.exp(-hl.abs(zz))) + hl.max(-zz, 0.0))
    rn = RD((0, S['N']), name="rn")
    cm = F("bc_cmean"); cm[c] = hl.sum(L[c, rn]) / fE(S['N'])
    r2 = RD((0, S['C']), (0, S['N']), name="r2")
    tot = F("bc_mean"); tot[()] = 0.0; tot[()] += L[r2.x, r2.y] / fE(S['C'] * S['N'])
    est_in(z, E['C'], E['N']); est_in(tg, E['C'], E['N']); est_in(pw, E['C'])
    est_out(L, [c, n], E['C'], E['N']); est_out(cm, [c], E['C'])
    return [L, cm, tot], [z, tg, pw]


@spec("kmeans_one_iter_argmin_assign_scatter_centroids", "one k-means iteration on 2-D points p[2, N] (xy innermost) with K (1..16) centroids c[2, K]: assign[n] = hl.argmin over RDom(0, K) of squared distance; sums[d, k] and counts[k] by scatter updates over RDom(0, N) at clamp(assign[r], 0, K-1); new centroids (old one kept for empty clusters); outputs assign (i32) and new centroids",
      {'N': (1, 20000), 'K': (1, 16)},
      outs=lambda v: [(I32, [v['N']]), (F32, [2, v['K']])],
      data=lambda v, r: [runif(r, (2, v['N']), -1.0, 1.0), runif(r, (2, v['K']), -1.0, 1.0)], tol=1e-4, target='B')
def kmeans(S, E):
    p = hl.ImageParam(F32, 2, "p"); cen = hl.ImageParam(F32, 2, "cen")
    n, d, k = V("n", "d", "k")
    rk = RD((0, S['K']), name="rk")
    dist = lambda nn, kk: (p[0, nn] - cen[0, kk]) * (p[0, nn] - cen[0, kk]) + (p[1, nn] - cen[1, kk]) * (p[1, nn] - cen[1, kk])
    asg = F("km_assign"); asg[n] = hl.i32(hl.argmin(dist(n, rk))[0])
    rn = RD((0, S['N']), name="rn")
    ka = hl.clamp(asg[rn], 0, S['K'] - 1)
    sm = F("km_sum"); sm[d, k] = 0.0; sm[d, ka] += p[d, rn]
    ct = F("km_cnt"); ct[k] = 0; ct[ka] += 1
    nc = F("km_newc"); nc[d, k] = hl.select(ct[k] > 0, sm[d, k] / hl.f32(ct[k]), cen[d, k])
    est_in(p, 2, E['N']); est_in(cen, 2, E['K']); est_out(asg, [n], E['N']); est_out(nc, [d, k], 2, E['K'])
    return [asg, nc], [p, cen]


@spec("circular_pad_conv3x3_repeat_image_ci_co", "PyTorch Conv2d(padding_mode='circular') 3x3 as a contraction over a 3-D RDom(3, 3, CI) on repeat_image input [W, H, CI]; weights w[3, 3, CI, CO], bias, explicit update on a separate Func then ReLU output; CI, CO ranged 1..16",
      {'W': (1, 256), 'H': (1, 256), 'CI': (1, 16), 'CO': (1, 16)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['CO']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['CI'])), rimg(r, (3, 3, v['CI'], v['CO'])), rimg(r, (v['CO'],))], tol=1e-4, target='A')
def circconv(S, E):
    xi = hl.ImageParam(F32, 3, "x"); w = hl.ImageParam(F32, 4, "w"); bi = hl.ImageParam(F32, 1, "b")
    x, y, co = V("x", "y", "co")
    e = BF.repeat_image(xi, [(0, S['W']), (0, S['H']), (0, S['CI'])])
    r = RD((0, 3), (0, 3), (0, S['CI']))
    acc = F("cc_acc"); acc[x, y, co] = bi[co]
    acc[x, y, co] += w[r.x, r.y, r.z, co] * e[x + r.x - 1, y + r.y - 1, r.z]
    o = F("cc_out"); o[x, y, co] = hl.max(acc[x, y, co], 0.0)
    est_in(xi, E['W'], E['H'], E['CI']); est_in(w, 3, 3, E['CI'], E['CO']); est_in(bi, E['CO']); est_out(o, [x, y, co], E['W'], E['H'], E['CO'])
    return [o], [xi, w, bi]


@spec("planar_u8_to_chw_first_normalize_and_hflip", "torchvision ToTensor+Normalize port: planar u8 image [W, H, 3] -> channels-FIRST f32 [3, W, H] (a layout change: c becomes innermost) with per-channel mean/std from a buffer ms[2, 3]; second output the horizontally flipped augmentation (x -> W-1-x)",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(F32, [3, v['W'], v['H']]), (F32, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], 3), 0, 255, np.uint8), fa(np.array([[0.485, 0.229], [0.456, 0.224], [0.406, 0.225]], dtype=np.float32).T.copy())],
      tol=1e-6, target='B')
def tochw(S, E):
    im = hl.ImageParam(U8, 3, "im"); ms = hl.ImageParam(F32, 2, "ms")
    c, x, y = V("c", "x", "y")
    nrm = F("tc_norm"); nrm[c, x, y] = (hl.f32(im[x, y, c]) / 255.0 - ms[0, c]) / ms[1, c]
    fl = F("tc_flip"); fl[c, x, y] = nrm[c, S['W'] - 1 - x, y]
    est_in(im, E['W'], E['H'], 3); est_in(ms, 2, 3); est_out(nrm, [c, x, y], 3, E['W'], E['H']); est_out(fl, [c, x, y], 3, E['W'], E['H'])
    return [nrm, fl], [im, ms]


# ======================================= image: filters, warps, misc ============================================

@spec("local_range_2d_hlmax_minus_hlmin_mirror_image_u8", "local range (max - min) over a non-separable (2R+1)^2 window (R 1..4): two inline hl.maximum / hl.minimum over RDom(0, 2R+1, 0, 2R+1) read at x + r - R on mirror_image u8",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 4)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def localrange(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])
    r = RD((0, 2 * S['R'] + 1), (0, 2 * S['R'] + 1))
    v = e[x + r.x - S['R'], y + r.y - S['R']]
    o = F("lr_out"); o[x, y] = hl.maximum(v) - hl.minimum(v)
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("guided_filter_color_guide_stacked_box_inv3x3", "colour-guide guided filter (He et al.) with radius R (1..4): the 13 needed products (I_c, p, I_c p, I_c I_d) stacked in ONE Func s[x, y, k] by hl.mux on k, box-filtered once (clamped separable RDom sums, normalised by in-image counts); per-pixel 3x3 (Sigma + eps) inverse by cofactors; a, b stacked and box-filtered again; q = mean_a . I + mean_b",
      {'W': (1, 512), 'H': (1, 512), 'R': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 3)), runif(r, (v['W'], v['H']))], tol=2e-3, target='A')
def guidedc(S, E):
    I = hl.ImageParam(F32, 3, "I"); P = hl.ImageParam(F32, 2, "p")
    x, y, k = V("x", "y", "k")
    W, H, R = S['W'], S['H'], S['R']
    Ic = [I[x, y, i] for i in range(3)]
    pairs = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    st = F("gc_stack")
    st[x, y, k] = hl.mux(k, Ic + [P[x, y]] + [Ic[i] * P[x, y] for i in range(3)] + [Ic[a] * Ic[b] for a, b in pairs])
    cnt = hl.f32((hl.min(x + R, W - 1) - hl.max(x - R, 0) + 1) * (hl.min(y + R, H - 1) - hl.max(y - R, 0) + 1))
    r = RD((-R, 2 * R + 1))

    def box(f, nm):
        bx = F(nm + "_x"); bx[x, y, k] = 0.0
        bx[x, y, k] += hl.select((x + r.x >= 0) & (x + r.x < W), f[hl.clamp(x + r.x, 0, W - 1), y, k], 0.0)
        by = F(nm + "_y"); by[x, y, k] = 0.0
        by[x, y, k] += hl.select((y + r.x >= 0) & (y + r.x < H), bx[x, hl.clamp(y + r.x, 0, H - 1), k], 0.0)
        m = F(nm + "_m"); m[x, y, k] = by[x, y, k] / cnt
        return m
    m = box(st, "gc_b1")
    mI = [m[x, y, i] for i in range(3)]; mp = m[x, y, 3]
    cov_ip = [m[x, y, 4 + i] - mI[i] * mp for i in range(3)]
    sg = {}
    for n_, (a, b) in enumerate(pairs):
        sg[(a, b)] = sg[(b, a)] = m[x, y, 7 + n_] - mI[a] * mI[b] + (0.01 if a == b else 0.0)
    s = lambda a, b: sg[(a, b)]
    c00 = s(1, 1) * s(2, 2) - s(1, 2) * s(2, 1); c01 = s(1, 2) * s(2, 0) - s(1, 0) * s(2, 2); c02 = s(1, 0) * s(2, 1) - s(1, 1) * s(2, 0)
    c11 = s(0, 0) * s(2, 2) - s(0, 2) * s(2, 0)
    c12 = s(0, 1) * s(2, 0) - s(0, 0) * s(2, 1)
    c22 = s(0, 0) * s(1, 1) - s(0, 1) * s(1, 0)
    det = s(0, 0) * c00 + s(0, 1) * c01 + s(0, 2) * c02
    inv = [[c00, c01, c02], [c01, c11, c12], [c02, c12, c22]]
    ab = F("gc_ab")
    av = [sum(inv[i][j] * cov_ip[j] for j in range(3)) / det for i in range(3)]
    ab[x, y, k] = hl.mux(k, av + [mp - av[0] * mI[0] - av[1] * mI[1] - av[2] * mI[2]])
    m2 = box(ab, "gc_b2")
    o = F("gc_out"); o[x, y] = m2[x, y, 0] * Ic[0] + m2[x, y, 1] * Ic[1] + m2[x, y, 2] * Ic[2] + m2[x, y, 3]
    est_in(I, E['W'], E['H'], 3); est_in(P, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [I, P]


@spec("joint_bilateral_guide_two_inline_sums_radius", "joint (cross) bilateral filter: range weights from a separate guide image g, spatial sigma tied to the run-time radius R (1..4); numerator and denominator as TWO separate inline hl.sum over the same RDom(-R..R)^2 (the weight expression is recomputed), repeat_edge on both images",
      {'W': (1, 512), 'H': (1, 512), 'R': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def jbil(S, E):
    im = hl.ImageParam(F32, 2, "im"); gd = hl.ImageParam(F32, 2, "guide")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]
    e = BF.repeat_edge(im, bnd); ge = BF.repeat_edge(gd, bnd)
    R = S['R']
    r = RD((-R, 2 * R + 1), (-R, 2 * R + 1))
    dg = ge[x + r.x, y + r.y] - ge[x, y]
    w = hl.exp(-dg * dg * 20.0 - hl.f32(r.x * r.x + r.y * r.y) / (2.0 * fE(R * R)))
    num = F("jb_num"); num[x, y] = hl.sum(w * e[x + r.x, y + r.y])
    den = F("jb_den"); den[x, y] = hl.sum(w)
    o = F("jb_out"); o[x, y] = num[x, y] / den[x, y]
    est_in(im, E['W'], E['H']); est_in(gd, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im, gd]


@spec("annulus_where_two_radii_tuple_mean_mirror_image", "ring mean between two run-time radii R1 (0..3) and R2 (4..7): RDom(-R2..R2)^2 with .where(R1^2 <= d^2 <= R2^2), a Tuple (sum f32, count i32) update, mirror_image input",
      {'W': (1, 512), 'H': (1, 512), 'R1': (0, 3), 'R2': (4, 7)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-5, target='A')
def annulus(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])
    R1, R2 = S['R1'], S['R2']
    r = RD((-R2, 2 * R2 + 1), (-R2, 2 * R2 + 1))
    d2 = r.x * r.x + r.y * r.y
    r.where((d2 >= R1 * R1) & (d2 <= R2 * R2))
    acc = F("an_acc"); acc[x, y] = (hl.f32(0), hl.i32(0))
    acc[x, y] = (acc[x, y][0] + e[x + r.x, y + r.y], acc[x, y][1] + 1)
    o = F("an_out"); o[x, y] = acc[x, y][0] / hl.f32(acc[x, y][1])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("blur_output_updates_zero_border_bands", "updates on an OUTPUT Func: 3x3 blur (repeat_edge) as the pure def, then four updates zeroing a border band of run-time width BW (1..4): rows via RDom(0, BW) at y = r and y = H-1-r (pure x), columns at x = r and x = W-1-r (pure y)",
      {'W': (8, 1024), 'H': (8, 768), 'BW': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-5, target='B')
def bordz(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    o = F("bz_out")
    o[x, y] = sum(e[x + i, y + j] for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9.0
    r = RD((0, S['BW']))
    o[x, r.x] = 0.0
    o[x, S['H'] - 1 - r.x] = 0.0
    o[r.x, y] = 0.0
    o[S['W'] - 1 - r.x, y] = 0.0
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("flow_warp_backward_bilinear_clamped_occlusion", "optical-flow backward warp: planar RGB f32 [W, H, 3] sampled at (x + u, y + v) from a flow buffer [W, H, 2] (|flow| up to 20 px), bilinear with clamped corner indices, plus a u8 out-of-bounds (occlusion) mask as a 2nd output",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(F32, [v['W'], v['H'], 3]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 3)), runif(r, (v['W'], v['H'], 2), -20.0, 20.0)], tol=1e-5, target='B')
def flowwarp(S, E):
    im = hl.ImageParam(F32, 3, "im"); fl = hl.ImageParam(F32, 3, "flow")
    x, y, c = V("x", "y", "c")
    W, H = S['W'], S['H']
    sx = F("fw_sx"); sx[x, y] = hl.f32(x) + fl[x, y, 0]
    sy = F("fw_sy"); sy[x, y] = hl.f32(y) + fl[x, y, 1]
    x0 = hl.i32(hl.floor(sx[x, y])); y0 = hl.i32(hl.floor(sy[x, y]))
    ax = sx[x, y] - hl.floor(sx[x, y]); ay = sy[x, y] - hl.floor(sy[x, y])
    g = lambda a, b: im[hl.clamp(a, 0, W - 1), hl.clamp(b, 0, H - 1), c]
    o = F("fw_out")
    o[x, y, c] = hl.lerp(hl.lerp(g(x0, y0), g(x0 + 1, y0), ax), hl.lerp(g(x0, y0 + 1), g(x0 + 1, y0 + 1), ax), ay)
    m = F("fw_occ")
    m[x, y] = hl.select((sx[x, y] < 0.0) | (sy[x, y] < 0.0) | (sx[x, y] > fE(W - 1)) | (sy[x, y] > fE(H - 1)), hl.u8(255), hl.u8(0))
    est_in(im, E['W'], E['H'], 3); est_in(fl, E['W'], E['H'], 2); est_out(o, [x, y, c], E['W'], E['H'], 3); est_out(m, [x, y], E['W'], E['H'])
    return [o, m], [im, fl]


@spec("fir_q15_i16_stereo_cinner_taps_param", "fixed-point FIR on interleaved-order stereo i16 audio x[2, N+T-1] (channel innermost), T (1..64) Q15 i16 taps: i32 accumulate of i32(h[t]) * i32(x[c, n + t]) by inline hl.sum, rounding >> 15, i16 saturating cast",
      {'N': (1, 4096), 'T': (1, 64)},
      outs=lambda v: [(I16, [2, v['N']])],
      data=lambda v, r: [randint(r, (2, v['N'] + v['T'] - 1), -4096, 4095, np.int16), randint(r, (v['T'],), -4096, 4095, np.int16)], target='A')
def firq15(S, E):
    xi = hl.ImageParam(I16, 2, "x"); h = hl.ImageParam(I16, 1, "h")
    c, n = V("c", "n")
    r = RD((0, S['T']))
    o = F("fq_out"); o[c, n] = hl.saturating_cast(I16, (hl.sum(hl.i32(h[r.x]) * hl.i32(xi[c, n + r.x])) + (1 << 14)) >> 15)
    est_in(xi, 2, E['N'] + E['T'] - 1); est_in(h, E['T']); est_out(o, [c, n], 2, E['N'])
    return [o], [xi, h]


@spec("segmentation_argmax_tuple_cxy_palette_rgb", "semantic-segmentation post-processing: logits channels-innermost [C, W, H] (C 1..32), explicit Tuple update (best value, best index) over RDom(0, C) with strict >, then a palette gather pal[3, idx] -> planar RGB u8 [W, H, 3] and the u8 class map",
      {'C': (1, 32), 'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(U8, [v['W'], v['H'], 3]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [fa(np.round(r.standard_normal((v['C'], v['W'], v['H'])) * 4).astype(np.float32) / 4), randint(r, (3, 32), 0, 255, np.uint8)], target='B')
def segarg(S, E):
    lg = hl.ImageParam(F32, 3, "logits"); pal = hl.ImageParam(U8, 2, "pal")
    x, y, c = V("x", "y", "c")
    r = RD((0, S['C']))
    bt = F("sg_best"); bt[x, y] = (hl.f32(-math.inf), hl.i32(0))
    better = lg[r.x, x, y] > bt[x, y][0]
    bt[x, y] = (hl.select(better, lg[r.x, x, y], bt[x, y][0]), hl.select(better, r.x, bt[x, y][1]))
    cm = F("sg_class"); cm[x, y] = hl.u8(bt[x, y][1])
    rgb = F("sg_rgb"); rgb[x, y, c] = pal[c, hl.clamp(bt[x, y][1], 0, 31)]
    est_in(lg, E['C'], E['W'], E['H']); est_in(pal, 3, 32); est_out(rgb, [x, y, c], E['W'], E['H'], 3); est_out(cm, [x, y], E['W'], E['H'])
    return [rgb, cm], [lg, pal]


# ======================================= follow-up ============================================================

@spec("resize_catmull_rom_weight_func_rdom4x4_f32_inline_idx", "follow-up of resize_catmull_rom_weight_func_rdom4x4_f32 (which Diet fails to compile): identical, except that the integer source coordinates floor(c) are written inline in the sum's index instead of as Funcs ix[x], iy[y] (so the gathered operand's footprint is bounded affinely)",
      {'W': (4, 800), 'H': (4, 600), 'OW': (1, 1200), 'OH': (1, 900)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def cubic_inline(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, k = V("x", "y", "k")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])

    def taps(v, n_in, n_out, nm):
        c = (hl.f32(v) + 0.5) * fE(n_in) / fE(n_out) - 0.5
        t = c - hl.floor(c)
        w = F(nm + "_w")
        w[v, k] = hl.mux(k, [((-0.5 * t + 1.0) * t - 0.5) * t, (1.5 * t - 2.5) * t * t + 1.0, ((-1.5 * t + 2.0) * t + 0.5) * t, (0.5 * t - 0.5) * t * t])
        return hl.i32(hl.floor(c)), w
    ix, wx = taps(x, S['W'], S['OW'], "ci_x")
    iy, wy = taps(y, S['H'], S['OH'], "ci_y")
    r = RD((0, 4), (0, 4))
    o = F("ci_out"); o[x, y] = hl.sum(wx[x, r.x] * wy[y, r.y] * e[ix + r.x - 1, iy + r.y - 1])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [im]


@spec("resize_bilinear_2x2_rdom_func_index_clamp_u8", "follow-up probe of the gather-contraction class: bilinear resize of u8 to OW x OH as a 2x2 RDom hl.sum of weight Funcs wx[x, k] * wy[y, k] * f32(im[clamp(ix[x] + r.x), clamp(iy[y] + r.y)]) with the integer source coordinates as Funcs ix, iy and the clamp written inline (no BoundaryConditions Func), rounded u8 output",
      {'W': (2, 800), 'H': (2, 600), 'OW': (1, 1200), 'OH': (1, 900)},
      outs=lambda v: [(U8, [v['OW'], v['OH']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def bilin2(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, k = V("x", "y", "k")

    def taps(v, n_in, n_out, nm):
        c = (hl.f32(v) + 0.5) * fE(n_in) / fE(n_out) - 0.5
        fl = F(nm + "_i"); fl[v] = hl.i32(hl.floor(c))
        t = c - hl.floor(c)
        w = F(nm + "_w"); w[v, k] = hl.select(k == 0, 1.0 - t, t)
        return fl, w
    ix, wx = taps(x, S['W'], S['OW'], "bl_x")
    iy, wy = taps(y, S['H'], S['OH'], "bl_y")
    r = RD((0, 2), (0, 2))
    v = hl.f32(im[hl.clamp(ix[x] + r.x, 0, S['W'] - 1), hl.clamp(iy[y] + r.y, 0, S['H'] - 1)])
    o = F("bl_out"); o[x, y] = hl.u8(hl.clamp(hl.sum(wx[x, r.x] * wy[y, r.y] * v) + 0.5, 0.0, 255.0))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [im]


@spec("deformable_conv3x3_int_offsets_buffer_cxy", "deformable-conv style contraction with DATA-DEPENDENT gathers: out[x, y, co] = b[co] + sum over RDom(3, 3, CI) of w[kx, ky, ci, co] * e[x + kx - 1 + off[0, kx + 3 ky, x, y], y + ky - 1 + off[1, kx + 3 ky, x, y], ci] with integer offsets in [-2, 2] from an i32 buffer off[2, 9, W, H], e = repeat_edge; explicit update Func",
      {'W': (1, 256), 'H': (1, 256), 'CI': (1, 16), 'CO': (1, 16)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['CO']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['CI'])), randint(r, (2, 9, v['W'], v['H']), -2, 2), rimg(r, (3, 3, v['CI'], v['CO'])), rimg(r, (v['CO'],))],
      tol=1e-4, target='B')
def deform(S, E):
    xi = hl.ImageParam(F32, 3, "x"); off = hl.ImageParam(I32, 4, "off"); w = hl.ImageParam(F32, 4, "w"); bi = hl.ImageParam(F32, 1, "b")
    x, y, co = V("x", "y", "co")
    e = BF.repeat_edge(xi, [(0, S['W']), (0, S['H']), (0, S['CI'])])
    r = RD((0, 3), (0, 3), (0, S['CI']))
    kk = r.x + 3 * r.y
    acc = F("df_out"); acc[x, y, co] = bi[co]
    acc[x, y, co] += w[r.x, r.y, r.z, co] * e[x + r.x - 1 + off[0, kk, x, y], y + r.y - 1 + off[1, kk, x, y], r.z]
    est_in(xi, E['W'], E['H'], E['CI']); est_in(off, 2, 9, E['W'], E['H']); est_in(w, 3, 3, E['CI'], E['CO']); est_in(bi, E['CO'])
    est_out(acc, [x, y, co], E['W'], E['H'], E['CO'])
    return [acc], [xi, off, w, bi]
