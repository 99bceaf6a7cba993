"""Red-team round 21 pipelines for Diet: IMAGE-PROCESSING AND SIGNAL PIPELINES WRITTEN THE WAY HALIDE USERS WRITE THEM IN
PYTHON (hl.lambda_func, Func.in_() wrappers, hl.select chains, hl.mux, Tuples, RDom.where, boundary conditions on
computed Funcs, u8/u16 saturating arithmetic, float16 storage, interleaved vs planar, batch dims), plus NN layers in
unusual layouts. Same spec format as rounds 3-20 (helpers and the registry factory imported from pipes20 -> pipes19 ->
... by importlib, not copied). target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for
Adams2019c), E: estimates. Every size and run-time scalar is a ranged int Param. Integer outputs are exact by
construction; float outputs are compared with the spec's relative tolerance."""
import importlib.util
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec20 = importlib.util.spec_from_file_location("pipes_round20", os.path.join(_here, "..", "redteam20_2026-12-07", "pipes20.py"))
_round20 = importlib.util.module_from_spec(_spec20)
_spec20.loader.exec_module(_round20)
_round3 = _round20._round3
V, est_in, est_out, fa, RD, TARGETS = _round20.V, _round20.est_in, _round20.est_out, _round20.fa, _round20.RD, _round20.TARGETS
runif, randint, rnorm = _round20.runif, _round20.randint, _round20.rnorm
F32, F64, U8, U16, U32, I8, I16, I32, I64 = (_round20.F32, _round20.F64, _round20.U8, _round20.U16, _round20.U32,
                                             _round20.I8, _round20.I16, _round20.I32, _round20.I64)
F16 = hl.Float(16)
BF = hl.BoundaryConditions
X = _round20.X
SPECS, spec, CREATED, F = _round3.registry()


def h16(e):
    return hl.cast(F16, e)


def shr4096(s):
    return 4096 >> s if isinstance(s, int) else hl.Expr(4096) >> s


def f16a(a):
    return fa(np.asarray(a).astype(np.float16))


# ============================================ image apps ====================================================

@spec("camera_pipe_rggb_u16_10bit_repeat_edge_bilinear_demosaic_hlmux_on_phase_x2_y2_q8_ccm_buffer_integer_curve_lut_func_1024_interleaved_rgb_u8",
      "camera-pipe fragment: 10-bit RGGB raw u16 [x, y] through repeat_edge, bilinear demosaic with integer rounding where R/G/B each pick one of 4 neighbour averages by hl.mux on the CFA phase x%2 + 2(y%2), a planar demosaic Func dm[x, y, c] = hl.mux(c, [R, G, B]), a Q8 colour-correction matrix from an i16 buffer ccm[k, c] (entries clamped to +-1024, raw clamped to 1023, result clamped to 0..1023), a 1024-entry integer tone-curve LUT Func (u8), output interleaved u8 out[c, x, y]; exact",
      {'W': (1, 640), 'H': (1, 480)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 1023, np.uint16),
                         fa(np.array([[300, -30, -14], [-20, 290, -14], [-24, -4, 284]], dtype=np.int16).T)], target='A')
def camera_pipe(S, E):
    raw = hl.ImageParam(U16, 2, "raw"); ccm = hl.ImageParam(I16, 2, "ccm")
    x, y, c, i = V("x", "y", "c", "i")
    re = BF.repeat_edge(raw, [(0, S['W']), (0, S['H'])])
    r = F("cp_r32"); r[x, y] = hl.min(hl.i32(re[x, y]), 1023)
    cross = (r[x - 1, y] + r[x + 1, y] + r[x, y - 1] + r[x, y + 1] + 2) // 4
    diag = (r[x - 1, y - 1] + r[x + 1, y - 1] + r[x - 1, y + 1] + r[x + 1, y + 1] + 2) // 4
    horiz = (r[x - 1, y] + r[x + 1, y] + 1) // 2
    vert = (r[x, y - 1] + r[x, y + 1] + 1) // 2
    ph = x % 2 + 2 * (y % 2)
    R = hl.mux(ph, [r[x, y], horiz, vert, diag])
    G = hl.mux(ph, [cross, r[x, y], r[x, y], cross])
    B = hl.mux(ph, [diag, vert, horiz, r[x, y]])
    dm = F("cp_demosaic"); dm[x, y, c] = hl.mux(c, [R, G, B])
    cc = F("cp_ccm"); cc[c, x, y] = hl.clamp((sum(hl.clamp(hl.i32(ccm[k, c]), -1024, 1024) * dm[x, y, k] for k in range(3)) + 128) >> 8, 0, 1023)
    ic = hl.clamp(i, 0, 1023)
    lut = F("cp_curve_lut"); lut[i] = hl.u8((ic * (2046 - ic)) // 4105)
    out = F("cp_out"); out[c, x, y] = lut[cc[c, x, y]]
    est_in(raw, E['W'], E['H']); est_in(ccm, 3, 3); est_out(out, [c, x, y], 3, E['W'], E['H'])
    return [out], [raw, ccm]


def _down(f, x, y, name, extra):
    """Halide-app style 1 3 3 1 downsample (x then y), defined on the infinite domain"""
    dx = F(name + "_dx"); dx[(x, y) + extra] = (f[(2 * x - 1, y) + extra] + 3.0 * (f[(2 * x, y) + extra] + f[(2 * x + 1, y) + extra]) + f[(2 * x + 2, y) + extra]) / 8.0
    d = F(name); d[(x, y) + extra] = (dx[(x, 2 * y - 1) + extra] + 3.0 * (dx[(x, 2 * y) + extra] + dx[(x, 2 * y + 1) + extra]) + dx[(x, 2 * y + 2) + extra]) / 8.0
    return d


def _up(f, x, y, name, extra):
    ux = F(name + "_ux"); ux[(x, y) + extra] = 0.25 * f[((x // 2) - 1 + 2 * (x % 2), y) + extra] + 0.75 * f[(x // 2, y) + extra]
    u = F(name); u[(x, y) + extra] = 0.25 * ux[(x, (y // 2) - 1 + 2 * (y % 2)) + extra] + 0.75 * ux[(x, y // 2) + extra]
    return u


@spec("local_laplacian_halide_app_style_3_pyramid_levels_8_intensity_levels_fixed_at_build_remap_lut_func_alpha_beta_tenths_params_planar_rgb_u16_in_f32_out",
      "local Laplacian filter in the Halide app's form: planar RGB u16 [x, y, c] in, repeat_edge, f32 gray, remap LUT Func alpha x exp(-x^2/2) over i/256, K = 8 intensity levels and J = 3 pyramid levels fixed at build (a Python loop), gPyramid over (x, y, k) by 1-3-3-1 downsamples on the infinite domain, lPyramid by 0.25/0.75 upsamples, data-dependent level lerp of the Laplacian pyramid, collapse, colour by ratio; alpha = AL/10, beta = BE/10 Params; f32 out [x, y, c]",
      {'W': (1, 512), 'H': (1, 512), 'AL': (0, 20), 'BE': (0, 10)},
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], 3), 0, 65535, np.uint16)], tol=2e-4, target='B')
def local_laplacian(S, E):
    inp = hl.ImageParam(U16, 3, "inp")
    x, y, c, k, i = V("x", "y", "c", "k", "i")
    J, K = 3, 8
    alpha = hl.f32(S['AL']) / 10.0; beta = hl.f32(S['BE']) / 10.0
    cl = BF.repeat_edge(inp, [(0, S['W']), (0, S['H'])])
    fin = F("ll_float"); fin[x, y, c] = hl.f32(cl[x, y, c]) / 65535.0
    gray = F("ll_gray"); gray[x, y] = 0.299 * fin[x, y, 0] + 0.587 * fin[x, y, 1] + 0.114 * fin[x, y, 2]
    remap = F("ll_remap"); fx = hl.f32(i) / 256.0
    remap[i] = alpha * fx * hl.exp(-fx * fx / 2.0)
    level = hl.f32(k) * (1.0 / (K - 1))
    idx = hl.clamp(hl.i32(gray[x, y] * hl.f32(K - 1) * 256.0), 0, (K - 1) * 256)
    g0 = F("ll_gpyr0"); g0[x, y, k] = beta * (gray[x, y] - level) + level + remap[idx - 256 * k]
    gP = [g0]
    for j in range(1, J):
        gP.append(_down(gP[-1], x, y, "ll_gpyr%d" % j, (k,)))
    lP = [None] * J; lP[J - 1] = gP[J - 1]
    for j in range(J - 1):
        up = _up(gP[j + 1], x, y, "ll_gup%d" % j, (k,))
        lP[j] = F("ll_lpyr%d" % j); lP[j][x, y, k] = gP[j][x, y, k] - up[x, y, k]
    inG = [gray]
    for j in range(1, J):
        inG.append(_down(inG[-1], x, y, "ll_ingpyr%d" % j, ()))
    outL = []
    for j in range(J):
        lv = inG[j][x, y] * hl.f32(K - 1)
        li = hl.clamp(hl.i32(lv), 0, K - 2); lf = lv - hl.f32(li)
        o = F("ll_outl%d" % j); o[x, y] = (1.0 - lf) * lP[j][x, y, li] + lf * lP[j][x, y, li + 1]
        outL.append(o)
    outG = [None] * J; outG[J - 1] = outL[J - 1]
    for j in range(J - 2, -1, -1):
        up = _up(outG[j + 1], x, y, "ll_oup%d" % j, ())
        outG[j] = F("ll_outg%d" % j); outG[j][x, y] = up[x, y] + outL[j][x, y]
    eps = 0.01
    out = F("ll_out"); out[x, y, c] = outG[0][x, y] * (fin[x, y, c] + eps) / (gray[x, y] + eps)
    est_in(inp, E['W'], E['H'], 3); est_out(out, [x, y, c], E['W'], E['H'], 3)
    return [out], [inp]


@spec("bilateral_grid_histogram_scatter_2d_rdom_over_image_clamped_cell_indices_tuple_value_weight_update_cell_param_8_z_bins_121_blurs_trilinear_slice_f32",
      "bilateral grid built the histogram way: grid[gx, gy, gz] = (0, 0), then a scatter over a 2-D RDom covering the whole image: grid[clamp((rx + S/2)/S), clamp((ry + S/2)/S), clamp(round(v*8))] = (old.v + v, old.w + 1) (a Tuple update with data-dependent clamped indices), 1-2-1 blurs in z, x, y (Tuple Funcs), trilinear slice at each pixel with weights from x/S, y/S, v*8 and value/weight normalization; cell size S a Param; f32 [x, y]",
      {'W': (1, 320), 'H': (1, 240), 'S': (2, 16)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-3, target='A')
def bilateral_grid(S, E):
    img = hl.ImageParam(F32, 2, "img")
    x, y, z = V("x", "y", "z")
    s = S['S']; NZ = 8
    gw = (S['W'] - 1 + s // 2) // s; gh = (S['H'] - 1 + s // 2) // s
    r = RD((0, S['W']), (0, S['H']), name="rimg")
    val = hl.clamp(img[r.x, r.y], 0.0, 1.0)
    gx = hl.clamp((r.x + s // 2) // s, 0, gw); gy = hl.clamp((r.y + s // 2) // s, 0, gh)
    gz = hl.clamp(hl.i32(val * NZ + 0.5), 0, NZ)
    grid = F("bg_grid"); grid[x, y, z] = (hl.f32(0), hl.f32(0))
    grid[gx, gy, gz] = (grid[gx, gy, gz][0] + val, grid[gx, gy, gz][1] + 1.0)

    def blur(f, name, d):
        b = F(name)
        off = lambda o: (x + o, y, z) if d == 0 else ((x, y + o, z) if d == 1 else (x, y, z + o))
        b[x, y, z] = tuple(f[off(-1)][t] + 2.0 * f[off(0)][t] + f[off(1)][t] for t in range(2))
        return b
    bz = blur(grid, "bg_blurz", 2); bx = blur(bz, "bg_blurx", 0); by = blur(bx, "bg_blury", 1)
    v = hl.clamp(img[x, y], 0.0, 1.0)
    zv = v * NZ; zi = hl.i32(hl.floor(zv)); zf = zv - hl.f32(zi)
    xv = hl.f32(x) / hl.f32(s); xi = hl.i32(hl.floor(xv)); xf = xv - hl.f32(xi)
    yv = hl.f32(y) / hl.f32(s); yi = hl.i32(hl.floor(yv)); yf = yv - hl.f32(yi)
    def tri(t):
        acc = 0.0
        for dx in (0, 1):
            for dy in (0, 1):
                for dz in (0, 1):
                    w = (xf if dx else 1.0 - xf) * (yf if dy else 1.0 - yf) * (zf if dz else 1.0 - zf)
                    acc = acc + w * by[xi + dx, yi + dy, zi + dz][t]
        return acc
    interp = F("bg_interp"); interp[x, y] = (tri(0), tri(1))
    out = F("bg_out"); out[x, y] = interp[x, y][0] / hl.max(interp[x, y][1], 1e-6)
    est_in(img, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [img]


@spec("harris_corners_interleaved_rgb_u8_lambda_func_gray_q8_repeat_edge_on_computed_gray_separable_sobel_tuple_structure_tensor_separable_box3_i64_response_kq_param_plus_nms_hlmaximum_mirror_interior_u8_mask",
      "Harris corners on interleaved RGB u8 [c, x, y]: integer Q8 gray by hl.lambda_func, repeat_edge on that computed Func, separable Sobel (1-2-1 smoothing Funcs then differences), a Tuple Func (Ix^2, Iy^2, IxIy) in i32, separable 3x3 box sums on the Tuple (x then y), response R = 100 det - KQ trace^2 in i64 (KQ a Param, exact), first output R (i64 [x, y]); second output a u8 corner mask: 255 where R > TH*10^6 and R equals the hl.maximum of R over a 3x3 window read through mirror_interior on the response Func (TH a Param)",
      {'W': (1, 640), 'H': (1, 480), 'KQ': (1, 20), 'TH': (0, 100)},
      outs=lambda v: [(I64, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8)], target='B')
def harris(S, E):
    img = hl.ImageParam(U8, 3, "img")
    x, y = V("x", "y")
    gray = hl.lambda_func(x, y, (77 * hl.i32(img[0, x, y]) + 150 * hl.i32(img[1, x, y]) + 29 * hl.i32(img[2, x, y]) + 128) >> 8)
    g = BF.repeat_edge(gray, [(0, S['W']), (0, S['H'])])
    sy = F("hc_smooth_y"); sy[x, y] = g[x, y - 1] + 2 * g[x, y] + g[x, y + 1]
    sx = F("hc_smooth_x"); sx[x, y] = g[x - 1, y] + 2 * g[x, y] + g[x + 1, y]
    ix = F("hc_ix"); ix[x, y] = sy[x + 1, y] - sy[x - 1, y]
    iy = F("hc_iy"); iy[x, y] = sx[x, y + 1] - sx[x, y - 1]
    st = F("hc_tensor"); st[x, y] = (ix[x, y] * ix[x, y], iy[x, y] * iy[x, y], ix[x, y] * iy[x, y])
    bx = F("hc_boxx"); bx[x, y] = tuple(st[x - 1, y][t] + st[x, y][t] + st[x + 1, y][t] for t in range(3))
    by = F("hc_boxy"); by[x, y] = tuple(bx[x, y - 1][t] + bx[x, y][t] + bx[x, y + 1][t] for t in range(3))
    sxx, syy, sxy = (hl.i64(by[x, y][t]) for t in range(3))
    resp = F("hc_response"); resp[x, y] = 100 * (sxx * syy - sxy * sxy) - hl.i64(S['KQ']) * (sxx + syy) * (sxx + syy)
    rm = BF.mirror_interior(resp, [(0, S['W']), (0, S['H'])])
    w = RD((-1, 3), (-1, 3), name="rnms")
    lmax = F("hc_localmax"); lmax[x, y] = hl.maximum(rm[x + w.x, y + w.y])
    mask = F("hc_mask"); mask[x, y] = hl.select((resp[x, y] > hl.i64(S['TH']) * 1000000) & (resp[x, y] == lmax[x, y]), hl.u8(255), hl.u8(0))
    est_in(img, 3, E['W'], E['H']); est_out(resp, [x, y], E['W'], E['H']); est_out(mask, [x, y], E['W'], E['H'])
    return [resp, mask], [img]


@spec("unsharp_f16_storage_batch_planar_x_y_c_n_gaussian_taps_func_sigma_tenths_param_radius_expr_3sigma_normalized_0d_sum_separable_repeat_edge_amount_param_f16_out",
      "unsharp mask with float16 storage: input and output f16 [x, y, c, n] (planar, batch outermost), f32 compute; Gaussian tap Func k[i] = exp(-i^2 / 2 sigma^2) with sigma = SG/10 (a Param) and radius R = (3 SG + 9) / 10 (an Expr of the Param, so the RDom extent depends on it), normalization by a 0-d Func hl.sum over the taps, separable blur (x then y) over repeat_edge of the ImageParam, out = f16(clamp(in + AM/10 (in - blur), 0, 1))",
      {'W': (1, 320), 'H': (1, 240), 'C': (1, 3), 'NB': (1, 4), 'SG': (5, 40), 'AM': (0, 30)},
      outs=lambda v: [(F16, [v['W'], v['H'], v['C'], v['NB']])],
      data=lambda v, r: [f16a(runif(r, (v['W'], v['H'], v['C'], v['NB'])))], tol=3e-3, target='A')
def unsharp_f16(S, E):
    inp = hl.ImageParam(F16, 4, "inp")
    x, y, c, n, i = V("x", "y", "c", "n", "i")
    sg = hl.f32(S['SG']) / 10.0
    R = (3 * S['SG'] + 9) // 10
    k = F("us_taps"); k[i] = hl.exp(-hl.f32(i * i) / (2.0 * sg * sg))
    rk = RD((-R, 2 * R + 1), name="rk")
    nrm = F("us_norm"); nrm[()] = hl.sum(k[rk])
    re = BF.repeat_edge(inp, [(0, S['W']), (0, S['H'])])
    f = F("us_f32"); f[x, y, c, n] = hl.f32(re[x, y, c, n])
    rx = RD((-R, 2 * R + 1), name="rx"); ry = RD((-R, 2 * R + 1), name="ry")
    bx = F("us_blurx"); bx[x, y, c, n] = hl.sum(k[rx] * f[x + rx, y, c, n]) / nrm[()]
    by = F("us_blury"); by[x, y, c, n] = hl.sum(k[ry] * bx[x, y + ry, c, n]) / nrm[()]
    am = hl.f32(S['AM']) / 10.0
    out = F("us_out"); out[x, y, c, n] = h16(hl.clamp(f[x, y, c, n] + am * (f[x, y, c, n] - by[x, y, c, n]), 0.0, 1.0))
    est_in(inp, E['W'], E['H'], E['C'], E['NB']); est_out(out, [x, y, c, n], E['W'], E['H'], E['C'], E['NB'])
    return [out], [inp]


@spec("interpolate_halide_app_style_rgba_premultiplied_4_levels_fixed_at_build_121_down_bilinear_up_alpha_composite_normalize_by_alpha_repeat_edge_planar_f32",
      "the Halide 'interpolate' app (fill holes by pyramid interpolation): planar RGBA f32 [x, y, c] through repeat_edge, premultiply by alpha (select on c), 4 pyramid levels fixed at build, 1-2-1 downsample x then y, upsample by 1/4-3/4 parity taps, interpolated[l] = down[l] + (1 - down[l].alpha) up(interpolated[l+1]), output RGB = interpolated[0] / interpolated[0].alpha (f32 [x, y, 3])",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(np.concatenate([np.asarray(runif(r, (v['W'], v['H'], 3))),
                                           (np.asarray(runif(r, (v['W'], v['H'], 1), 0.1, 1.0)) * (r.random((v['W'], v['H'], 1)) >= 0.3)).astype(np.float32)], axis=2))],
      tol=1e-3, target='B')
def interpolate(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    L = 4
    cl = BF.repeat_edge(inp, [(0, S['W']), (0, S['H'])])
    d0 = F("ip_down0"); d0[x, y, c] = hl.select(c < 3, cl[x, y, c] * cl[x, y, 3], cl[x, y, 3])
    down = [d0]
    for l in range(1, L):
        p = down[-1]
        dx = F("ip_downx%d" % l); dx[x, y, c] = (p[2 * x - 1, y, c] + 2.0 * p[2 * x, y, c] + p[2 * x + 1, y, c]) * 0.25
        d = F("ip_down%d" % l); d[x, y, c] = (dx[x, 2 * y - 1, c] + 2.0 * dx[x, 2 * y, c] + dx[x, 2 * y + 1, c]) * 0.25
        down.append(d)
    interp = [None] * L; interp[L - 1] = down[L - 1]
    for l in range(L - 2, -1, -1):
        up = _up(interp[l + 1], x, y, "ip_up%d" % l, (c,))
        it = F("ip_interp%d" % l); it[x, y, c] = down[l][x, y, c] + (1.0 - down[l][x, y, 3]) * up[x, y, c]
        interp[l] = it
    out = F("ip_out"); out[x, y, c] = interp[0][x, y, c] / interp[0][x, y, 3]
    est_in(inp, E['W'], E['H'], 4); est_out(out, [x, y, c], E['W'], E['H'], 3)
    return [out], [inp]


@spec("masked_histogram_equalization_u16_12bit_hist_update_rdom_where_mask_nonzero_bins_4096_shr_param_prefix_scan_update_lut_func_u16_out_plus_cdf_u32_output",
      "histogram equalization of a 12-bit u16 image [x, y] restricted to a mask: hist[b] = 0; hist[img >> SH] += 1 over a 2-D RDom over the image with RDom.where(mask != 0); cdf = hist then the inclusive prefix scan cdf[r] = cdf[r-1] + hist[r] over RDom(1, NB - 1) with NB = 4096 >> SH (SH a Param); LUT Func u16 ((cdf * 4095 + total/2) / total, identity when the mask is empty), out = lut[img >> SH]; second output the cdf (u32 [NB]); exact",
      {'W': (1, 640), 'H': (1, 480), 'SH': (0, 4)},
      outs=lambda v: [(U16, [v['W'], v['H']]), (U32, [4096 >> v['SH']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 4095, np.uint16) // np.uint16(1 + (r.integers(0, 3))),
                         (randint(r, (v['W'], v['H']), 0, 3, np.uint8) > 0).astype(np.uint8)], target='A')
def histeq_masked(S, E):
    img = hl.ImageParam(U16, 2, "img"); mask = hl.ImageParam(U8, 2, "mask")
    x, y, b = V("x", "y", "b")
    SH = S['SH']; NB = shr4096(SH)
    r = RD((0, S['W']), (0, S['H']), name="rpix")
    r.where(mask[r.x, r.y] != 0)
    hist = F("he_hist"); hist[b] = hl.i32(0)
    hist[hl.clamp(hl.i32(img[r.x, r.y]) >> SH, 0, NB - 1)] += 1
    cdf = F("he_cdf"); cdf[b] = hist[b]
    rs = RD((1, NB - 1), name="rscan")
    cdf[rs] = cdf[rs - 1] + hist[rs]
    total = cdf[NB - 1]
    lut = F("he_lut"); lut[b] = hl.u16(hl.select(total > 0, (cdf[b] * 4095 + total // 2) // hl.max(total, 1), b << SH))
    out = F("he_out"); out[x, y] = lut[hl.clamp(hl.i32(img[x, y]) >> SH, 0, NB - 1)]
    cdo = F("he_cdf_out"); cdo[b] = hl.u32(cdf[b])
    est_in(img, E['W'], E['H']); est_in(mask, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H']); est_out(cdo, [b], shr4096(E['SH']))
    return [out, cdo], [img, mask]


@spec("max_filter_vhgw_block_prefix_suffix_running_max_scans_rdom_over_padded_row_block_2r_plus_1_reset_select_then_vertical_hlmaximum_window_repeat_edge_on_computed_func_u8_two_outputs",
      "separable max filter (dilation) of u8 [x, y] with radius R (a Param): horizontal pass by the van Herk/Gil-Werman trick written as two scans over the padded row (RDom over W + 2R): a block prefix running max reset every 2R+1 samples by hl.select, a block suffix running max scanned right to left, h[x] = max(suffix[x], prefix[x + 2R]); vertical pass by an inline hl.maximum over RDom(-R, 2R+1) reading repeat_edge of the computed horizontal Func; outputs the 2-D max filter and the horizontal pass; exact",
      {'W': (1, 640), 'H': (1, 480), 'R': (0, 8)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def max_filter(S, E):
    img = hl.ImageParam(U8, 2, "img")
    x, y, p = V("x", "y", "p")
    R = S['R']; K = 2 * R + 1; WP = S['W'] + 2 * R
    e = BF.repeat_edge(img, [(0, S['W']), (0, S['H'])])
    pre = F("mf_prefix"); pre[p, y] = e[p - R, y]
    rp = RD((1, WP - 1), name="rpre")
    pre[rp, y] = hl.select(rp % K == 0, e[rp - R, y], hl.max(pre[rp - 1, y], e[rp - R, y]))
    suf = F("mf_suffix"); suf[p, y] = e[p - R, y]
    rs = RD((0, WP - 1), name="rsuf")
    q = WP - 2 - rs
    suf[q, y] = hl.select((q + 1) % K == 0, e[q - R, y], hl.max(suf[q + 1, y], e[q - R, y]))
    hmax = F("mf_hmax"); hmax[x, y] = hl.max(suf[x, y], pre[x + 2 * R, y])
    he = BF.repeat_edge(hmax, [(0, S['W']), (0, S['H'])])
    rv = RD((-R, K), name="rv")
    out = F("mf_out"); out[x, y] = hl.maximum(he[x, y + rv])
    est_in(img, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H']); est_out(hmax, [x, y], E['W'], E['H'])
    return [out, hmax], [img]


@spec("srgb_correct_2x_downscale_interleaved_rgba_u8_decode_lut_func_256_select_pow_box2x2_in_linear_encode_lut_func_4096_pow_alpha_integer_average_c_x_y",
      "gamma-correct 2x downscale of interleaved RGBA u8 [c, x, y]: sRGB decode LUT Func over 256 codes (hl.select linear segment / hl.pow 2.4), 2x2 box average in linear light, encode LUT Func over 4096 levels (select / pow 1/2.4, rounded to u8) indexed by the rounded linear value, alpha channel a rounded integer 2x2 average; output [c, OW, OH] with OW, OH Params (input 2 OW x 2 OH); exact u8",
      {'OW': (1, 320), 'OH': (1, 240)},
      outs=lambda v: [(U8, [4, v['OW'], v['OH']])],
      data=lambda v, r: [randint(r, (4, 2 * v['OW'], 2 * v['OH']), 0, 255, np.uint8)], target='A')
def srgb_down(S, E):
    img = hl.ImageParam(U8, 3, "img")
    c, x, y, i = V("c", "x", "y", "i")
    dec = F("sr_decode"); cf = hl.f32(i) / 255.0
    dec[i] = hl.select(cf <= 0.04045, cf / 12.92, hl.pow((cf + 0.055) / 1.055, 2.4))
    enc = F("sr_encode"); lf = hl.f32(i) / 4095.0
    enc[i] = hl.u8(hl.clamp(255.0 * hl.select(lf <= 0.0031308, 12.92 * lf, 1.055 * hl.pow(lf, 1.0 / 2.4) - 0.055) + 0.5, 0.0, 255.0))
    lin = lambda dx, dy: dec[hl.i32(img[c, 2 * x + dx, 2 * y + dy])]
    avg = F("sr_avg_linear"); avg[c, x, y] = (lin(0, 0) + lin(1, 0) + lin(0, 1) + lin(1, 1)) * 0.25
    a = lambda dx, dy: hl.i32(img[3, 2 * x + dx, 2 * y + dy])
    out = F("sr_out")
    out[c, x, y] = hl.select(c == 3, hl.u8((a(0, 0) + a(1, 0) + a(0, 1) + a(1, 1) + 2) >> 2),
                             enc[hl.clamp(hl.i32(avg[c, x, y] * 4095.0 + 0.5), 0, 4095)])
    est_in(img, 4, 2 * E['OW'], 2 * E['OH']); est_out(out, [c, x, y], 4, E['OW'], E['OH'])
    return [out], [img]


@spec("sobel_l1_magnitude_batch_planar_u8_global_in_wrapper_repeat_edge_per_consumer_func_in_wrappers_u16_arith_absd_u8_sat_threshold_param_plus_per_image_edge_count_u32",
      "Sobel edge magnitude on a batch of u8 images [x, y, n] written with wrappers everywhere: a global Func.in_() wrapper of a copy Func of the input (the Python binding has no ImageParam.in_()), repeat_edge on it, the padded Func read by the two gradient Funcs through per-consumer wrappers pad.in_(gx) and pad.in_(gy), gradients in u16 as absd of the two 1-2-1 weighted sides, magnitude u8_sat(gx + gy), output select(mag > TH, mag, 0) (TH a Param); second output the per-image count of edge pixels by hl.sum over a 2-D RDom (u32 [n]); exact",
      {'W': (1, 640), 'H': (1, 480), 'NB': (1, 4), 'TH': (0, 254)},
      outs=lambda v: [(U8, [v['W'], v['H'], v['NB']]), (U32, [v['NB']])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], v['NB']), 0, 255, np.uint8)], target='B')
def sobel_wrappers(S, E):
    img = hl.ImageParam(U8, 3, "img")
    x, y, n = V("x", "y", "n")
    src = F("sb_src"); src[x, y, n] = img[x, y, n]
    iw = src.in_()
    pad = F("sb_pad"); pe = BF.repeat_edge(iw, [(0, S['W']), (0, S['H'])])
    pad[x, y, n] = hl.u16(pe[x, y, n])
    gx = F("sb_gx"); gy = F("sb_gy")
    px = pad.in_(gx); py = pad.in_(gy)
    gx[x, y, n] = hl.absd(px[x + 1, y - 1, n] + 2 * px[x + 1, y, n] + px[x + 1, y + 1, n], px[x - 1, y - 1, n] + 2 * px[x - 1, y, n] + px[x - 1, y + 1, n])
    gy[x, y, n] = hl.absd(py[x - 1, y + 1, n] + 2 * py[x, y + 1, n] + py[x + 1, y + 1, n], py[x - 1, y - 1, n] + 2 * py[x, y - 1, n] + py[x + 1, y - 1, n])
    mag = F("sb_mag"); mag[x, y, n] = hl.u8_sat(gx[x, y, n] + gy[x, y, n])
    out = F("sb_out"); out[x, y, n] = hl.select(mag[x, y, n] > hl.u8(S['TH']), mag[x, y, n], hl.u8(0))
    r = RD((0, S['W']), (0, S['H']), name="rcnt")
    cnt = F("sb_count"); cnt[n] = hl.sum(hl.select(mag[r.x, r.y, n] > hl.u8(S['TH']), hl.u32(1), hl.u32(0)))
    est_in(img, E['W'], E['H'], E['NB']); est_out(out, [x, y, n], E['W'], E['H'], E['NB']); est_out(cnt, [n], E['NB'])
    return [out, cnt], [img]


@spec("color_grade_interleaved_rgb_u16_batch_levels_black_white_params_select_chain_per_channel_gains_mux_q8_gamma_lut_func_1024_saturation_q8_param_u16_sat_c_x_y_n",
      "colour grading of interleaved RGB u16 [c, x, y, n] (12-bit): per-channel white-balance gain by hl.mux on c over three Q8 gain Params, levels with black point BP and white point WP Params (select chain: below BP -> 0, above WP -> 1023, else (v - BP) * 1023 / (WP - BP)), a 1024-entry integer gamma LUT Func (u16), then saturation around the Q8 luma in i32 with a Q8 Param SA, u16_sat; exact",
      {'W': (1, 512), 'H': (1, 384), 'NB': (1, 4), 'GR': (0, 512), 'GB': (0, 512), 'BP': (0, 255), 'WP': (256, 4095), 'SA': (0, 512)},
      outs=lambda v: [(U16, [3, v['W'], v['H'], v['NB']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H'], v['NB']), 0, 4095, np.uint16)], target='B')
def color_grade(S, E):
    img = hl.ImageParam(U16, 4, "img")
    c, x, y, n, i = V("c", "x", "y", "n", "i")
    BP, WP = S['BP'], S['WP']
    gain = hl.mux(c, [S['GR'], 256, S['GB']])
    wb = F("cg_wb"); wb[c, x, y, n] = (hl.i32(img[c, x, y, n]) * gain) >> 8
    v = wb[c, x, y, n]
    lv = F("cg_levels"); lv[c, x, y, n] = hl.select(v <= BP, 0, v >= WP, 1023, ((v - BP) * 1023) // (WP - BP))
    lut = F("cg_gamma_lut"); lut[i] = hl.i32(hl.u16((((i * (3 * 1023 - i)) // 2046) * 4095) // 1023))
    g = F("cg_gamma"); g[c, x, y, n] = lut[lv[c, x, y, n]]
    luma = F("cg_luma"); luma[x, y, n] = (77 * g[0, x, y, n] + 150 * g[1, x, y, n] + 29 * g[2, x, y, n]) >> 8
    out = F("cg_out"); out[c, x, y, n] = hl.u16_sat(luma[x, y, n] + (((g[c, x, y, n] - luma[x, y, n]) * S['SA']) >> 8))
    est_in(img, 3, E['W'], E['H'], E['NB']); est_out(out, [c, x, y, n], 3, E['W'], E['H'], E['NB'])
    return [out], [img]


@spec("video_temporal_median3_select_minmax_repeat_edge_on_t_then_spatial_box3_lambda_func_mirror_interior_on_computed_func_u8_planar_x_y_t",
      "video denoise on u8 frames [x, y, t]: temporal median of 3 (t-1, t, t+1 via repeat_edge on t) by the min/max network (max(min(a, b), min(max(a, b), c))), then a 3x3 spatial box mean written with hl.lambda_func over mirror_interior applied to the computed median Func, rounded integer mean (sum + 4) / 9, u8 [x, y, t]; exact",
      {'W': (1, 640), 'H': (1, 480), 'T': (1, 8)},
      outs=lambda v: [(U8, [v['W'], v['H'], v['T']])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], v['T']), 0, 255, np.uint8)], target='A')
def video_median(S, E):
    vid = hl.ImageParam(U8, 3, "vid")
    x, y, t = V("x", "y", "t")
    ve = BF.repeat_edge(vid, [(0, S['W']), (0, S['H']), (0, S['T'])])
    a, b, c = ve[x, y, t - 1], ve[x, y, t], ve[x, y, t + 1]
    med = F("vm_median"); med[x, y, t] = hl.max(hl.min(a, b), hl.min(hl.max(a, b), c))
    mm = BF.mirror_interior(med, [(0, S['W']), (0, S['H'])])
    box = hl.lambda_func(x, y, t, sum(hl.u16(mm[x + dx, y + dy, t]) for dx in (-1, 0, 1) for dy in (-1, 0, 1)))
    out = F("vm_out"); out[x, y, t] = hl.u8((box[x, y, t] + 4) // 9)
    est_in(vid, E['W'], E['H'], E['T']); est_out(out, [x, y, t], E['W'], E['H'], E['T'])
    return [out], [vid]


# ============================================ NN layers in unusual layouts ====================================

@spec("layernorm_over_outermost_dim_x_t_b_c_c_outermost_two_pass_hlsum_mean_then_centered_var_affine_gamma_beta_f32",
      "LayerNorm whose normalized axis is the OUTERMOST dimension: x[t, b, c] (t innermost, channels outermost), mean[t, b] = hl.sum_c x / C, var[t, b] = hl.sum_c (x - mean)^2 / C (two passes), out[t, b, c] = (x - mean) / sqrt(var + 1e-5) * gamma[c] + beta[c]; f32",
      {'T': (1, 512), 'NB': (1, 8), 'C': (1, 256)},
      outs=lambda v: [(F32, [v['T'], v['NB'], v['C']])],
      data=lambda v, r: [rnorm(r, (v['T'], v['NB'], v['C'])), rnorm(r, (v['C'],)), rnorm(r, (v['C'],))], tol=1e-4, target='A')
def ln_outer(S, E):
    xin = hl.ImageParam(F32, 3, "xin"); gam = hl.ImageParam(F32, 1, "gamma"); bet = hl.ImageParam(F32, 1, "beta")
    t, b, c = V("t", "b", "c")
    C = S['C']
    r1 = RD((0, C), name="rc1"); r2 = RD((0, C), name="rc2")
    mean = F("lo_mean"); mean[t, b] = hl.sum(xin[t, b, r1]) / hl.f32(C)
    var = F("lo_var"); d = xin[t, b, r2] - mean[t, b]; var[t, b] = hl.sum(d * d) / hl.f32(C)
    out = F("lo_out"); out[t, b, c] = (xin[t, b, c] - mean[t, b]) / hl.sqrt(var[t, b] + 1e-5) * gam[c] + bet[c]
    est_in(xin, E['T'], E['NB'], E['C']); est_in(gam, E['C']); est_in(bet, E['C']); est_out(out, [t, b, c], E['T'], E['NB'], E['C'])
    return [out], [xin, gam, bet]


@spec("layernorm_innermost_dim_f16_storage_c_t_f32_accumulation_two_pass_affine_f16_gamma_beta_f16_out_plus_rstd_f32_output",
      "LayerNorm over the innermost dim with float16 storage: x[c, t] f16 (channels innermost), f32 mean and centered variance by hl.sum, f16 gamma/beta, f16 output; second output the per-token reciprocal standard deviation rstd[t] (f32), as saved for the backward pass",
      {'C': (1, 1024), 'T': (1, 256)},
      outs=lambda v: [(F16, [v['C'], v['T']]), (F32, [v['T']])],
      data=lambda v, r: [f16a(rnorm(r, (v['C'], v['T']))), f16a(rnorm(r, (v['C'],))), f16a(rnorm(r, (v['C'],)))], tol=4e-3, target='B')
def ln_f16(S, E):
    xin = hl.ImageParam(F16, 2, "xin"); gam = hl.ImageParam(F16, 1, "gamma"); bet = hl.ImageParam(F16, 1, "beta")
    c, t = V("c", "t")
    C = S['C']
    r1 = RD((0, C), name="rc1"); r2 = RD((0, C), name="rc2")
    mean = F("lh_mean"); mean[t] = hl.sum(hl.f32(xin[r1, t])) / hl.f32(C)
    d = hl.f32(xin[r2, t]) - mean[t]
    rstd = F("lh_rstd"); rstd[t] = 1.0 / hl.sqrt(hl.sum(d * d) / hl.f32(C) + 1e-5)
    out = F("lh_out"); out[c, t] = h16((hl.f32(xin[c, t]) - mean[t]) * rstd[t] * hl.f32(gam[c]) + hl.f32(bet[c]))
    est_in(xin, E['C'], E['T']); est_in(gam, E['C']); est_in(bet, E['C']); est_out(out, [c, t], E['C'], E['T']); est_out(rstd, [t], E['T'])
    return [out, rstd], [xin, gam, bet]


@spec("grouped_conv3x3_nchw_groups_param_cin_per_group_param_cout_per_group_param_input_channel_from_co_div_cog_constant_exterior_zero_pad_bias_f32_x_y_c_n",
      "grouped 3x3 convolution, planar NCHW [x, y, c, n] f32, groups G, input channels per group CIG and output channels per group COG all Params: out[x, y, co, n] = bias[co] + hl.sum over (kx, ky, cig) of w[kx, ky, cig, co] * in[x + kx - 1, y + ky - 1, (co / COG) * CIG + cig, n] with 'same' zero padding by constant_exterior",
      {'W': (1, 64), 'H': (1, 64), 'G': (1, 8), 'CIG': (1, 8), 'COG': (1, 8), 'NB': (1, 2)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['G'] * v['COG'], v['NB']])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'], v['G'] * v['CIG'], v['NB'])), rnorm(r, (3, 3, v['CIG'], v['G'] * v['COG'])),
                         rnorm(r, (v['G'] * v['COG'],))], tol=1e-4, target='B')
def grouped_conv(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w"); bias = hl.ImageParam(F32, 1, "bias")
    x, y, co, n = V("x", "y", "co", "n")
    CIG, COG = S['CIG'], S['COG']
    ce = BF.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H'])])
    r = RD((0, 3), (0, 3), (0, CIG), name="rk")
    out = F("gc_out"); out[x, y, co, n] = bias[co] + hl.sum(w[r.x, r.y, r.z, co] * ce[x + r.x - 1, y + r.y - 1, (co // COG) * CIG + r.z, n])
    est_in(inp, E['W'], E['H'], E['G'] * E['CIG'], E['NB']); est_in(w, 3, 3, E['CIG'], E['G'] * E['COG']); est_in(bias, E['G'] * E['COG'])
    est_out(out, [x, y, co, n], E['W'], E['H'], E['G'] * E['COG'], E['NB'])
    return [out], [inp, w, bias]


@spec("quantized_depthwise_separable_block_channels_innermost_c_x_y_u8_zero_point_param_constant_exterior_zp_dw3x3_i8_requant_mult_param_relu_u8_sat_pointwise_hlsum_ci_i8_bias_i32_u8_sat_out",
      "int8-style depthwise-separable block with channels innermost [c, x, y]: u8 input, zero point ZP (a Param) also used as the padding value (constant_exterior), depthwise 3x3 with i8 weights [c, kx, ky] in i32, requantized u8_sat(((acc * MQ) >> 10) + ZP) with the multiplier MQ a Param and a ReLU at ZP, then pointwise 1x1 with i8 weights [ci, co] as hl.sum over ci of (dq - ZP) * w plus an i32 bias, requantized u8_sat(((acc * MQ) >> 14) + 128); out [co, x, y]; exact",
      {'W': (1, 128), 'H': (1, 128), 'C': (1, 64), 'CO': (1, 64), 'ZP': (0, 255), 'MQ': (1, 255)},
      outs=lambda v: [(U8, [v['CO'], v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['C'], v['W'], v['H']), 0, 255, np.uint8), randint(r, (v['C'], 3, 3), -128, 127, np.int8),
                         randint(r, (v['C'], v['CO']), -128, 127, np.int8), randint(r, (v['CO'],), -5000, 5000, np.int32)], target='A')
def qdwsep(S, E):
    inp = hl.ImageParam(U8, 3, "inp"); dw = hl.ImageParam(I8, 3, "dw"); pw = hl.ImageParam(I8, 2, "pw"); bias = hl.ImageParam(I32, 1, "bias")
    c, x, y, co = V("c", "x", "y", "co")
    ZP, MQ = S['ZP'], S['MQ']
    ce = BF.constant_exterior(inp, hl.u8(ZP), [(0, S['C']), (0, S['W']), (0, S['H'])])
    acc = sum((hl.i32(ce[c, x + dx, y + dy]) - ZP) * hl.i32(dw[c, dx + 1, dy + 1]) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    dq = F("qd_dw"); dq[c, x, y] = hl.u8_sat(hl.max(((acc * MQ) >> 10) + ZP, ZP))
    r = RD((0, S['C']), name="rci")
    pacc = F("qd_pw_acc"); pacc[co, x, y] = bias[co] + hl.sum((hl.i32(dq[r, x, y]) - ZP) * hl.i32(pw[r, co]))
    out = F("qd_out"); out[co, x, y] = hl.u8_sat(((pacc[co, x, y] * MQ) >> 14) + 128)
    est_in(inp, E['C'], E['W'], E['H']); est_in(dw, E['C'], 3, 3); est_in(pw, E['C'], E['CO']); est_in(bias, E['CO'])
    est_out(out, [co, x, y], E['CO'], E['W'], E['H'])
    return [out], [inp, dw, pw, bias]


@spec("bidirectional_alibi_attention_heads_innermost_h_d_t_b_slope_func_pow2_minus_8_h_plus_1_over_heads_param_abs_distance_bias_key_padding_lengths_buffer_select_hlmaximum_hlsum",
      "bidirectional (encoder) attention with ALiBi, HEADS INNERMOST: q, k, v as [h, d, t, b] f32; slope Func s[h] = 2^(-8 (h + 1) / NH) with NH a Param; score[h, j, i, b] = sum_d q k / sqrt(D) - s[h] |i - j| (inline hl.sum over d), keys j >= len[b] (an i32 buffer of per-batch lengths) masked to -1e30 by select; softmax over j by hl.maximum and hl.sum; context[h, d, i, b] = sum_j p v / denom",
      {'NH': (1, 8), 'D': (1, 64), 'T': (1, 128), 'NB': (1, 4)},
      outs=lambda v: [(F32, [v['NH'], v['D'], v['T'], v['NB']])],
      data=lambda v, r: [rnorm(r, (v['NH'], v['D'], v['T'], v['NB'])), rnorm(r, (v['NH'], v['D'], v['T'], v['NB'])),
                         rnorm(r, (v['NH'], v['D'], v['T'], v['NB'])), fa(r.integers(1, v['T'] + 1, size=(v['NB'],)).astype(np.int32))],
      tol=1e-4, target='B')
def alibi_bidir(S, E):
    q = hl.ImageParam(F32, 4, "q"); k = hl.ImageParam(F32, 4, "k"); vv = hl.ImageParam(F32, 4, "v"); lens = hl.ImageParam(I32, 1, "lens")
    h, d, i, j, b = V("h", "d", "i", "j", "b")
    slope = F("ab_slope"); slope[h] = hl.pow(2.0, -8.0 * hl.f32(h + 1) / hl.f32(S['NH']))
    rd = RD((0, S['D']), name="rd")
    sc = F("ab_score")
    sc[h, j, i, b] = hl.select(j < lens[b], hl.sum(q[h, rd, i, b] * k[h, rd, j, b]) / hl.sqrt(hl.f32(S['D'])) - slope[h] * hl.f32(hl.abs(i - j)), -1e30)
    rj = RD((0, S['T']), name="rj")
    mx = F("ab_max"); mx[h, i, b] = hl.maximum(sc[h, rj, i, b])
    ex = F("ab_exp"); ex[h, j, i, b] = hl.exp(sc[h, j, i, b] - mx[h, i, b])
    rj2 = RD((0, S['T']), name="rj2")
    den = F("ab_den"); den[h, i, b] = hl.sum(ex[h, rj2, i, b])
    rj3 = RD((0, S['T']), name="rj3")
    ctx = F("ab_ctx"); ctx[h, d, i, b] = hl.sum(ex[h, rj3, i, b] * vv[h, d, rj3, b]) / den[h, i, b]
    for ip in (q, k, vv):
        est_in(ip, E['NH'], E['D'], E['T'], E['NB'])
    est_in(lens, E['NB']); est_out(ctx, [h, d, i, b], E['NH'], E['D'], E['T'], E['NB'])
    return [ctx], [q, k, vv, lens]


@spec("conv1x1_channels_innermost_c_x_y_n_f16_storage_hlsum_over_ci_weight_co_ci_co_innermost_f32_accum_bias_residual_f16_out",
      "pointwise (1x1) convolution written as an inline hl.sum over channels with channels innermost, float16 storage: x[ci, x, y, n] f16, weights w[co, ci] f16 (co innermost), f32 accumulation, out[co, x, y, n] = f16(bias[co] + sum_ci w x + x[co, x, y, n]) (residual, so CO = CI = C)",
      {'C': (1, 128), 'W': (1, 56), 'H': (1, 56), 'NB': (1, 2)},
      outs=lambda v: [(F16, [v['C'], v['W'], v['H'], v['NB']])],
      data=lambda v, r: [f16a(rnorm(r, (v['C'], v['W'], v['H'], v['NB']))), f16a(rnorm(r, (v['C'], v['C'])) * 0.1), f16a(rnorm(r, (v['C'],)))],
      tol=4e-3, target='A')
def conv1x1_f16(S, E):
    xin = hl.ImageParam(F16, 4, "xin"); w = hl.ImageParam(F16, 2, "w"); bias = hl.ImageParam(F16, 1, "bias")
    co, x, y, n = V("co", "x", "y", "n")
    r = RD((0, S['C']), name="rci")
    out = F("c1_out")
    out[co, x, y, n] = h16(hl.f32(bias[co]) + hl.sum(hl.f32(w[co, r]) * hl.f32(xin[r, x, y, n])) + hl.f32(xin[co, x, y, n]))
    est_in(xin, E['C'], E['W'], E['H'], E['NB']); est_in(w, E['C'], E['C']); est_in(bias, E['C'])
    est_out(out, [co, x, y, n], E['C'], E['W'], E['H'], E['NB'])
    return [out], [xin, w, bias]


@spec("lrn_within_channel_spatial_window_caffe_channels_innermost_c_x_y_n_2d_rdom_radius_param_constant_exterior_alpha_param_hlpow_075_f32",
      "Caffe WITHIN_CHANNEL local response normalization with channels innermost [c, x, y, n]: out = in / (1 + (AL 1e-4 / n^2) sum_{(2R+1)^2 spatial window} in^2)^0.75, n = 2R+1, the window an inline hl.sum over a 2-D RDom(-R..R) reading constant_exterior (0) of the input; R and AL Params; f32",
      {'C': (1, 64), 'W': (1, 64), 'H': (1, 64), 'NB': (1, 2), 'R': (0, 3), 'AL': (1, 100)},
      outs=lambda v: [(F32, [v['C'], v['W'], v['H'], v['NB']])],
      data=lambda v, r: [(rnorm(r, (v['C'], v['W'], v['H'], v['NB'])) * 20).astype(np.float32)], tol=1e-5, target='B')
def lrn_within(S, E):
    inp = hl.ImageParam(F32, 4, "inp")
    c, x, y, n = V("c", "x", "y", "n")
    R = S['R']
    ce = BF.constant_exterior(inp, 0.0, [(0, S['C']), (0, S['W']), (0, S['H']), (0, S['NB'])])
    rw = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rw")
    ssq = F("lw_ssq"); ssq[c, x, y, n] = hl.sum(ce[c, x + rw.x, y + rw.y, n] * ce[c, x + rw.x, y + rw.y, n])
    nn = hl.f32((2 * R + 1) * (2 * R + 1))
    out = F("lw_out"); out[c, x, y, n] = inp[c, x, y, n] / hl.pow(1.0 + (hl.f32(S['AL']) * 1e-4 / nn) * ssq[c, x, y, n], 0.75)
    est_in(inp, E['C'], E['W'], E['H'], E['NB']); est_out(out, [c, x, y, n], E['C'], E['W'], E['H'], E['NB'])
    return [out], [inp]


@spec("instance_norm_channels_innermost_c_x_y_n_stats_tuple_sum_sumsq_over_2d_rdom_x_y_f32_then_affine_relu",
      "instance normalization with channels innermost [c, x, y, n]: per (c, n) a Tuple Func (sum, sum of squares) by an explicit update over a 2-D RDom (x, y) (reduction over two outer dims with c innermost), mean and var from it, out = relu((x - mean) / sqrt(var + 1e-5) * gamma[c] + beta[c]); f32",
      {'C': (1, 64), 'W': (1, 96), 'H': (1, 96), 'NB': (1, 4)},
      outs=lambda v: [(F32, [v['C'], v['W'], v['H'], v['NB']])],
      data=lambda v, r: [rnorm(r, (v['C'], v['W'], v['H'], v['NB'])), rnorm(r, (v['C'],)), rnorm(r, (v['C'],))], tol=2e-4, target='A')
def instance_norm(S, E):
    xin = hl.ImageParam(F32, 4, "xin"); gam = hl.ImageParam(F32, 1, "gamma"); bet = hl.ImageParam(F32, 1, "beta")
    c, x, y, n = V("c", "x", "y", "n")
    r = RD((0, S['W']), (0, S['H']), name="rxy")
    st = F("in_stats"); st[c, n] = (hl.f32(0), hl.f32(0))
    v = xin[c, r.x, r.y, n]
    st[c, n] = (st[c, n][0] + v, st[c, n][1] + v * v)
    cnt = hl.f32(S['W'] * S['H'])
    mean = F("in_mean"); mean[c, n] = st[c, n][0] / cnt
    var = F("in_var"); var[c, n] = hl.max(st[c, n][1] / cnt - mean[c, n] * mean[c, n], 0.0)
    out = F("in_out"); out[c, x, y, n] = hl.max((xin[c, x, y, n] - mean[c, n]) / hl.sqrt(var[c, n] + 1e-5) * gam[c] + bet[c], 0.0)
    est_in(xin, E['C'], E['W'], E['H'], E['NB']); est_in(gam, E['C']); est_in(bet, E['C']); est_out(out, [c, x, y, n], E['C'], E['W'], E['H'], E['NB'])
    return [out], [xin, gam, bet]


# ============================================ added while waiting for the CPU (round 21, 12:45) ================

@spec("box_sum_hlsum_reading_func_in_wrapper_of_constant_exterior_on_computed_u32_func_radius_param_second_consumer_reads_it_directly_u16_detail_and_u32_box_outputs",
      "the round-20 crash idiom again, on a computed Func: m = u32(img) (u16 [x, y]), constant_exterior(m, 0) on that computed Func, a (2R+1)^2 box sum by hl.sum over a 2-D RDom reading the boundary Func through a global Func.in_() wrapper, while a second consumer reads the boundary Func directly; outputs detail = u16_sat(2 m - box / (2R+1)^2) and the u32 box; R a Param; exact",
      {'W': (1, 640), 'H': (1, 480), 'R': (0, 4)},
      outs=lambda v: [(U16, [v['W'], v['H']]), (U32, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16)], target='A')
def box_in_wrapper(S, E):
    img = hl.ImageParam(U16, 2, "img")
    x, y = V("x", "y")
    R = S['R']
    m = F("bw_m"); m[x, y] = hl.u32(img[x, y])
    ce = BF.constant_exterior(m, hl.u32(0), [(0, S['W']), (0, S['H'])])
    wr = ce.in_()
    rr = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rb")
    box = F("bw_box"); box[x, y] = hl.sum(wr[x + rr.x, y + rr.y])
    n2 = hl.u32((2 * R + 1) * (2 * R + 1))
    det = F("bw_detail"); det[x, y] = hl.u16_sat(hl.i64(2) * hl.i64(ce[x, y]) - hl.i64(box[x, y] / n2))
    est_in(img, E['W'], E['H']); est_out(det, [x, y], E['W'], E['H']); est_out(box, [x, y], E['W'], E['H'])
    return [det, box], [img]


@spec("audio_interleaved_i16_c_t_channels_param_decimate_by_2_fir_taps_buffer_k_param_hlsum_constant_exterior_q15_i16_sat_then_running_sum_of_squares_scan_i64_windowed_rms_f32_two_outputs",
      "audio signal chain on interleaved i16 [c, t] (channels innermost, C a Param): decimate by 2 with a causal FIR (i16 taps buffer h[k], K a Param) as hl.sum of h[k] x[c, 2n - k] over constant_exterior (0) of the input, Q15 rounding, i16_sat -> y[c, n] (N output samples, input 2N); then a running sum of squares of y as a scan update over RDom(1, N - 1) in i64, and a windowed RMS env[c, n] = sqrt((acc[n] - acc[n - L]) / L) with L a Param (select for n < L); outputs y (i16 [c, N]) and env (f32 [c, N])",
      {'C': (1, 8), 'N': (1, 4096), 'K': (1, 32), 'L': (1, 64)},
      outs=lambda v: [(I16, [v['C'], v['N']]), (F32, [v['C'], v['N']])],
      data=lambda v, r: [randint(r, (v['C'], 2 * v['N']), -32768, 32767, np.int16), randint(r, (v['K'],), -8000, 8000, np.int16)], tol=1e-5, target='B')
def audio_decim(S, E):
    xin = hl.ImageParam(I16, 2, "xin"); h = hl.ImageParam(I16, 1, "h")
    c, n = V("c", "n")
    ce = BF.constant_exterior(xin, hl.i16(0), [(0, S['C']), (0, 2 * S['N'])])
    rk = RD((0, S['K']), name="rk")
    acc = F("ad_fir"); acc[c, n] = hl.sum(hl.i64(h[rk]) * hl.i64(ce[c, 2 * n - rk]))
    y = F("ad_y"); y[c, n] = hl.i16_sat((acc[c, n] + (1 << 14)) >> 15)
    ss = F("ad_sumsq"); ss[c, n] = hl.i64(y[c, n]) * hl.i64(y[c, n])
    rs = RD((1, S['N'] - 1), name="rscan")
    ss[c, rs] = ss[c, rs - 1] + hl.i64(y[c, rs]) * hl.i64(y[c, rs])
    L = S['L']
    env = F("ad_env"); env[c, n] = hl.sqrt(hl.f32(ss[c, n] - hl.select(n >= L, ss[c, hl.max(n - L, 0)], hl.i64(0))) / hl.f32(L))
    est_in(xin, E['C'], 2 * E['N']); est_in(h, E['K']); est_out(y, [c, n], E['C'], E['N']); est_out(env, [c, n], E['C'], E['N'])
    return [y, env], [xin, h]


def _mulaw_dec_expr(i):
    u = ~hl.u8(i)
    sign = u & hl.u8(0x80); ex = hl.i32((u >> 4) & hl.u8(7)); mant = hl.i32(u & hl.u8(0x0F))
    mag = (((mant << 3) + 0x84) << ex) - 0x84
    return hl.select(sign != 0, -mag, mag)


@spec("mulaw_u8_planar_t_c_decode_lut_func_fir_taps_buffer_k_param_hlsum_repeat_edge_i32_i16_sat_then_g711_mulaw_encode_select_chain_segment_search_u8",
      "telephony chain on G.711 mu-law u8 [t, c] (planar, t innermost, C a Param): decode through a 256-entry LUT Func (bit ops), FIR low-pass with an i16 taps buffer (K a Param, centred, repeat_edge in t) as hl.sum in i32, >> 10, i16_sat, then mu-law encode with the segment found by a 7-deep hl.select chain on magnitude thresholds, u8 out [t, c]; exact",
      {'T': (1, 8192), 'C': (1, 4), 'K': (1, 31)},
      outs=lambda v: [(U8, [v['T'], v['C']])],
      data=lambda v, r: [randint(r, (v['T'], v['C']), 0, 255, np.uint8), randint(r, (v['K'],), -1024, 1024, np.int16)], target='A')
def mulaw(S, E):
    xin = hl.ImageParam(U8, 2, "xin"); h = hl.ImageParam(I16, 1, "h")
    t, c, i = V("t", "c", "i")
    dec = F("mu_decode"); dec[i] = _mulaw_dec_expr(hl.clamp(i, 0, 255))
    re = BF.repeat_edge(xin, [(0, S['T']), (0, S['C'])])
    K = S['K']
    rk = RD((0, K), name="rk")
    fir = F("mu_fir"); fir[t, c] = hl.sum(hl.i32(h[rk]) * dec[hl.i32(re[t + rk - K // 2, c])])
    y = F("mu_y"); y[t, c] = hl.i32(hl.i16_sat(fir[t, c] >> 10))
    v = y[t, c]
    sign = hl.select(v < 0, 0x80, 0)
    mag = hl.min(hl.select(v < 0, -v, v), 32635) + 0x84
    ex = hl.select(mag >= 0x4000, 7, mag >= 0x2000, 6, mag >= 0x1000, 5, mag >= 0x800, 4, mag >= 0x400, 3, mag >= 0x200, 2, mag >= 0x100, 1, 0)
    mant = (mag >> (ex + 3)) & 0x0F
    out = F("mu_out"); out[t, c] = hl.u8(~(sign | (ex << 4) | mant) & 0xFF)
    est_in(xin, E['T'], E['C']); est_in(h, E['K']); est_out(out, [t, c], E['T'], E['C'])
    return [out], [xin, h]
