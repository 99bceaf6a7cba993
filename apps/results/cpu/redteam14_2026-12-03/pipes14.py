"""Red-team round 14 pipelines for Diet: new algorithms and styles not used by rounds 1-13 (camera WB + CCM over an
interleaved c-innermost layout with a gamma LUT, FAST-9 segment test with u32 bit masks, non-local means with a 4-D
weight Func, domain-transform recursive filtering (data-dependent scan coefficients, both directions), 3-level u16
pyramid with a different boundary condition per level, fractional-coverage area resampling, 5x5 median by a pruned
Batcher network over Tuple column sorts, scatter-free histogram equalisation (256 x W x H select sum, triangular
RDom.where CDF), hysteresis by select-chain propagation, UYVY 4:2:2 decoding with Tuple Funcs, Sauvola thresholding on
a Tuple integral image built by two updates of one Func, LoG zero crossings with run-time sigma, morphological
reconstruction by geodesic dilation, direct 4x4 bicubic of interleaved RGBA; NN: im2col with a flat divmod K,
train-mode batchnorm over 3 non-innermost reduction dims, MQA decoding against a KV cache with a position offset,
Tucker reconstruction with 3 RVars, int8 NHWC conv with per-channel fixed-point requant, AdaIN with Tuple stats,
bilinear pooling, causal linear attention by a 4-D state scan, depthwise conv with channel multiplier and select padding;
signal / scientific: segmented scans in both directions with a Tuple carry, variable-coefficient heat equation with
harmonic face means, 4th-order curl / divergence with Tuple outputs, argmin along a middle dim then gather, one
conjugate-gradient step with 0-D reductions, Lucas-Kanade flow with a Tuple 2x2 solve, 2-level integer Haar lifting
packed by quadrant selects, SSIM with a 0-D mean). Same spec format as round 13 (helpers imported from pipes13 -> pipes12
-> ... by importlib, not copied). target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants
for Adams2019c), E: estimates (the Params for Diet, ints otherwise)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec13 = importlib.util.spec_from_file_location("pipes_round13", os.path.join(_here, "..", "redteam13_2026-12-03", "pipes13.py"))
_round13 = importlib.util.module_from_spec(_spec13)
_spec13.loader.exec_module(_round13)
_round3 = _round13._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round13.V, _round13.est_in, _round13.est_out, _round13.fa, _round13.rimg, _round13.RD, _round13.TARGETS
D, MX, runif, randint, fE = _round13.D, _round13.MX, _round13.runif, _round13.randint, _round13.fE
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round13.F32, _round13.F64, _round13.U8, _round13.U16, _round13.U32, _round13.U64,
                                                  _round13.I8, _round13.I16, _round13.I32, _round13.I64)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def sq(e):
    return e * e


# ============================================ camera / image ==================================================

@spec("camera_wb_ccm_buffer_hlsum_c_gamma_lut4096_interleaved_u16_to_u8", "camera-pipe tail on INTERLEAVED 12-bit RGB u16 [c, x, y] (c innermost): black level 64, per-channel white-balance gains from a buffer wb[c], 3x3 colour matrix from a buffer ccm[ci, co] applied by hl.sum over RDom(0, 3) on c, clamp to [0, 1], then an sRGB gamma LUT Func of 4096 entries (piecewise linear / pow select) gathered at round(v * 4095) -> u8 interleaved",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 4095, np.uint16), runif(r, (3,), 1.0, 2.2), fa(np.array([[1.6, -0.4, -0.2], [-0.3, 1.5, -0.2], [-0.05, -0.45, 1.5]], np.float32).T.copy())], target='B')
def camwb(S, E):
    raw = hl.ImageParam(U16, 3, "rgb"); wb = hl.ImageParam(F32, 1, "wb"); ccm = hl.ImageParam(F32, 2, "ccm")
    c, x, y, i = V("c", "x", "y", "i")
    lin = F("cw_lin"); lin[c, x, y] = hl.max(hl.f32(raw[c, x, y]) - 64.0, 0.0) * wb[c] * (1.0 / 4031.0)
    rc = RD((0, 3), name="rc")
    cc = F("cw_ccm"); cc[c, x, y] = hl.clamp(hl.sum(ccm[rc.x, c] * lin[rc.x, x, y]), 0.0, 1.0)
    vv = hl.f32(i) * (1.0 / 4095.0)
    g = hl.select(vv <= 0.0031308, 12.92 * vv, 1.055 * hl.pow(vv, 1.0 / 2.4) - 0.055)
    lut = F("cw_gamma"); lut[i] = hl.u8(hl.clamp(g * 255.0 + 0.5, 0.0, 255.0))
    o = F("cw_out"); o[c, x, y] = lut[hl.clamp(hl.i32(cc[c, x, y] * 4095.0 + 0.5), 0, 4095)]
    est_in(raw, 3, E['W'], E['H']); est_in(wb, 3); est_in(ccm, 3, 3); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [raw, wb, ccm]


FAST_CIRCLE = [(0, -3), (1, -3), (2, -2), (3, -1), (3, 0), (3, 1), (2, 2), (1, 3), (0, 3), (-1, 3), (-2, 2), (-3, 1), (-3, 0), (-3, -1), (-2, -2), (-1, -3)]


@spec("fast9_circle16_offset_funcs_u32_bitmask_contiguous9_score_u8", "FAST-9 corner detector on repeat_edge u8: the 16 Bresenham-circle offsets as two mux Funcs dx[k], dy[k] read at the RVar, brighter / darker u32 bit masks by hl.sum of (1 << k) selects over RDom(0, 16), the contiguous-9 test as hl.maximum over 16 rotations of ((m | m << 16) >> k) & 0x1FF == 0x1FF, score = hl.sum max(|p - c| - T, 0); run-time threshold T; outputs u8 corner map and i32 score",
      {'W': (1, 1024), 'H': (1, 768), 'T': (1, 60)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (I32, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def fast9(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, k = V("x", "y", "k")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    dxf = F("fa_dx"); dxf[k] = hl.mux(k, [a for a, b in FAST_CIRCLE])
    dyf = F("fa_dy"); dyf[k] = hl.mux(k, [b for a, b in FAST_CIRCLE])
    rk = RD((0, 16), name="rk")
    p = hl.i32(e[x, y])
    q = hl.i32(e[x + dxf[rk.x], y + dyf[rk.x]])
    T = S['T']
    bm = F("fa_bright"); bm[x, y] = hl.sum(hl.select(q > p + T, hl.u32(1) << hl.u32(rk.x), hl.u32(0)))
    dm = F("fa_dark"); dm[x, y] = hl.sum(hl.select(q < p - T, hl.u32(1) << hl.u32(rk.x), hl.u32(0)))
    rq = RD((0, 16), name="rq")

    def cont9(m):
        m2 = m | (m << hl.u32(16))
        return hl.maximum(hl.select(((m2 >> hl.u32(rq.x)) & hl.u32(0x1FF)) == hl.u32(0x1FF), 1, 0))
    iscorner = F("fa_iscorner"); iscorner[x, y] = hl.max(cont9(bm[x, y]), cont9(dm[x, y]))
    sc = F("fa_scoreraw"); sc[x, y] = hl.sum(hl.max(hl.abs(q - p) - T, 0))
    score = F("fa_score"); score[x, y] = hl.select(iscorner[x, y] > 0, sc[x, y], 0)
    o = F("fa_map"); o[x, y] = hl.select(score[x, y] > 0, hl.u8(255), hl.u8(0))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H']); est_out(score, [x, y], E['W'], E['H'])
    return [o, score], [im]


@spec("nlmeans_4d_weight_func_patch3_search_radius_param_mirror_image_f32", "non-local means: a 4-D weight Func w[x, y, dx, dy] = exp(-hl.sum over a 3x3 patch of squared differences / 9) between (x, y) and (x + dx, y + dy) on mirror_image f32, then out = hl.sum(w * I) / hl.sum(w) over a search RDom(-SR..SR)^2 with run-time SR (0 = identity)",
      {'W': (1, 384), 'H': (1, 288), 'SR': (0, 3)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def nlm(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, dx, dy = V("x", "y", "dx", "dy")
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])
    rp = RD((-1, 3), (-1, 3), name="rp")
    w = F("nl_w"); w[x, y, dx, dy] = hl.exp(-hl.sum(sq(e[x + rp.x, y + rp.y] - e[x + dx + rp.x, y + dy + rp.y])) * (1.0 / 9.0))
    SR = S['SR']
    rs = RD((-SR, 2 * SR + 1), (-SR, 2 * SR + 1), name="rs")
    num = F("nl_num"); num[x, y] = hl.sum(w[x, y, rs.x, rs.y] * e[x + rs.x, y + rs.y])
    den = F("nl_den"); den[x, y] = hl.sum(w[x, y, rs.x, rs.y])
    o = F("nl_out"); o[x, y] = num[x, y] / den[x, y]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("domain_transform_rf_data_dependent_coeff_scans_ltr_rtl_ttb_btt_f32", "Gastal-Oliveira domain-transform recursive filter (one iteration): per-pixel feedback a^(1 + SS/0.5 |dI|) from repeat_edge differences of the input, then four order-dependent scans on separate Funcs: left-to-right (RDom(1, W-1)), right-to-left (x = W-2-r), top-to-bottom, bottom-to-top; spatial sigma SS a run-time int",
      {'W': (1, 768), 'H': (1, 512), 'SS': (1, 64)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def domtr(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    e = BF.repeat_edge(im, [(0, W), (0, H)])
    ss = fE(S['SS'])
    a = hl.exp(-math.sqrt(2.0) / ss)
    ax = F("dt_ax"); ax[x, y] = hl.pow(a, 1.0 + ss / 0.5 * hl.abs(e[x, y] - e[x - 1, y]))
    ay = F("dt_ay"); ay[x, y] = hl.pow(a, 1.0 + ss / 0.5 * hl.abs(e[x, y] - e[x, y - 1]))
    h1 = F("dt_ltr"); h1[x, y] = im[x, y]
    r1 = RD((1, W - 1), name="r1")
    h1[r1.x, y] = h1[r1.x, y] + ax[r1.x, y] * (h1[r1.x - 1, y] - h1[r1.x, y])
    h2 = F("dt_rtl"); h2[x, y] = h1[x, y]
    r2 = RD((0, W - 1), name="r2"); xx = W - 2 - r2.x
    h2[xx, y] = h2[xx, y] + ax[xx + 1, y] * (h2[xx + 1, y] - h2[xx, y])
    v1 = F("dt_ttb"); v1[x, y] = h2[x, y]
    r3 = RD((1, H - 1), name="r3")
    v1[x, r3.x] = v1[x, r3.x] + ay[x, r3.x] * (v1[x, r3.x - 1] - v1[x, r3.x])
    v2 = F("dt_btt"); v2[x, y] = v1[x, y]
    r4 = RD((0, H - 1), name="r4"); yy = H - 2 - r4.x
    v2[x, yy] = v2[x, yy] + ay[x, yy + 1] * (v2[x, yy + 1] - v2[x, yy])
    est_in(im, E['W'], E['H']); est_out(v2, [x, y], E['W'], E['H'])
    return [v2], [im]


def _half(n):
    return D(n + 1, 2)


def _h3(n):
    return (((n + 1) // 2 + 1) // 2 + 1) // 2


@spec("pyramid3_u16_binomial5_mirror_interior_const_exterior_repeat_edge_up_parity", "3-level u16 Gaussian pyramid with the 5-tap binomial [1 4 6 4 1]/16 per axis in u32, a DIFFERENT boundary condition per level (mirror_interior on the input, constant_exterior(0) on level 1, repeat_edge on level 2), sizes (n+1)/2; upsampling by parity selects ((1 6 1)/8 at even, (4 4)/8 at odd) with clamped indices; outputs i16 band-pass level 0, level 1 and the u16 level 3",
      {'W': (8, 1024), 'H': (8, 768)},
      outs=lambda v: [(I16, [v['W'], v['H']]), (I16, [(v['W'] + 1) // 2, (v['H'] + 1) // 2]), (U16, [_h3(v['W']), _h3(v['H'])])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16)], target='B')
def pyr3(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y = V("x", "y")
    W0, H0 = S['W'], S['H']
    W1, H1 = _half(W0), _half(H0)
    W2, H2 = _half(W1), _half(H1)
    W3, H3 = _half(W2), _half(H2)

    def down(b, nm):
        t = lambda f, a, bb: hl.u32(f(a, bb))
        dx = F(nm + "_dx"); dx[x, y] = (t(b, 2 * x - 2, y) + 4 * t(b, 2 * x - 1, y) + 6 * t(b, 2 * x, y) + 4 * t(b, 2 * x + 1, y) + t(b, 2 * x + 2, y))
        dy = F(nm); dy[x, y] = hl.u16((dx[x, 2 * y - 2] + 4 * dx[x, 2 * y - 1] + 6 * dx[x, 2 * y] + 4 * dx[x, 2 * y + 1] + dx[x, 2 * y + 2] + 128) >> 8)
        return dy
    e0 = BF.mirror_interior(im, [(0, W0), (0, H0)])
    l1 = down(lambda a, b: e0[a, b], "py_l1")
    e1 = BF.constant_exterior(l1, 0, [(0, W1), (0, H1)])
    l2 = down(lambda a, b: e1[a, b], "py_l2")
    e2 = BF.repeat_edge(l2, [(0, W2), (0, H2)])
    l3 = down(lambda a, b: e2[a, b], "py_l3")

    def up(l, Wl, Hl, nm):
        c = lambda a, b: hl.i32(l[hl.clamp(a, 0, Wl - 1), hl.clamp(b, 0, Hl - 1)])
        ux = F(nm + "_x")
        ux[x, y] = hl.select(x % 2 == 0, c(x / 2 - 1, y) + 6 * c(x / 2, y) + c(x / 2 + 1, y), 4 * c(x / 2, y) + 4 * c(x / 2 + 1, y))
        uy = F(nm)
        uy[x, y] = hl.select(y % 2 == 0, ux[x, y / 2 - 1] + 6 * ux[x, y / 2] + ux[x, y / 2 + 1], 4 * ux[x, y / 2] + 4 * ux[x, y / 2 + 1])
        return uy
    u1 = up(l1, W1, H1, "py_up1")
    u2 = up(l2, W2, H2, "py_up2")
    b0 = F("py_band0"); b0[x, y] = hl.i16(hl.clamp(hl.i32(im[x, y]) - (u1[x, y] + 32) / 64, -32768, 32767))
    b1 = F("py_band1"); b1[x, y] = hl.i16(hl.clamp(hl.i32(l1[x, y]) - (u2[x, y] + 32) / 64, -32768, 32767))
    o3 = F("py_l3out"); o3[x, y] = l3[x, y]
    est_in(im, E['W'], E['H']); est_out(b0, [x, y], E['W'], E['H']); est_out(b1, [x, y], _half(E['W']), _half(E['H']))
    est_out(o3, [x, y], _half(_half(_half(E['W']))), _half(_half(_half(E['H']))))
    return [b0, b1, o3], [im]


@spec("resize_area_fractional_coverage_weight_funcs_expr_rdom_extent_f32", "area (box-coverage) resampling to run-time OW x OH for ANY ratio: per output column the overlap of [ox*sx, (ox+1)*sx) with each input pixel as a weight Func wx[k, ox] (k = 0 .. W/OW + 1, the RDom extent an Expr of two Params), separable x pass then y pass, input index clamp(floor(x0) + k) computed per output",
      {'W': (1, 1024), 'H': (1, 768), 'OW': (1, 512), 'OH': (1, 384)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def areares(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, k, ox, oy = V("x", "y", "k", "ox", "oy")
    W, H, OW, OH = S['W'], S['H'], S['OW'], S['OH']
    sx = fE(W) / fE(OW); sy = fE(H) / fE(OH)

    def wfun(o, k, s, nm):
        x0 = hl.f32(o) * s; x1 = x0 + s
        i0 = hl.floor(x0)
        f = F(nm); f[k, o] = hl.max(hl.min(x1, i0 + hl.f32(k) + 1.0) - hl.max(x0, i0 + hl.f32(k)), 0.0) / s
        return f
    wx = wfun(ox, k, sx, "ar_wx"); wy = wfun(oy, k, sy, "ar_wy")
    rx = RD((0, D(W, OW) + 2), name="rx"); ry = RD((0, D(H, OH) + 2), name="ry")
    ix0 = hl.i32(hl.floor(hl.f32(ox) * sx)); iy0 = hl.i32(hl.floor(hl.f32(oy) * sy))
    hx = F("ar_hx"); hx[ox, y] = hl.sum(wx[rx.x, ox] * im[hl.clamp(ix0 + rx.x, 0, W - 1), y])
    o = F("ar_out"); o[ox, oy] = hl.sum(wy[ry.x, oy] * hx[ox, hl.clamp(iy0 + ry.x, 0, H - 1)])
    est_in(im, E['W'], E['H']); est_out(o, [ox, oy], E['OW'], E['OH'])
    return [o], [im]


def _batcher_pairs(n):
    """Batcher odd-even merge sort comparators for the next power of two >= n, keeping those with both ends < n
    (the rest compare against +inf padding and are no-ops)"""
    N = 1
    while N < n:
        N *= 2
    pairs = []
    p = 1
    while p < N:
        k = p
        while k >= 1:
            for j in range(k % p, N - k, 2 * k):
                for i in range(min(k, N - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return [(a, b) for a, b in pairs if a < n and b < n]


def _pruned(pairs, want):
    need, keep = {want}, []
    for a, b in reversed(pairs):
        if a in need or b in need:
            keep.append((a, b)); need |= {a, b}
    return list(reversed(keep))


@spec("median5x5_tuple_column_sort5_then_pruned_batcher25_u8", "5x5 median on mirror_image u8: each column of 5 sorted by a 9-comparator network into a 5-Tuple Func, then the 25 window values (5 Tuple columns at x-2..x+2) through a Batcher odd-even merge network generated in Python and pruned backwards to the comparators that reach rank 12 (min / max Exprs)",
      {'W': (1, 768), 'H': (1, 512)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def med25(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])
    col = [e[x, y + d] for d in range(-2, 3)]
    for a, b in [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)]:
        col[a], col[b] = hl.min(col[a], col[b]), hl.max(col[a], col[b])
    cs = F("md_colsort"); cs[x, y] = tuple(col)
    vals = [cs[x + d, y][i] for d in range(-2, 3) for i in range(5)]
    for a, b in _pruned(_batcher_pairs(25), 12):
        vals[a], vals[b] = hl.min(vals[a], vals[b]), hl.max(vals[a], vals[b])
    o = F("md_median"); o[x, y] = vals[12]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("histeq_no_scatter_bin_select_sum_wh_then_where_b_le_triangle_cdf_u8", "histogram equalisation written WITHOUT a scatter, the way a numpy user might: hist[b] = hl.sum over the whole image of select(im == b, 1, 0) (256 x W x H work), cdf[b] = 0; cdf[b] += hist[r] over RDom(0, 256).where(r <= b) (explicit update, predicate on the pure var), cdf_min as a 0-D hl.minimum over nonzero bins, integer remap; outputs u8 image and the i32 histogram",
      {'W': (1, 512), 'H': (1, 384)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (I32, [256])],
      data=lambda v, r: [fa(np.clip(r.normal(100, 30, size=(v['W'], v['H'])), 0, 255).astype(np.uint8))], target='B')
def histeqns(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, b = V("x", "y", "b")
    W, H = S['W'], S['H']
    r = RD((0, W), (0, H), name="rxy")
    hist = F("hn_hist"); hist[b] = hl.sum(hl.select(hl.i32(im[r.x, r.y]) == b, 1, 0))
    rc = RD((0, 256), name="rc"); rc.where(rc.x <= b)
    cdf = F("hn_cdf"); cdf[b] = 0; cdf[b] += hist[rc.x]  # (an inline hl.sum with this where is rejected: "Undefined variable b in sum$")
    rb = RD((0, 256), name="rb")
    N = W * H
    cmin = F("hn_cmin"); cmin[()] = hl.minimum(hl.select(cdf[rb.x] > 0, cdf[rb.x], N))
    den = hl.max(N - cmin[()], 1)
    o = F("hn_out"); o[x, y] = hl.u8(hl.clamp(((cdf[hl.i32(im[x, y])] - cmin[()]) * 255 + den / 2) / den, 0, 255))
    ho = F("hn_histout"); ho[b] = hist[b]
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H']); est_out(ho, [b], 256)
    return [o, ho], [im]


@spec("hysteresis_4_propagation_steps_8nbr_or_select_constant_exterior_u8", "edge hysteresis by 4 explicit propagation steps: labels 0 / 1 (weak) / 2 (strong) from run-time LO / HI thresholds on constant_exterior(0) u8 magnitudes, each step a Func promoting a weak pixel with any strong 8-neighbour (an OR of 8 compares inside a select), final u8 edge map",
      {'W': (1, 1024), 'H': (1, 768), 'LO': (1, 100), 'HI': (50, 200)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def hyst4(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    e = BF.constant_exterior(im, 0, [(0, S['W']), (0, S['H'])])
    lab = F("hy_lab0"); lab[x, y] = hl.select(hl.i32(e[x, y]) >= S['HI'], hl.u8(2), hl.i32(e[x, y]) >= S['LO'], hl.u8(1), hl.u8(0))
    for it in range(4):
        nb = None
        for dx, dy in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]:
            t = lab[x + dx, y + dy] == 2
            nb = t if nb is None else (nb | t)
        nxt = F("hy_lab%d" % (it + 1)); nxt[x, y] = hl.select((lab[x, y] == 1) & nb, hl.u8(2), lab[x, y])
        lab = nxt
    o = F("hy_edges"); o[x, y] = hl.select(lab[x, y] == 2, hl.u8(255), hl.u8(0))
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("uyvy422_packed_decode_tuple_yuv_bt601_planar_rgb_and_row_stats_tuple", "UYVY 4:2:2 packed u8 frames [4 * W2, H] (U Y0 V Y1 per pixel pair): a 3-Tuple yuv Func read at computed byte offsets 4*(x/2) + 1 + 2*(x%2), BT.601 limited-range to planar f32 RGB [x, y, c] via hl.mux(c, ...), plus per-row luma stats as a 2-Tuple (sum, max) explicit update over RDom(0, 2*W2)",
      {'W2': (1, 512), 'H': (1, 576)},
      outs=lambda v: [(F32, [2 * v['W2'], v['H'], 3]), (F32, [v['H'], 2])],
      data=lambda v, r: [randint(r, (4 * v['W2'], v['H']), 0, 255, np.uint8)], tol=1e-5, target='B')
def uyvy(S, E):
    p = hl.ImageParam(U8, 2, "uyvy")
    x, y, c, k = V("x", "y", "c", "k")
    base = 4 * (x / 2)
    yuv = F("uy_yuv"); yuv[x, y] = (hl.f32(p[base + 1 + 2 * (x % 2), y]) - 16.0, hl.f32(p[base, y]) - 128.0, hl.f32(p[base + 2, y]) - 128.0)
    Y, U, Vv = yuv[x, y][0], yuv[x, y][1], yuv[x, y][2]
    R = 1.164 * Y + 1.596 * Vv
    G = 1.164 * Y - 0.392 * U - 0.813 * Vv
    B = 1.164 * Y + 2.017 * U
    o = F("uy_rgb"); o[x, y, c] = hl.clamp(hl.mux(c, [R, G, B]), 0.0, 255.0)
    st = F("uy_rowstat"); st[y] = (hl.f32(0.0), hl.f32(-1e9))
    r = RD((0, 2 * S['W2']), name="rw")
    yy = yuv[r.x, y][0]
    st[y] = (st[y][0] + yy, hl.max(st[y][1], yy))
    so = F("uy_stats"); so[y, k] = hl.select(k == 0, st[y][0] / hl.f32(2 * S['W2']), st[y][1])
    est_in(p, 4 * E['W2'], E['H']); est_out(o, [x, y, c], 2 * E['W2'], E['H'], 3); est_out(so, [y, k], E['H'], 2)
    return [o, so], [p]


@spec("sauvola_tuple_integral_image_one_func_two_updates_f64_radius_param", "Sauvola binarisation: ONE Func holding a 2-Tuple (sum, sum of squares) f64 integral image, pure def from the pixel, update 1 scans x (RDom(1, W-1)), update 2 scans y (RDom(1, H-1)); window of run-time radius R with corners clamped to the image and index -1 read as 0 by select; threshold m (1 + 0.2 (s / 128 - 1)); outputs u8 binary and f32 threshold",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 15)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], tol=1e-5, target='A')
def sauvola(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    W, H, R = S['W'], S['H'], S['R']
    ii = F("sv_ii"); pv = hl.f64(im[x, y]); ii[x, y] = (pv, pv * pv)
    rx = RD((1, W - 1), name="rx")
    ii[rx.x, y] = (ii[rx.x, y][0] + ii[rx.x - 1, y][0], ii[rx.x, y][1] + ii[rx.x - 1, y][1])
    ry = RD((1, H - 1), name="ry")
    ii[x, ry.x] = (ii[x, ry.x][0] + ii[x, ry.x - 1][0], ii[x, ry.x][1] + ii[x, ry.x - 1][1])

    def A(xa, ya, c):
        return hl.select((xa < 0) | (ya < 0), hl.f64(0.0), ii[hl.clamp(xa, 0, W - 1), hl.clamp(ya, 0, H - 1)][c])
    x1, y1 = hl.min(x + R, W - 1), hl.min(y + R, H - 1)
    x0, y0 = hl.max(x - R, 0) - 1, hl.max(y - R, 0) - 1
    n = hl.f64((x1 - x0) * (y1 - y0))
    box = lambda c: A(x1, y1, c) - A(x0, y1, c) - A(x1, y0, c) + A(x0, y0, c)
    st = F("sv_stats"); st[x, y] = (box(0) / n, box(1) / n)
    m = st[x, y][0]
    s = hl.sqrt(hl.max(st[x, y][1] - m * m, 0.0))
    th = F("sv_thresh"); th[x, y] = m * (1.0 + 0.2 * (s / 128.0 - 1.0))
    o = F("sv_bin"); o[x, y] = hl.select(hl.f64(im[x, y]) > th[x, y], hl.u8(255), hl.u8(0))
    to = F("sv_th_out"); to[x, y] = hl.f32(th[x, y])
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H']); est_out(to, [x, y], E['W'], E['H'])
    return [o, to], [im]


@spec("log_zero_crossings_sigma_tenths_param_radius_expr_kernel_func_0d_norm", "Marr-Hildreth edges: Gaussian kernel Func k[i] = exp(-i^2 / 2s^2) with s = SIG10 / 10 and radius R = (3 SIG10 + 9) / 10 an Expr of the Param, 0-D normaliser Func, separable blur of repeat_edge f32 over RDom(-R, 2R+1), 5-point Laplacian, zero crossings where lap changes sign towards x+1 or y+1 with |difference| > 0.05; outputs u8 map and f32 Laplacian",
      {'W': (1, 768), 'H': (1, 512), 'SIG10': (5, 40)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']), 0.0, 4.0)], tol=1e-4, target='B')
def logzc(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, i = V("x", "y", "i")
    e = BF.repeat_edge(im, [(0, S['W']), (0, S['H'])])
    sg = fE(S['SIG10']) / 10.0
    R = D(3 * S['SIG10'] + 9, 10)
    k = F("lz_k"); k[i] = hl.exp(-hl.f32(i * i) / (2.0 * sg * sg))
    rk = RD((-R, 2 * R + 1), name="rk")
    nrm = F("lz_norm"); nrm[()] = hl.sum(k[rk.x])
    gx = F("lz_gx"); gx[x, y] = hl.sum(k[rk.x] * e[x + rk.x, y]) / nrm[()]
    gy = F("lz_gy"); gy[x, y] = hl.sum(k[rk.x] * gx[x, y + rk.x]) / nrm[()]
    lap = F("lz_lap"); lap[x, y] = gy[x + 1, y] + gy[x - 1, y] + gy[x, y + 1] + gy[x, y - 1] - 4.0 * gy[x, y]
    l0 = lap[x, y]
    zx = (l0 * lap[x + 1, y] < 0.0) & (hl.abs(l0 - lap[x + 1, y]) > 0.05)
    zy = (l0 * lap[x, y + 1] < 0.0) & (hl.abs(l0 - lap[x, y + 1]) > 0.05)
    zc = F("lz_zc"); zc[x, y] = hl.select(zx | zy, hl.u8(255), hl.u8(0))
    lo = F("lz_lap_out"); lo[x, y] = lap[x, y]
    est_in(im, E['W'], E['H']); est_out(zc, [x, y], E['W'], E['H']); est_out(lo, [x, y], E['W'], E['H'])
    return [zc, lo], [im]


@spec("morph_reconstruction_geodesic_dilation_5_steps_hdome_u8", "h-dome transform by morphological reconstruction: marker = saturating im - HD (run-time HD), 5 geodesic dilation steps m' = min(hl.maximum 3x3 of constant_exterior(m, 0), im) each its own Func, outputs the h-dome im - m5 and the reconstruction m5 (u8)",
      {'W': (1, 1024), 'H': (1, 768), 'HD': (1, 64)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def mrecon(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    m = F("mr_m0"); m[x, y] = hl.u8(hl.max(hl.i32(im[x, y]) - S['HD'], 0))
    r = RD((-1, 3), (-1, 3), name="r")
    for it in range(5):
        mb = BF.constant_exterior(m, 0, [(0, W), (0, H)])
        n = F("mr_m%d" % (it + 1)); n[x, y] = hl.min(hl.maximum(mb[x + r.x, y + r.y]), im[x, y])
        m = n
    hd = F("mr_hdome"); hd[x, y] = im[x, y] - m[x, y]
    mo = F("mr_recon"); mo[x, y] = m[x, y]
    est_in(im, E['W'], E['H']); est_out(hd, [x, y], E['W'], E['H']); est_out(mo, [x, y], E['W'], E['H'])
    return [hd, mo], [im]


def _keys(t):
    a = -0.5
    at = hl.abs(t)
    return hl.select(at <= 1.0, ((a + 2.0) * at - (a + 3.0)) * at * at + 1.0, at < 2.0, ((a * at - 5.0 * a) * at + 8.0 * a) * at - 4.0 * a, 0.0)


@spec("bicubic_keys_direct_4x4_inline_sum_interleaved_rgba_u8_clamp_index", "bicubic (Keys a = -0.5) resize of INTERLEAVED RGBA u8 [c, x, y] (c innermost, 4 channels) to run-time OW x OH, written non-separably: one inline hl.sum over RDom(-1..2)^2 of keys(rx - tx) keys(ry - ty) in[c, clamp(ix + rx), clamp(iy + ry)], half-pixel centres, rounding to u8",
      {'W': (4, 512), 'H': (4, 384), 'OW': (1, 1024), 'OH': (1, 768)},
      outs=lambda v: [(U8, [4, v['OW'], v['OH']])],
      data=lambda v, r: [randint(r, (4, v['W'], v['H']), 0, 255, np.uint8)], target='A')
def bicubic(S, E):
    im = hl.ImageParam(U8, 3, "rgba")
    c, ox, oy = V("c", "ox", "oy")
    W, H = S['W'], S['H']
    fx = (hl.f32(ox) + 0.5) * (fE(W) / fE(S['OW'])) - 0.5
    fy = (hl.f32(oy) + 0.5) * (fE(H) / fE(S['OH'])) - 0.5
    ix, iy = hl.floor(fx), hl.floor(fy)
    tx, ty = fx - ix, fy - iy
    r = RD((-1, 4), (-1, 4), name="r")
    val = hl.sum(_keys(hl.f32(r.x) - tx) * _keys(hl.f32(r.y) - ty) *
                 hl.f32(im[c, hl.clamp(hl.i32(ix) + r.x, 0, W - 1), hl.clamp(hl.i32(iy) + r.y, 0, H - 1)]))
    o = F("bc_out"); o[c, ox, oy] = hl.u8(hl.clamp(val + 0.5, 0.0, 255.0))
    est_in(im, 4, E['W'], E['H']); est_out(o, [c, ox, oy], 4, E['OW'], E['OH'])
    return [o], [im]


# ============================================ NN / linear algebra =============================================

@spec("conv3x3_im2col_flat_k_divmod_ci_kx_ky_nhwc_matmul_co_inner_bias_relu", "conv 3x3 (pad 1, CI = 16) the caffe way: an im2col Func col[k, w, h, n] over a FLAT K = 144 index decoded by divmod (ci = k % 16, kx = (k / 16) % 3, ky = k / 48) reading constant_exterior channels-last x[ci, w, h, n], then a matmul out[co, w, h, n] = relu(bias + hl.sum Wt[k, co] col[k, ...]) with co innermost; CO, W, H, N run-time",
      {'CO': (1, 64), 'W': (1, 56), 'H': (1, 56), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['CO'], v['W'], v['H'], v['N']])],
      data=lambda v, r: [rimg(r, (16, v['W'], v['H'], v['N'])), runif(r, (144, v['CO']), -0.2, 0.2), runif(r, (v['CO'],), -0.5, 0.5)], tol=1e-4, target='A')
def im2colflat(S, E):
    x = hl.ImageParam(F32, 4, "x"); Wt = hl.ImageParam(F32, 2, "Wt"); bias = hl.ImageParam(F32, 1, "bias")
    k, co, w, h, n = V("k", "co", "w", "h", "n")
    xp = BF.constant_exterior(x, 0.0, [(0, 16), (0, S['W']), (0, S['H']), (0, S['N'])])
    col = F("ic_col"); col[k, w, h, n] = xp[k % 16, w + (k / 16) % 3 - 1, h + k / 48 - 1, n]
    rk = RD((0, 144), name="rk")
    o = F("ic_out"); o[co, w, h, n] = hl.max(bias[co] + hl.sum(Wt[rk.x, co] * col[rk.x, w, h, n]), 0.0)
    est_in(x, 16, E['W'], E['H'], E['N']); est_in(Wt, 144, E['CO']); est_in(bias, E['CO'])
    est_out(o, [co, w, h, n], E['CO'], E['W'], E['H'], E['N'])
    return [o], [x, Wt, bias]


@spec("batchnorm_train_mode_stats_over_x_y_n_3rvars_channel_middle_running_update", "BatchNorm2d in TRAINING mode on NCHW stored [x, y, c, n]: per-channel mean and (two-pass) biased variance by hl.sum over a 3-D RDom (x, y, n) with c a middle dim, normalise + affine, and running-stat updates rm' = 0.9 rm + 0.1 mean, rv' = 0.9 rv + 0.1 var * cnt / max(cnt - 1, 1) as extra outputs",
      {'W': (1, 64), 'H': (1, 64), 'C': (1, 64), 'N': (1, 8)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C'], v['N']]), (F32, [v['C']]), (F32, [v['C']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C'], v['N'])), runif(r, (v['C'],), 0.5, 1.5), runif(r, (v['C'],), -0.5, 0.5), runif(r, (v['C'],), -0.1, 0.1), runif(r, (v['C'],), 0.8, 1.2)], tol=1e-4, target='B')
def bntrain(S, E):
    xi = hl.ImageParam(F32, 4, "x"); g = hl.ImageParam(F32, 1, "gamma"); bt = hl.ImageParam(F32, 1, "beta")
    rm = hl.ImageParam(F32, 1, "rmean"); rv = hl.ImageParam(F32, 1, "rvar")
    x, y, c, n = V("x", "y", "c", "n")
    r = RD((0, S['W']), (0, S['H']), (0, S['N']), name="r")
    cnt = fE(S['W'] * S['H'] * S['N'])
    mean = F("bt_mean"); mean[c] = hl.sum(xi[r.x, r.y, c, r.z]) / cnt
    var = F("bt_var"); var[c] = hl.sum(sq(xi[r.x, r.y, c, r.z] - mean[c])) / cnt
    o = F("bt_out"); o[x, y, c, n] = (xi[x, y, c, n] - mean[c]) / hl.sqrt(var[c] + 1e-5) * g[c] + bt[c]
    om = F("bt_rmean"); om[c] = 0.9 * rm[c] + 0.1 * mean[c]
    ov = F("bt_rvar"); ov[c] = 0.9 * rv[c] + 0.1 * var[c] * cnt / hl.max(cnt - 1.0, 1.0)
    est_in(xi, E['W'], E['H'], E['C'], E['N']); [est_in(b, E['C']) for b in (g, bt, rm, rv)]
    est_out(o, [x, y, c, n], E['W'], E['H'], E['C'], E['N']); est_out(om, [c], E['C']); est_out(ov, [c], E['C'])
    return [o, om, ov], [xi, g, bt, rm, rv]


@spec("mqa_decode_kv_cache_pos_offset_param_causal_select_neg_inf_heads_share_kv", "multi-query attention decoding step: TQ new queries per head q[d, h, tq] (D = 64) against ONE shared KV cache k[d, l], v[d, l] of length L; causal mask by select(l <= P + tq, score, -inf) with a run-time cache position P; softmax with hl.maximum / exp / hl.sum Funcs; out[d, h, tq]",
      {'TQ': (1, 16), 'L': (1, 1024), 'H': (1, 8), 'P': (0, 1008)},
      outs=lambda v: [(F32, [64, v['H'], v['TQ']])],
      data=lambda v, r: [rimg(r, (64, v['H'], v['TQ'])), rimg(r, (64, v['L'])), rimg(r, (64, v['L']))], tol=1e-4, target='A')
def mqa(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 2, "k"); vv = hl.ImageParam(F32, 2, "v")
    d, h, t, l = V("d", "h", "t", "l")
    rd = RD((0, 64), name="rd"); rl = RD((0, S['L']), name="rl")
    dot = F("mq_dot"); dot[l, h, t] = hl.sum(q[rd.x, h, t] * k[rd.x, l]) * 0.125
    s = F("mq_s"); s[l, h, t] = hl.select(l <= S['P'] + t, dot[l, h, t], hl.f32(float('-inf')))
    mx = F("mq_max"); mx[h, t] = hl.maximum(s[rl.x, h, t])
    e = F("mq_e"); e[l, h, t] = hl.exp(s[l, h, t] - mx[h, t])
    den = F("mq_den"); den[h, t] = hl.sum(e[rl.x, h, t])
    o = F("mq_out"); o[d, h, t] = hl.sum(e[rl.x, h, t] * vv[d, rl.x]) / den[h, t]
    est_in(q, 64, E['H'], E['TQ']); est_in(k, 64, E['L']); est_in(vv, 64, E['L'])
    est_out(o, [d, h, t], 64, E['H'], E['TQ'])
    return [o], [q, k, vv]


@spec("tucker_reconstruct_core_3_rvars_one_hlsum_factors_rank_inner", "Tucker reconstruction Y[i, j, k] = sum_{a, b, c} G[a, b, c] U[a, i] V[b, j] W[c, k] as ONE hl.sum over a 3-D RDom (ranks 8 x 8 x 8) with factor matrices stored rank-innermost; I, J, K run-time",
      {'I': (1, 48), 'J': (1, 48), 'K': (1, 48)},
      outs=lambda v: [(F32, [v['I'], v['J'], v['K']])],
      data=lambda v, r: [rimg(r, (8, 8, 8)), rimg(r, (8, v['I'])), rimg(r, (8, v['J'])), rimg(r, (8, v['K']))], tol=1e-4, target='A')
def tucker(S, E):
    G = hl.ImageParam(F32, 3, "G"); U = hl.ImageParam(F32, 2, "U"); Vm = hl.ImageParam(F32, 2, "V"); Wm = hl.ImageParam(F32, 2, "W")
    i, j, k = V("i", "j", "k")
    r = RD((0, 8), (0, 8), (0, 8), name="r")
    o = F("tk_out"); o[i, j, k] = hl.sum(G[r.x, r.y, r.z] * U[r.x, i] * Vm[r.y, j] * Wm[r.z, k])
    est_in(G, 8, 8, 8); est_in(U, 8, E['I']); est_in(Vm, 8, E['J']); est_in(Wm, 8, E['K'])
    est_out(o, [i, j, k], E['I'], E['J'], E['K'])
    return [o], [G, U, Vm, Wm]


@spec("int8_conv3x3_nhwc_u8_zp128_pad_i8_weights_perchannel_mult_shift_requant", "TFLite-style quantised conv 3x3 on channels-last u8 x[ci, w, h] (CI = 16, zero point 128, so padding is constant_exterior(128)), i8 weights wt[ci, kx, ky, co], i32 bias, hl.sum over a 3-D RDom of (x - 128) * w in i32, per-channel requant: rounding doubling high multiply by mult[co] (i64) then rounding right shift by shift[co], + output zero point 3, saturate to u8",
      {'CO': (1, 32), 'W': (1, 64), 'H': (1, 64)},
      outs=lambda v: [(U8, [v['CO'], v['W'], v['H']])],
      data=lambda v, r: [randint(r, (16, v['W'], v['H']), 0, 255, np.uint8), randint(r, (16, 3, 3, v['CO']), -127, 127, np.int8),
                         randint(r, (v['CO'],), -20000, 20000, np.int32), randint(r, (v['CO'],), 1 << 30, (1 << 31) - 1, np.int32), randint(r, (v['CO'],), 6, 10, np.int32)], target='B')
def qconv(S, E):
    x = hl.ImageParam(U8, 3, "x"); wt = hl.ImageParam(I8, 4, "wt"); bias = hl.ImageParam(I32, 1, "bias")
    mult = hl.ImageParam(I32, 1, "mult"); shift = hl.ImageParam(I32, 1, "shift")
    co, w, h = V("co", "w", "h")
    xp = BF.constant_exterior(x, hl.u8(128), [(0, 16), (0, S['W']), (0, S['H'])])
    r = RD((0, 16), (0, 3), (0, 3), name="r")
    acc = F("qc_acc"); acc[co, w, h] = bias[co] + hl.sum((hl.i32(xp[r.x, w + r.y - 1, h + r.z - 1]) - 128) * hl.i32(wt[r.x, r.y, r.z, co]))
    hi = hl.i32((hl.i64(acc[co, w, h]) * hl.i64(mult[co]) + hl.i64(1 << 30)) >> 31)
    sh = shift[co]
    rq = (hi + (hl.i32(1) << (sh - 1))) >> sh
    o = F("qc_out"); o[co, w, h] = hl.u8(hl.clamp(rq + 3, 0, 255))
    est_in(x, 16, E['W'], E['H']); est_in(wt, 16, 3, 3, E['CO']); [est_in(b, E['CO']) for b in (bias, mult, shift)]
    est_out(o, [co, w, h], E['CO'], E['W'], E['H'])
    return [o], [x, wt, bias, mult, shift]


@spec("adain_tuple_sum_sumsq_explicit_update_content_style_planar_nchw", "adaptive instance norm (style transfer): per (c, n) a 2-Tuple (sum, sum of squares) explicit update over RDom(0, W, 0, H) for the content and for the style image, one-pass mean / std, out = (x - mc) / sc * ss + ms on [x, y, c, n]",
      {'W': (1, 128), 'H': (1, 128), 'C': (1, 64), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C'], v['N']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C'], v['N'])), fa((2.0 * r.standard_normal((v['W'], v['H'], v['C'], v['N'])) + 0.5).astype(np.float32))], tol=1e-4, target='B')
def adain(S, E):
    xc = hl.ImageParam(F32, 4, "content"); xs = hl.ImageParam(F32, 4, "style")
    x, y, c, n = V("x", "y", "c", "n")
    cnt = fE(S['W'] * S['H'])

    def stats(img, nm):
        st = F(nm); st[c, n] = (hl.f32(0.0), hl.f32(0.0))
        r = RD((0, S['W']), (0, S['H']), name="r" + nm[-1])
        vv = img[r.x, r.y, c, n]
        st[c, n] = (st[c, n][0] + vv, st[c, n][1] + vv * vv)
        ms = F(nm + "_ms"); m = st[c, n][0] / cnt
        ms[c, n] = (m, hl.sqrt(hl.max(st[c, n][1] / cnt - m * m, 0.0) + 1e-5))
        return ms
    a = stats(xc, "ad_stc"); b = stats(xs, "ad_sts")
    o = F("ad_out"); o[x, y, c, n] = (xc[x, y, c, n] - a[c, n][0]) / a[c, n][1] * b[c, n][1] + b[c, n][0]
    est_in(xc, E['W'], E['H'], E['C'], E['N']); est_in(xs, E['W'], E['H'], E['C'], E['N'])
    est_out(o, [x, y, c, n], E['W'], E['H'], E['C'], E['N'])
    return [o], [xc, xs]


@spec("bilinear_pooling_outer_features_positions_inner_signed_sqrt_0d_l2", "bilinear CNN pooling: B[i, j] = hl.sum over positions of f1[p, i] f2[p, j] / P (both operands position-innermost), signed square root, then L2 normalisation by a 0-D hl.sum over the whole C1 x C2 matrix; C1, C2, P run-time",
      {'C1': (1, 128), 'C2': (1, 128), 'P': (1, 784)},
      outs=lambda v: [(F32, [v['C1'], v['C2']])],
      data=lambda v, r: [rimg(r, (v['P'], v['C1'])), rimg(r, (v['P'], v['C2']))], tol=1e-4, target='A')
def bipool(S, E):
    f1 = hl.ImageParam(F32, 2, "f1"); f2 = hl.ImageParam(F32, 2, "f2")
    i, j = V("i", "j")
    rp = RD((0, S['P']), name="rp")
    B = F("bp_B"); B[i, j] = hl.sum(f1[rp.x, i] * f2[rp.x, j]) / fE(S['P'])
    ys = F("bp_sqrt"); ys[i, j] = hl.select(B[i, j] >= 0.0, 1.0, -1.0) * hl.sqrt(hl.abs(B[i, j]))
    rr = RD((0, S['C1']), (0, S['C2']), name="rr")
    nrm = F("bp_norm"); nrm[()] = hl.sqrt(hl.sum(sq(ys[rr.x, rr.y])))
    o = F("bp_out"); o[i, j] = ys[i, j] / hl.max(nrm[()], 1e-12)
    est_in(f1, E['P'], E['C1']); est_in(f2, E['P'], E['C2']); est_out(o, [i, j], E['C1'], E['C2'])
    return [o], [f1, f2]


@spec("causal_linear_attention_elu1_feature_map_4d_state_scan_over_t", "causal linear attention (Katharopoulos et al.): phi = elu + 1, a 4-D running state kv[d, e, t, h] = kv[.., t-1, ..] + phi(k)[d, t, h] v[e, t, h] and z[d, t, h] as scans over RDom(1, T-1) (t a middle dim, D = 32), out[e, t, h] = hl.sum_d phi(q) kv / hl.sum_d phi(q) z; T and heads NH run-time",
      {'T': (1, 512), 'NH': (1, 4)},
      outs=lambda v: [(F32, [32, v['T'], v['NH']])],
      data=lambda v, r: [rimg(r, (32, v['T'], v['NH'])) for _ in range(3)], tol=1e-4, target='A')
def linattn(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 3, "k"); vv = hl.ImageParam(F32, 3, "v")
    d, e, t, h = V("d", "e", "t", "h")
    phi = lambda a: hl.select(a > 0.0, a + 1.0, hl.exp(a))
    pk = F("la_phik"); pk[d, t, h] = phi(k[d, t, h])
    pq = F("la_phiq"); pq[d, t, h] = phi(q[d, t, h])
    rt = RD((1, S['T'] - 1), name="rt")
    kv = F("la_kv"); kv[d, e, t, h] = pk[d, t, h] * vv[e, t, h]
    kv[d, e, rt.x, h] = kv[d, e, rt.x - 1, h] + pk[d, rt.x, h] * vv[e, rt.x, h]
    z = F("la_z"); z[d, t, h] = pk[d, t, h]
    rz = RD((1, S['T'] - 1), name="rz")
    z[d, rz.x, h] = z[d, rz.x - 1, h] + pk[d, rz.x, h]
    rd = RD((0, 32), name="rd")
    num = F("la_num"); num[e, t, h] = hl.sum(pq[rd.x, t, h] * kv[rd.x, e, t, h])
    den = F("la_den"); den[t, h] = hl.sum(pq[rd.x, t, h] * z[rd.x, t, h])
    o = F("la_out"); o[e, t, h] = num[e, t, h] / den[t, h]
    for ip in (q, k, vv):
        est_in(ip, 32, E['T'], E['NH'])
    est_out(o, [e, t, h], 32, E['T'], E['NH'])
    return [o], [q, k, vv]


@spec("depthwise3x3_channel_multiplier_param_select_padding_nchw_hardswish", "depthwise conv 3x3 with a run-time channel MULTIPLIER M (out channel co reads input channel co / M) on planar [x, y, c] f32, zero padding written by hand as select(in bounds, in[clamp(..)], 0), per-output-channel weights wt[kx, ky, co] and bias, hard-swish; C, M, W, H run-time",
      {'C': (1, 32), 'M': (1, 4), 'W': (1, 112), 'H': (1, 112)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C'] * v['M']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['C'])), runif(r, (3, 3, v['C'] * v['M']), -0.5, 0.5), runif(r, (v['C'] * v['M'],), -0.5, 0.5)], tol=1e-4, target='B')
def dwmult(S, E):
    xi = hl.ImageParam(F32, 3, "x"); wt = hl.ImageParam(F32, 3, "wt"); bias = hl.ImageParam(F32, 1, "bias")
    x, y, co = V("x", "y", "co")
    W, H = S['W'], S['H']
    r = RD((-1, 3), (-1, 3), name="r")
    xx, yy = x + r.x, y + r.y
    inb = (xx >= 0) & (xx < W) & (yy >= 0) & (yy < H)
    val = hl.select(inb, xi[hl.clamp(xx, 0, W - 1), hl.clamp(yy, 0, H - 1), co / S['M']], 0.0)
    acc = F("dm_acc"); acc[x, y, co] = bias[co] + hl.sum(wt[r.x + 1, r.y + 1, co] * val)
    a = acc[x, y, co]
    o = F("dm_out"); o[x, y, co] = a * hl.clamp(a + 3.0, 0.0, 6.0) * (1.0 / 6.0)
    est_in(xi, E['W'], E['H'], E['C']); est_in(wt, 3, 3, E['C'] * E['M']); est_in(bias, E['C'] * E['M'])
    est_out(o, [x, y, co], E['W'], E['H'], E['C'] * E['M'])
    return [o], [xi, wt, bias]


# ============================================ signal / scientific ============================================

@spec("segmented_scan_fwd_tuple_sum_segid_and_bwd_suffix_flags_u8_rows", "segmented prefix sums per row b of x[n, b] with u8 segment-start flags: forward a 2-Tuple (running sum restarting at a flag, i32 segment id = running count of flags) scan over RDom(1, N-1); backward an in-segment suffix sum over n = N-2-r that restarts where the NEXT element starts a segment; outputs the two sums and the segment ids",
      {'N': (1, 65536), 'B': (1, 8)},
      outs=lambda v: [(F32, [v['N'], v['B']]), (F32, [v['N'], v['B']]), (I32, [v['N'], v['B']])],
      data=lambda v, r: [rimg(r, (v['N'], v['B'])), fa((r.random((v['N'], v['B'])) < 0.01).astype(np.uint8))], tol=1e-4, target='B')
def segscan(S, E):
    xi = hl.ImageParam(F32, 2, "x"); fl = hl.ImageParam(U8, 2, "flags")
    n, b = V("n", "b")
    N = S['N']
    fw = F("sg_fwd"); fw[n, b] = (xi[n, b], hl.i32(fl[n, b]))
    r = RD((1, N - 1), name="r")
    st = fl[r.x, b] != 0
    fw[r.x, b] = (hl.select(st, xi[r.x, b], fw[r.x - 1, b][0] + xi[r.x, b]), fw[r.x - 1, b][1] + hl.i32(fl[r.x, b]))
    bw = F("sg_bwd"); bw[n, b] = xi[n, b]
    rr = RD((0, N - 1), name="rr"); nn = N - 2 - rr.x
    bw[nn, b] = hl.select(fl[nn + 1, b] != 0, xi[nn, b], bw[nn + 1, b] + xi[nn, b])
    o1 = F("sg_fsum"); o1[n, b] = fw[n, b][0]
    o3 = F("sg_segid"); o3[n, b] = fw[n, b][1]
    est_in(xi, E['N'], E['B']); est_in(fl, E['N'], E['B'])
    est_out(o1, [n, b], E['N'], E['B']); est_out(bw, [n, b], E['N'], E['B']); est_out(o3, [n, b], E['N'], E['B'])
    return [o1, bw, o3], [xi, fl]


@spec("heat3d_variable_coeff_harmonic_face_means_clamped_neumann_3_steps", "explicit heat equation u' = u + dt div(k grad u) on a 3-D grid [x, y, z] with a per-cell conductivity k: face conductivities as Funcs (harmonic mean 2 k1 k2 / (k1 + k2) of clamped neighbours), 3 time steps each its own Func reading the previous step at explicitly clamped indices (Neumann boundary); NX, NY, NZ run-time",
      {'NX': (1, 96), 'NY': (1, 96), 'NZ': (1, 96)},
      outs=lambda v: [(F32, [v['NX'], v['NY'], v['NZ']])],
      data=lambda v, r: [rimg(r, (v['NX'], v['NY'], v['NZ'])), runif(r, (v['NX'], v['NY'], v['NZ']), 0.2, 1.0)], tol=1e-4, target='A')
def heat3d(S, E):
    u0 = hl.ImageParam(F32, 3, "u"); kc = hl.ImageParam(F32, 3, "k")
    x, y, z = V("x", "y", "z")
    NX, NY, NZ = S['NX'], S['NY'], S['NZ']
    cl = lambda f, a, b, c: f[hl.clamp(a, 0, NX - 1), hl.clamp(b, 0, NY - 1), hl.clamp(c, 0, NZ - 1)]
    hm = lambda a, b: 2.0 * a * b / (a + b)
    kx = F("ht_kx"); kx[x, y, z] = hm(cl(kc, x, y, z), cl(kc, x + 1, y, z))
    ky = F("ht_ky"); ky[x, y, z] = hm(cl(kc, x, y, z), cl(kc, x, y + 1, z))
    kz = F("ht_kz"); kz[x, y, z] = hm(cl(kc, x, y, z), cl(kc, x, y, z + 1))
    u = u0
    for s in range(3):
        c0 = cl(u, x, y, z)
        flux = (kx[x, y, z] * (cl(u, x + 1, y, z) - c0) - kx[x - 1, y, z] * (c0 - cl(u, x - 1, y, z)) +
                ky[x, y, z] * (cl(u, x, y + 1, z) - c0) - ky[x, y - 1, z] * (c0 - cl(u, x, y - 1, z)) +
                kz[x, y, z] * (cl(u, x, y, z + 1) - c0) - kz[x, y, z - 1] * (c0 - cl(u, x, y, z - 1)))
        un = F("ht_u%d" % (s + 1)); un[x, y, z] = c0 + 0.1 * flux
        u = un
    est_in(u0, E['NX'], E['NY'], E['NZ']); est_in(kc, E['NX'], E['NY'], E['NZ']); est_out(u, [x, y, z], E['NX'], E['NY'], E['NZ'])
    return [u], [u0, kc]


@spec("curl_div_4th_order_interleaved_vec3_tuple_curl_func_0d_enstrophy", "4th-order central differences (-f2 + 8 f1 - 8 f-1 + f-2) / 12 of an INTERLEAVED 3-vector field F[c, x, y, z] on constant_exterior(0): curl as a 3-Tuple Func, output curl interleaved [c, x, y, z] via hl.mux on the Tuple, divergence [x, y, z] and a 0-D enstrophy hl.sum |curl|^2 over the whole grid",
      {'NX': (1, 64), 'NY': (1, 64), 'NZ': (1, 64)},
      outs=lambda v: [(F32, [3, v['NX'], v['NY'], v['NZ']]), (F32, [v['NX'], v['NY'], v['NZ']]), (F32, [])],
      data=lambda v, r: [rimg(r, (3, v['NX'], v['NY'], v['NZ']))], tol=1e-4, target='B')
def curldiv(S, E):
    fi = hl.ImageParam(F32, 4, "F")
    c, x, y, z = V("c", "x", "y", "z")
    fb = BF.constant_exterior(fi, 0.0, [(0, 3), (0, S['NX']), (0, S['NY']), (0, S['NZ'])])

    def d(comp, ax):
        o = [0, 0, 0]

        def at(s):
            oo = list(o); oo[ax] = s
            return fb[comp, x + oo[0], y + oo[1], z + oo[2]]
        return (-at(2) + 8.0 * at(1) - 8.0 * at(-1) + at(-2)) * (1.0 / 12.0)
    cu = F("cd_curl"); cu[x, y, z] = (d(2, 1) - d(1, 2), d(0, 2) - d(2, 0), d(1, 0) - d(0, 1))
    co = F("cd_curl_out"); co[c, x, y, z] = hl.mux(c, [cu[x, y, z][0], cu[x, y, z][1], cu[x, y, z][2]])
    dv = F("cd_div"); dv[x, y, z] = d(0, 0) + d(1, 1) + d(2, 2)
    r = RD((0, S['NX']), (0, S['NY']), (0, S['NZ']), name="r")
    ens = F("cd_enstrophy"); ens[()] = hl.sum(sq(cu[r.x, r.y, r.z][0]) + sq(cu[r.x, r.y, r.z][1]) + sq(cu[r.x, r.y, r.z][2]))
    est_in(fi, 3, E['NX'], E['NY'], E['NZ']); est_out(co, [c, x, y, z], 3, E['NX'], E['NY'], E['NZ']); est_out(dv, [x, y, z], E['NX'], E['NY'], E['NZ'])
    return [co, dv, ens], [fi]


@spec("argmin_middle_dim_explicit_tuple_update_first_tie_then_gather_u16", "per (x, z) argmin over the MIDDLE dim y of cost[x, y, z] as an explicit 2-Tuple (min, index) update (strict < keeps the first tie) over RDom(0, Y), then a gather of a second u16 volume at the winning y (clamped); outputs index i32, min cost f32 and the gathered u16",
      {'X': (1, 512), 'Y': (1, 256), 'Z': (1, 64)},
      outs=lambda v: [(I32, [v['X'], v['Z']]), (F32, [v['X'], v['Z']]), (U16, [v['X'], v['Z']])],
      data=lambda v, r: [fa(np.round(r.standard_normal((v['X'], v['Y'], v['Z'])) * 8).astype(np.float32)), randint(r, (v['X'], v['Y'], v['Z']), 0, 65535, np.uint16)], target='A')
def argminmid(S, E):
    cost = hl.ImageParam(F32, 3, "cost"); val = hl.ImageParam(U16, 3, "val")
    x, z = V("x", "z")
    am = F("am_tuple"); am[x, z] = (hl.f32(float('inf')), hl.i32(0))
    r = RD((0, S['Y']), name="ry")
    cv = cost[x, r.x, z]
    better = cv < am[x, z][0]
    am[x, z] = (hl.select(better, cv, am[x, z][0]), hl.select(better, r.x, am[x, z][1]))
    oi = F("am_idx"); oi[x, z] = am[x, z][1]
    om = F("am_min"); om[x, z] = am[x, z][0]
    og = F("am_gather"); og[x, z] = val[x, hl.clamp(am[x, z][1], 0, S['Y'] - 1), z]
    est_in(cost, E['X'], E['Y'], E['Z']); est_in(val, E['X'], E['Y'], E['Z'])
    est_out(oi, [x, z], E['X'], E['Z']); est_out(om, [x, z], E['X'], E['Z']); est_out(og, [x, z], E['X'], E['Z'])
    return [oi, om, og], [cost, val]


@spec("cg_step_5pt_laplacian_dirichlet_three_0d_dots_alpha_beta_axpys", "one conjugate-gradient iteration for the 5-point Laplacian with Dirichlet zero boundary (constant_exterior p): Ap, three 0-D dot products (r.r, p.Ap, r'.r') as hl.sum over 2-D RDoms, alpha and beta as 0-D Funcs, x' = x + alpha p, r' = r - alpha Ap, p' = r' + beta p; outputs x', r', p' and 0-D r'.r'",
      {'NX': (1, 1024), 'NY': (1, 1024)},
      outs=lambda v: [(F32, [v['NX'], v['NY']]), (F32, [v['NX'], v['NY']]), (F32, [v['NX'], v['NY']]), (F32, [])],
      data=lambda v, r: [rimg(r, (v['NX'], v['NY'])) for _ in range(3)], tol=1e-4, target='B')
def cgstep(S, E):
    xi = hl.ImageParam(F32, 2, "x"); ri = hl.ImageParam(F32, 2, "r"); pi = hl.ImageParam(F32, 2, "p")
    x, y = V("x", "y")
    NX, NY = S['NX'], S['NY']
    pb = BF.constant_exterior(pi, 0.0, [(0, NX), (0, NY)])
    Ap = F("cg_Ap"); Ap[x, y] = 4.0 * pb[x, y] - pb[x - 1, y] - pb[x + 1, y] - pb[x, y - 1] - pb[x, y + 1]
    r1 = RD((0, NX), (0, NY), name="r1")
    rr = F("cg_rr"); rr[()] = hl.sum(sq(ri[r1.x, r1.y]))
    r2 = RD((0, NX), (0, NY), name="r2")
    pAp = F("cg_pAp"); pAp[()] = hl.sum(pi[r2.x, r2.y] * Ap[r2.x, r2.y])
    alpha = F("cg_alpha"); alpha[()] = hl.select(pAp[()] != 0.0, rr[()] / pAp[()], 0.0)
    xn = F("cg_x1"); xn[x, y] = xi[x, y] + alpha[()] * pi[x, y]
    rn = F("cg_r1"); rn[x, y] = ri[x, y] - alpha[()] * Ap[x, y]
    r3 = RD((0, NX), (0, NY), name="r3")
    rr1 = F("cg_rr1"); rr1[()] = hl.sum(sq(rn[r3.x, r3.y]))
    pn = F("cg_p1"); pn[x, y] = rn[x, y] + rr1[()] / hl.max(rr[()], 1e-30) * pi[x, y]
    for ip in (xi, ri, pi):
        est_in(ip, E['NX'], E['NY'])
    for f in (xn, rn, pn):
        est_out(f, [x, y], E['NX'], E['NY'])
    return [xn, rn, pn, rr1], [xi, ri, pi]


@spec("lucas_kanade_window_radius_param_five_inline_sums_tuple_2x2_solve", "Lucas-Kanade optical flow: central-difference Ix, Iy and It = I1 - I0 on repeat_edge f32 frames, five inline hl.sum window sums (Sxx, Sxy, Syy, Sxt, Syt) over RDom(-R..R)^2 with run-time R, the 2x2 system solved in closed form into a 2-Tuple Func (u, v), zero where det <= 1e-3; outputs u and v",
      {'W': (1, 640), 'H': (1, 480), 'R': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H']))], tol=1e-3, target='A')
def lkflow(S, E):
    i0 = hl.ImageParam(F32, 2, "I0"); i1 = hl.ImageParam(F32, 2, "I1")
    x, y = V("x", "y")
    e0 = BF.repeat_edge(i0, [(0, S['W']), (0, S['H'])]); e1 = BF.repeat_edge(i1, [(0, S['W']), (0, S['H'])])
    Ix = F("lk_Ix"); Ix[x, y] = (e0[x + 1, y] - e0[x - 1, y]) * 0.5
    Iy = F("lk_Iy"); Iy[x, y] = (e0[x, y + 1] - e0[x, y - 1]) * 0.5
    It = F("lk_It"); It[x, y] = e1[x, y] - e0[x, y]
    R = S['R']
    rw = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rw")
    at = lambda f: f[x + rw.x, y + rw.y]
    sxx = hl.sum(at(Ix) * at(Ix)); sxy = hl.sum(at(Ix) * at(Iy)); syy = hl.sum(at(Iy) * at(Iy))
    sxt = hl.sum(at(Ix) * at(It)); syt = hl.sum(at(Iy) * at(It))
    det = sxx * syy - sxy * sxy
    ok = det > 1e-3
    fl = F("lk_flow"); fl[x, y] = (hl.select(ok, (-syy * sxt + sxy * syt) / det, 0.0), hl.select(ok, (sxy * sxt - sxx * syt) / det, 0.0))
    ou = F("lk_u"); ou[x, y] = fl[x, y][0]
    ov = F("lk_v"); ov[x, y] = fl[x, y][1]
    est_in(i0, E['W'], E['H']); est_in(i1, E['W'], E['H']); est_out(ou, [x, y], E['W'], E['H']); est_out(ov, [x, y], E['W'], E['H'])
    return [ou, ov], [i0, i1]


@spec("haar_lifting_2_levels_i32_packed_quadrant_selects_clamped_subbands", "2-level integer Haar (S-transform) lifting on i32 (h = a - b, l = b + (h >> 1)) rows then columns, the level-2 transform of the LL band, all subbands PACKED into one [4 W4, 4 H4] output by nested quadrant selects on (x, y) with each subband read at clamped coordinates; W4, H4 run-time",
      {'W4': (1, 256), 'H4': (1, 192)},
      outs=lambda v: [(I32, [4 * v['W4'], 4 * v['H4']])],
      data=lambda v, r: [randint(r, (4 * v['W4'], 4 * v['H4']), 0, 255, np.uint8)], target='B')
def haar2(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    W4, H4 = S['W4'], S['H4']
    W1, H1 = 2 * W4, 2 * H4

    def haar(src, nm):
        rh = F(nm + "_rh"); rh[x, y] = src(2 * x, y) - src(2 * x + 1, y)
        rl = F(nm + "_rl"); rl[x, y] = src(2 * x + 1, y) + (rh[x, y] >> 1)
        out = []
        for f, s in ((rl, "l"), (rh, "h")):
            ch = F(nm + "_" + s + "h"); ch[x, y] = f[x, 2 * y] - f[x, 2 * y + 1]
            cl = F(nm + "_" + s + "l"); cl[x, y] = f[x, 2 * y + 1] + (ch[x, y] >> 1)
            out += [cl, ch]
        return out  # LL, LH, HL, HH
    ll1, lh1, hl1, hh1 = haar(lambda a, b: hl.i32(im[a, b]), "hr1")
    ll2, lh2, hl2, hh2 = haar(lambda a, b: ll1[a, b], "hr2")
    cx = lambda f, a, b, Wq, Hq: f[hl.clamp(a, 0, Wq - 1), hl.clamp(b, 0, Hq - 1)]
    inner = hl.select((x < W4) & (y < H4), cx(ll2, x, y, W4, H4), y < H4, cx(hl2, x - W4, y, W4, H4),
                      x < W4, cx(lh2, x, y - H4, W4, H4), cx(hh2, x - W4, y - H4, W4, H4))
    o = F("hr_packed")
    o[x, y] = hl.select((x < W1) & (y < H1), inner, y < H1, cx(hl1, x - W1, y, W1, H1),
                        x < W1, cx(lh1, x, y - H1, W1, H1), cx(hh1, x - W1, y - H1, W1, H1))
    est_in(im, 4 * E['W4'], 4 * E['H4']); est_out(o, [x, y], 4 * E['W4'], 4 * E['H4'])
    return [o], [im]


_G11 = [math.exp(-(i - 5) ** 2 / (2 * 1.5 ** 2)) for i in range(11)]
_G11 = [g / sum(_G11) for g in _G11]


@spec("ssim_gauss11_python_unrolled_taps_five_moment_funcs_valid_0d_mean", "SSIM (Wang et al.) between two f32 images in [0, 1]: 11-tap Gaussian (sigma 1.5) written as Python-unrolled tap sums, separable, VALID region (no boundary condition, output (W-10) x (H-10)), applied to I1, I2, I1^2, I2^2, I1 I2 product Funcs, the SSIM map and its 0-D mean",
      {'W': (11, 768), 'H': (11, 512)},
      outs=lambda v: [(F32, [v['W'] - 10, v['H'] - 10]), (F32, [])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), fa(np.clip(runif(r, (v['W'], v['H'])) * 0.3 + 0.35, 0, 1).astype(np.float32))], tol=1e-4, target='A')
def ssim(S, E):
    a = hl.ImageParam(F32, 2, "I1"); b = hl.ImageParam(F32, 2, "I2")
    x, y = V("x", "y")
    p11 = F("ss_p11"); p11[x, y] = a[x, y] * a[x, y]
    p22 = F("ss_p22"); p22[x, y] = b[x, y] * b[x, y]
    p12 = F("ss_p12"); p12[x, y] = a[x, y] * b[x, y]

    def blur(f, nm):
        bx = F(nm + "_x"); bx[x, y] = sum(g * f[x + i, y] for i, g in enumerate(_G11))
        by = F(nm); by[x, y] = sum(g * bx[x, y + i] for i, g in enumerate(_G11))
        return by
    m1, m2, s11, s22, s12 = blur(a, "ss_mu1"), blur(b, "ss_mu2"), blur(p11, "ss_e11"), blur(p22, "ss_e22"), blur(p12, "ss_e12")
    C1, C2 = 0.01 ** 2, 0.03 ** 2
    mu1, mu2 = m1[x, y], m2[x, y]
    v1, v2, cv = s11[x, y] - mu1 * mu1, s22[x, y] - mu2 * mu2, s12[x, y] - mu1 * mu2
    mp = F("ss_map"); mp[x, y] = ((2.0 * mu1 * mu2 + C1) * (2.0 * cv + C2)) / ((mu1 * mu1 + mu2 * mu2 + C1) * (v1 + v2 + C2))
    r = RD((0, S['W'] - 10), (0, S['H'] - 10), name="r")
    mean = F("ss_mean"); mean[()] = hl.sum(mp[r.x, r.y]) / fE((S['W'] - 10) * (S['H'] - 10))
    est_in(a, E['W'], E['H']); est_in(b, E['W'], E['H']); est_out(mp, [x, y], E['W'] - 10, E['H'] - 10)
    return [mp, mean], [a, b]
