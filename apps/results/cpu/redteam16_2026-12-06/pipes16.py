"""Red-team round 16 pipelines for Diet: 24 new algorithms / writing styles not used by rounds 1-15. Same spec format as
round 15 (helpers imported from pipes15 -> pipes14 -> ... by importlib, not copied). target: 'A' = AVX-512 target,
'B' = AVX2 target. S: ranged int Params, E: estimates (the Params for Diet, ints otherwise). Every size and run-time
scalar is a ranged int Param."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec15 = importlib.util.spec_from_file_location("pipes_round15", os.path.join(_here, "..", "redteam15_2026-12-05", "pipes15.py"))
_round15 = importlib.util.module_from_spec(_spec15)
_spec15.loader.exec_module(_round15)
_round3 = _round15._round3
V, est_in, est_out, fa, rimg, RD, TARGETS = _round15.V, _round15.est_in, _round15.est_out, _round15.fa, _round15.rimg, _round15.RD, _round15.TARGETS
D, MX, runif, randint, fE, sq = _round15.D, _round15.MX, _round15.runif, _round15.randint, _round15.fE, _round15.sq
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round15.F32, _round15.F64, _round15.U8, _round15.U16, _round15.U32, _round15.U64,
                                                  _round15.I8, _round15.I16, _round15.I32, _round15.I64)
F16 = hl.Float(16)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def psf_data(r, k):
    a = r.random((k, k)) + 0.1
    return fa((a / a.sum()).astype(np.float32))


def lut3d_data(r, n):
    g = np.arange(n) / (n - 1.0)
    L = np.stack(np.meshgrid(g, g, g, indexing='ij'), 0)  # [3, n, n, n]: L[c, i, j, k] = (i, j, k)[c]
    L = np.clip(L ** 0.8 + 0.05 * r.standard_normal(L.shape), 0, 1)
    return fa(L.astype(np.float32))


def crc_table():
    t = np.zeros(256, np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (0xEDB88320 ^ (c >> 1)) if c & 1 else (c >> 1)
        t[i] = c
    return t


# ============================================ image / signal ==================================================

@spec("richardson_lucy_3_iters_psf_buffer_size_param_flipped_adjoint_conv_mirror_image_ratio_guard_f32",
      "Richardson-Lucy deconvolution, 3 unrolled iterations: est <- est * (psf^T (*) (obs / max(psf (*) est, 1e-6))); the PSF is a K x K buffer (K a Param 1..7, centre K/2), the adjoint reads it flipped (x - i + K/2); every intermediate through mirror_image; est0 = obs",
      {'W': (1, 640), 'H': (1, 480), 'K': (1, 7)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']), 0.1, 1.1), psf_data(r, v['K'])], tol=1e-4, target='B')
def rlucy(S, E):
    obs = hl.ImageParam(F32, 2, "obs"); psf = hl.ImageParam(F32, 2, "psf")
    x, y = V("x", "y")
    K = S['K']; hk = D(K, 2)  # D: floor division for Params and for the CInt constants of Adams2019c
    bnd = [(0, S['W']), (0, S['H'])]
    est = F("rl_est0"); est[x, y] = obs[x, y]
    for it in range(3):
        ee = BF.mirror_image(est, bnd)
        r = RD((0, K), (0, K), name="rc%d" % it)
        conv = F("rl_conv%d" % it); conv[x, y] = hl.sum(psf[r.x, r.y] * ee[x + r.x - hk, y + r.y - hk])
        ratio = F("rl_ratio%d" % it); ratio[x, y] = obs[x, y] / hl.max(conv[x, y], 1e-6)
        re = BF.mirror_image(ratio, bnd)
        r2 = RD((0, K), (0, K), name="ra%d" % it)
        nxt = F("rl_est%d" % (it + 1)); nxt[x, y] = est[x, y] * hl.sum(psf[r2.x, r2.y] * re[x - r2.x + hk, y - r2.y + hk])
        est = nxt
    est_in(obs, E['W'], E['H']); est_in(psf, E['K'], E['K']); est_out(est, [x, y], E['W'], E['H'])
    return [est], [obs, psf]


@spec("dehaze_dark_channel_rgb_min_window_hlminimum_radius_param_2d_argmax_0d_atmos_gather_transmission_omega_param_u8_sat_interleaved",
      "dark-channel-prior dehazing on interleaved u8 RGB [c, x, y]: per-pixel min over c, a (2R+1)^2 inline hl.minimum window (repeat_edge, R a Param), the atmospheric light gathered at the 2-D hl.argmax of the dark channel (0-D Tuple Func, many ties), a second window minimum of min_c(I/A) for the transmission t = max(1 - omega*..., 0.1) with omega a Param (per mille), recovery J = u8_sat((I - A)/t + A); outputs J and A[3]",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 7), 'OM': (500, 990)},
      outs=lambda v: [(U8, [3, v['W'], v['H']]), (F32, [3])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8)], target='A')
def dehaze(S, E):
    im = hl.ImageParam(U8, 3, "im")
    c, x, y = V("c", "x", "y")
    W, H, R = S['W'], S['H'], S['R']
    bnd = [(0, W), (0, H)]
    dmin = F("dh_dmin"); dmin[x, y] = hl.min(hl.min(im[0, x, y], im[1, x, y]), im[2, x, y])
    de = BF.repeat_edge(dmin, bnd)
    rw = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rw")
    dark = F("dh_dark"); dark[x, y] = hl.minimum(de[x + rw.x, y + rw.y])
    ra = RD((0, W), (0, H), name="ra")
    am = F("dh_argmax"); am[()] = hl.argmax(dark[ra.x, ra.y])
    ax = hl.clamp(am[()][0], 0, W - 1); ay = hl.clamp(am[()][1], 0, H - 1)
    A = F("dh_atmos"); A[c] = hl.max(hl.f32(im[hl.clamp(c, 0, 2), ax, ay]), 1.0)
    dn = F("dh_norm"); dn[x, y] = hl.min(hl.min(hl.f32(im[0, x, y]) / A[0], hl.f32(im[1, x, y]) / A[1]), hl.f32(im[2, x, y]) / A[2])
    dne = BF.repeat_edge(dn, bnd)
    rw2 = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rw2")
    om = fE(S['OM']) * 0.001
    tr = F("dh_trans"); tr[x, y] = hl.max(1.0 - om * hl.minimum(dne[x + rw2.x, y + rw2.y]), 0.1)
    J = F("dh_out"); J[c, x, y] = hl.u8_sat((hl.f32(im[c, x, y]) - A[c]) / tr[x, y] + A[c] + 0.5)
    est_in(im, 3, E['W'], E['H']); est_out(J, [c, x, y], 3, E['W'], E['H']); est_out(A, [c], 3)
    return [J, A], [im]


@spec("floyd_steinberg_integer_error_diffusion_single_2d_rdom_scan_tuple_err_q_then_msb_first_bitpack8_u8",
      "Floyd-Steinberg dithering of u8 gray to 1 bit: ONE Tuple Func (error i32, quantized u8) updated over RDom(x, y) (x inner, raster order) reading its own errors at (x-1, y), (x+1, y-1), (x, y-1), (x-1, y-1) with hand-written validity selects and integer 7/3/5/1 / 16 weights; outputs the dithered image and its 8-pixels-per-byte MSB-first packing [ceil(W/8), H]",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U8, [(v['W'] + 7) // 8, v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='B')
def fsdither(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y, xb = V("x", "y", "xb")
    W, H = S['W'], S['H']
    fs = F("fs_state"); fs[x, y] = (hl.i32(0), hl.u8(0))
    r = RD((0, W), (0, H), name="r")

    def err(dx, dy):
        a = r.x + dx; b = r.y + dy
        return hl.select((a >= 0) & (a < W) & (b >= 0), fs[hl.clamp(a, 0, W - 1), hl.max(b, 0)][0], 0)
    v = hl.i32(im[r.x, r.y]) + (7 * err(-1, 0) + 3 * err(1, -1) + 5 * err(0, -1) + err(-1, -1)) / 16
    q = hl.select(v >= 128, 255, 0)
    fs[r.x, r.y] = (v - q, hl.u8(q))
    dith = F("fs_dither"); dith[x, y] = fs[x, y][1]
    acc = hl.u8(0)
    for i in range(8):
        xi = 8 * xb + i
        bit = hl.select(xi < W, dith[hl.min(xi, W - 1), y] >> 7, hl.u8(0))
        acc = acc | (bit << (7 - i))
    pk = F("fs_packed"); pk[xb, y] = acc
    est_in(im, E['W'], E['H']); est_out(dith, [x, y], E['W'], E['H']); est_out(pk, [xb, y], D(E['W'] + 7, 8), E['H'])
    return [dith, pk], [im]


@spec("rotate_three_shear_paeth_angle_param_degrees_lerp_rows_cols_rows_constant_exterior_each_pass_f32",
      "image rotation by three shears (Paeth): x-shear by -tan(theta/2), y-shear by sin(theta), x-shear again, theta a run-time int Param in degrees (-45..45); each pass a 1-D hl.lerp between two taps at a float coordinate floor()ed to an int index, reading the previous pass through constant_exterior(0)",
      {'W': (1, 1024), 'H': (1, 768), 'ANG': (-45, 45)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def shear3(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    th = fE(S['ANG']) * (math.pi / 180.0)
    a = -hl.tan(th * 0.5); b = hl.sin(th)
    cx = fE(W) * 0.5; cy = fE(H) * 0.5
    bnd = [(0, W), (0, H)]

    def xshear(src, name):
        e = BF.constant_exterior(src, 0.0, bnd)
        sx = hl.f32(x) + a * (hl.f32(y) + 0.5 - cy)
        fx = hl.floor(sx); ix = hl.i32(fx)
        f = F(name); f[x, y] = hl.lerp(e[ix, y], e[ix + 1, y], sx - fx)
        return f

    def yshear(src, name):
        e = BF.constant_exterior(src, 0.0, bnd)
        sy = hl.f32(y) + b * (hl.f32(x) + 0.5 - cx)
        fy = hl.floor(sy); iy = hl.i32(fy)
        f = F(name); f[x, y] = hl.lerp(e[x, iy], e[x, iy + 1], sy - fy)
        return f
    o = xshear(yshear(xshear(im, "sh_x1"), "sh_y"), "sh_x2")
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("lut3d_tetrahedral_size_param_six_case_select_offsets_9_tuple_func_gather_4_vertices_interleaved_rgb_u8",
      "3-D colour LUT with TETRAHEDRAL interpolation: LUT f32 [3, N, N, N] (N a Param 2..33), interleaved u8 RGB [c, x, y]; per pixel one 9-element mixed-type Tuple Func (sorted fractional deltas x1 >= x2 >= x3 and two i32 vertex offset triples) chosen by 6 select cases of the delta ordering, a base-cell Tuple Func, then 4 data-dependent gathers v0 + x1 (v1 - v0) + x2 (v2 - v1) + x3 (v3 - v2), rounded to u8",
      {'W': (1, 1024), 'H': (1, 768), 'LN': (2, 33)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8), lut3d_data(r, v['LN'])], tol=1e-4, target='B')
def lut3tet(S, E):
    im = hl.ImageParam(U8, 3, "im"); lut = hl.ImageParam(F32, 4, "lut")
    c, x, y = V("c", "x", "y")
    N = S['LN']
    sc = fE(N - 1) * (1.0 / 255.0)
    fr = [hl.f32(im[k, x, y]) * sc for k in range(3)]
    cell = F("lt_cell"); cell[x, y] = tuple(hl.min(hl.i32(f), N - 2) for f in fr)
    dr, dg, db = [fr[k] - hl.f32(cell[x, y][k]) for k in range(3)]
    rg = dr >= dg; gb = dg >= db; rb = dr >= db
    nrg = dr < dg; ngb = dg < db; nrb = dr < db
    c1 = rg & gb; c2 = rg & ngb & rb; c3 = rg & nrb; c4 = nrg & rb; c5 = nrg & nrb & gb; c6 = nrg & ngb
    x1 = hl.select(c1 | c2, dr, c4 | c5, dg, db)
    x2 = hl.select(c1 | c6, dg, c2 | c5, db, dr)
    x3 = hl.select(c1 | c4, db, c2 | c3, dg, dr)
    i1 = lambda cond: hl.select(cond, 1, 0)
    tet = F("lt_tet")
    tet[x, y] = (x1, x2, x3, i1(c1 | c2), i1(c4 | c5), i1(c3 | c6), i1(c1 | c2 | c3 | c4), i1(c1 | c4 | c5 | c6), i1(c2 | c3 | c5 | c6))
    ir, ig, ib = cell[x, y][0], cell[x, y][1], cell[x, y][2]
    T = lambda k: tet[x, y][k]
    v0 = lut[c, ir, ig, ib]
    v1 = lut[c, ir + T(3), ig + T(4), ib + T(5)]
    v2 = lut[c, ir + T(6), ig + T(7), ib + T(8)]
    v3 = lut[c, ir + 1, ig + 1, ib + 1]
    val = v0 + T(0) * (v1 - v0) + T(1) * (v2 - v1) + T(2) * (v3 - v2)
    o = F("lt_out"); o[c, x, y] = hl.u8(hl.clamp(val, 0.0, 1.0) * 255.0 + 0.5)
    est_in(im, 3, E['W'], E['H']); est_in(lut, 3, E['LN'], E['LN'], E['LN']); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [im, lut]


@spec("gabor_bank_orientations_param_kernel_func_i_j_o_cos_sin_radius_param_mirror_interior_3d_out_plus_max_abs_over_o",
      "Gabor filter bank: a kernel Func ker[i, j, o] built from cos/sin of theta = pi*o/NO (NO orientations a Param 1..8), sigma from the radius Param R (1..5), wavelength 4; response[x, y, o] = inline hl.sum over RDom(-R..R)^2 of ker * mirror_interior(im); second output max over o of |response| by hl.maximum",
      {'W': (2, 640), 'H': (2, 480), 'NO': (1, 8), 'R': (1, 5)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['NO']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def gabor(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, o, i, j = V("x", "y", "o", "i", "j")
    R, NO = S['R'], S['NO']
    sig = fE(R) * 0.5 + 0.5
    th = hl.f32(o) * math.pi / fE(NO)
    xp = hl.f32(i) * hl.cos(th) + hl.f32(j) * hl.sin(th)
    yp = -hl.f32(i) * hl.sin(th) + hl.f32(j) * hl.cos(th)
    ker = F("gb_kernel"); ker[i, j, o] = hl.exp(-(xp * xp + 0.25 * yp * yp) / (2.0 * sig * sig)) * hl.cos(xp * (2.0 * math.pi / 4.0))
    e = BF.mirror_interior(im, [(0, S['W']), (0, S['H'])])
    r = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="r")
    resp = F("gb_resp"); resp[x, y, o] = hl.sum(ker[r.x, r.y, o] * e[x + r.x, y + r.y])
    ro = RD((0, NO), name="ro")
    mx = F("gb_maxabs"); mx[x, y] = hl.maximum(hl.abs(resp[x, y, ro.x]))
    est_in(im, E['W'], E['H']); est_out(resp, [x, y, o], E['W'], E['H'], E['NO']); est_out(mx, [x, y], E['W'], E['H'])
    return [resp, mx], [im]


@spec("box4_gauss_approx_running_sum_scans_init_func_plus_add_sub_update_x_x_y_y_radius_param_u16_u32_u64",
      "approximate Gaussian by 4 box passes (x, x, y, y) each written as a RUNNING-SUM scan: init Func = window sum at the first index (inline hl.sum over 2R+1), pure def copies it, update over RDom(1, n-1) adds e[i+R] and subtracts e[i-R-1] (repeat_edge each pass); u16 in, u32 horizontal, u64 vertical accumulators, rounded division by (2R+1)^4 to u16; R a Param",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 16)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 65535, np.uint16)], target='B')
def box4run(S, E):
    im = hl.ImageParam(U16, 2, "im")
    x, y = V("x", "y")
    W, H, R = S['W'], S['H'], S['R']
    bnd = [(0, W), (0, H)]

    def hpass(src, name):
        e = BF.repeat_edge(src, bnd)
        rw = RD((-R, 2 * R + 1), name=name + "_w")
        init = F(name + "_init"); init[y] = hl.sum(hl.u32(e[rw.x, y]))
        h = F(name); h[x, y] = init[y]
        rx = RD((1, W - 1), name=name + "_rx")
        h[rx.x, y] = h[rx.x - 1, y] + hl.u32(e[rx.x + R, y]) - hl.u32(e[rx.x - R - 1, y])
        return h

    def vpass(src, name):
        e = BF.repeat_edge(src, bnd)
        rw = RD((-R, 2 * R + 1), name=name + "_w")
        init = F(name + "_init"); init[x] = hl.sum(hl.u64(e[x, rw.x]))
        h = F(name); h[x, y] = init[x]
        ry = RD((1, H - 1), name=name + "_ry")
        h[x, ry.x] = h[x, ry.x - 1] + hl.u64(e[x, ry.x + R]) - hl.u64(e[x, ry.x - R - 1])
        return h
    v2 = vpass(vpass(hpass(hpass(im, "bx_h1"), "bx_h2"), "bx_v1"), "bx_v2")
    n = hl.u64(2 * R + 1)
    n4 = n * n * n * n
    o = F("bx_out"); o[x, y] = hl.u16((v2[x, y] + n4 / 2) / n4)
    est_in(im, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [im]


@spec("sgm_one_path_left_to_right_tuple_agg_and_running_min_over_d_scan_d_inner_x_outer_p1_p2_params_argmin_disparity_u8",
      "semi-global matching, one path (left to right): absd cost volume [d, x, y] (right image via repeat_edge at x - d, ND disparities a Param), aggregation as ONE Tuple Func (L, running min over d) with a first update for column 0 and a second over RDom(d inner, x outer) reading L at d-1, d, d+1 of the previous column and the previous column's min (the running min at d = ND-1), P1 / P2 Params; disparity = hl.argmin over d (first on ties), u8",
      {'W': (1, 640), 'H': (1, 480), 'ND': (1, 64), 'P1': (1, 20), 'P2': (20, 200)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def sgm(S, E):
    L = hl.ImageParam(U8, 2, "left"); Rr = hl.ImageParam(U8, 2, "right")
    d, x, y = V("d", "x", "y")
    W, H, ND, P1, P2 = S['W'], S['H'], S['ND'], S['P1'], S['P2']
    re = BF.repeat_edge(Rr, [(0, W), (0, H)])
    cost = F("sg_cost"); cost[d, x, y] = hl.i32(hl.absd(L[x, y], re[x - d, y]))
    agg = F("sg_agg"); agg[d, x, y] = (cost[d, x, y], hl.i32(0))
    r0 = RD((0, ND), name="r0")
    c0 = cost[r0.x, 0, y]
    agg[r0.x, 0, y] = (c0, hl.select(r0.x == 0, c0, hl.min(agg[hl.max(r0.x - 1, 0), 0, y][1], c0)))
    r = RD((0, ND), (1, W - 1), name="r")
    dd, xx = r.x, r.y
    prv = lambda k: agg[k, xx - 1, y][0]
    mprev = agg[ND - 1, xx - 1, y][1]
    big = 1 << 20
    pm = hl.select(dd > 0, prv(hl.max(dd - 1, 0)) + P1, big)
    pp = hl.select(dd < ND - 1, prv(hl.min(dd + 1, ND - 1)) + P1, big)
    val = cost[dd, xx, y] + hl.min(hl.min(prv(dd), pm), hl.min(pp, mprev + P2)) - mprev
    agg[dd, xx, y] = (val, hl.select(dd == 0, val, hl.min(agg[hl.max(dd - 1, 0), xx, y][1], val)))
    rd = RD((0, ND), name="rd")
    am = F("sg_argmin"); am[x, y] = hl.argmin(agg[rd.x, x, y][0])
    o = F("sg_disp"); o[x, y] = hl.u8(am[x, y][0])
    est_in(L, E['W'], E['H']); est_in(Rr, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [L, Rr]


@spec("hu_moments_0d_10_tuple_raw_moments_f64_one_2d_rdom_update_central_normalized_7_invariants_mux_plus_centroid",
      "image moments: the 10 raw moments m_pq (p+q <= 3) of a u8 image as ONE 0-D 10-element f64 Tuple Func updated over RDom(W, H), then a 0-D Tuple of the 7 normalized central moments eta_pq, and two small outputs built by hl.mux: the 7 Hu invariants [7] and the centroid [2] (f64)",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(F64, [7]), (F64, [2])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], tol=1e-6, target='B')
def humom(S, E):
    im = hl.ImageParam(U8, 2, "im")
    i, = V("i")
    r = RD((0, S['W']), (0, S['H']), name="r")
    terms = [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
    m = F("hu_raw"); m[()] = tuple(hl.f64(0) for _ in terms)
    xv = hl.f64(r.x); yv = hl.f64(r.y); v = hl.f64(im[r.x, r.y])

    def pw(e, n):
        out = hl.f64(1)
        for _ in range(n):
            out = out * e
        return out
    m[()] = tuple(m[()][k] + v * pw(xv, p) * pw(yv, q) for k, (p, q) in enumerate(terms))
    M = lambda k: m[()][k]
    m00 = hl.max(M(0), 1.0); xb = M(1) / m00; yb = M(2) / m00
    mu20 = M(3) - xb * M(1); mu11 = M(4) - xb * M(2); mu02 = M(5) - yb * M(2)
    mu30 = M(6) - 3 * xb * M(3) + 2 * xb * xb * M(1)
    mu21 = M(7) - 2 * xb * M(4) - yb * M(3) + 2 * xb * xb * M(2)
    mu12 = M(8) - 2 * yb * M(4) - xb * M(5) + 2 * yb * yb * M(1)
    mu03 = M(9) - 3 * yb * M(5) + 2 * yb * yb * M(2)
    s2 = m00 * m00; s3 = s2 * hl.sqrt(m00)
    eta = F("hu_eta"); eta[()] = (mu20 / s2, mu11 / s2, mu02 / s2, mu30 / s3, mu21 / s3, mu12 / s3, mu03 / s3)
    n20, n11, n02, n30, n21, n12, n03 = [eta[()][k] for k in range(7)]
    a, b = n30 + n12, n21 + n03
    h = [n20 + n02, (n20 - n02) * (n20 - n02) + 4 * n11 * n11, (n30 - 3 * n12) * (n30 - 3 * n12) + (3 * n21 - n03) * (3 * n21 - n03),
         a * a + b * b, (n30 - 3 * n12) * a * (a * a - 3 * b * b) + (3 * n21 - n03) * b * (3 * a * a - b * b),
         (n20 - n02) * (a * a - b * b) + 4 * n11 * a * b, (3 * n21 - n03) * a * (a * a - 3 * b * b) - (n30 - 3 * n12) * b * (3 * a * a - b * b)]
    hu = F("hu_inv"); hu[i] = hl.mux(i, h)
    cen = F("hu_centroid"); cen[i] = hl.mux(i, [xb, yb])
    est_in(im, E['W'], E['H']); est_out(hu, [i], 7); est_out(cen, [i], 2)
    return [hu, cen], [im]


@spec("video_background_ema_q8_fixed_point_scan_over_frames_param_alpha_param_motion_mask_3d_and_background_u8",
      "video background subtraction: frames u8 [x, y, t] (t outermost, T a Param 1..16), an exponential moving average in Q8 fixed point as a pure def + update over RDom(1, T-1) along t (ema += ((f << 8) - ema) * AL >> 8, AL a Param), motion mask u8 [x, y, t] = 255 where |f - ema[t-1]| > TH (a Param) and t > 0, and the final background u8 [x, y]",
      {'W': (1, 640), 'H': (1, 480), 'T': (1, 16), 'AL': (1, 255), 'TH': (0, 64)},
      outs=lambda v: [(U8, [v['W'], v['H'], v['T']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H'], v['T']), 0, 255, np.uint8)], target='A')
def vema(S, E):
    fr = hl.ImageParam(U8, 3, "frames")
    x, y, t = V("x", "y", "t")
    T, AL, TH = S['T'], S['AL'], S['TH']
    ema = F("ve_ema"); ema[x, y, t] = hl.i32(fr[x, y, 0]) << 8
    rt = RD((1, T - 1), name="rt")
    prev = ema[x, y, rt.x - 1]
    ema[x, y, rt.x] = prev + ((((hl.i32(fr[x, y, rt.x]) << 8) - prev) * AL) >> 8)
    diff = hl.i32(hl.absd(hl.i32(fr[x, y, t]) << 8, ema[x, y, hl.max(t - 1, 0)]))
    mask = F("ve_mask"); mask[x, y, t] = hl.select((t > 0) & (diff > TH * 256), hl.u8(255), hl.u8(0))
    bg = F("ve_bg"); bg[x, y] = hl.u8((ema[x, y, T - 1] + 128) >> 8)
    est_in(fr, E['W'], E['H'], E['T']); est_out(mask, [x, y, t], E['W'], E['H'], E['T']); est_out(bg, [x, y], E['W'], E['H'])
    return [mask, bg], [fr]


@spec("base64_encode_rows_24bit_group_func_alphabet_select_table_func_padding_then_decode_roundtrip_inverse_table_func_divmod",
      "base64 per row: bytes u8 [NB, R] -> a 24-bit u32 group Func (3 bytes, zero past the end), the sextet (group >> (18 - 6*(o%4))) & 63 looked up in an alphabet table Func (select chain), '=' padding by index tests; then decoding the encoded output back (inverse 256-entry table Func read at the char values, 4 chars -> u32 quad Func, byte (quad >> (16 - 8*(i%3))) & 255); outputs encoded [4*ceil(NB/3), R] and decoded [NB, R]",
      {'NB': (1, 768), 'R': (1, 512)},
      outs=lambda v: [(U8, [4 * ((v['NB'] + 2) // 3), v['R']]), (U8, [v['NB'], v['R']])],
      data=lambda v, r: [randint(r, (v['NB'], v['R']), 0, 255, np.uint8)], target='B')
def b64(S, E):
    data = hl.ImageParam(U8, 2, "data")
    g, o, i, row, s, ch = V("g", "o", "i", "row", "s", "ch")
    NB = S['NB']
    byte = lambda j: hl.select(3 * g + j < NB, hl.u32(data[hl.min(3 * g + j, NB - 1), row]), hl.u32(0))
    trip = F("b64_trip"); trip[g, row] = (byte(0) << 16) | (byte(1) << 8) | byte(2)
    al = F("b64_alpha"); al[s] = hl.u8(hl.select(s < 26, 65 + s, s < 52, 71 + s, s < 62, s - 4, s == 62, 43, 47))
    gg = o / 4; k = o % 4
    sext = (trip[gg, row] >> hl.u32(18 - 6 * k)) & 63
    pad = ((k >= 2) & (3 * gg + 1 >= NB)) | ((k == 3) & (3 * gg + 2 >= NB))
    enc = F("b64_enc"); enc[o, row] = hl.select(pad, hl.u8(61), al[hl.clamp(hl.i32(sext), 0, 63)])
    dv = F("b64_dec_table"); dv[ch] = hl.u32(hl.select((ch >= 65) & (ch <= 90), ch - 65, (ch >= 97) & (ch <= 122), ch - 71,
                                                        (ch >= 48) & (ch <= 57), ch + 4, ch == 43, 62, ch == 47, 63, 0))
    cv = lambda kk: dv[hl.i32(enc[4 * g + kk, row])]
    quad = F("b64_quad"); quad[g, row] = (cv(0) << 18) | (cv(1) << 12) | (cv(2) << 6) | cv(3)
    dec = F("b64_dec"); dec[i, row] = hl.u8((quad[i / 3, row] >> hl.u32(16 - 8 * (i % 3))) & 255)
    est_in(data, E['NB'], E['R']); est_out(enc, [o, row], 4 * D(E['NB'] + 2, 3), E['R']); est_out(dec, [i, row], E['NB'], E['R'])
    return [enc, dec], [data]


@spec("crc32_table_driven_scan_per_row_lut_buffer_gather_in_serial_update_plus_adler32_tuple_mod_scan_u32_rows",
      "checksums per row of a byte matrix u8 [N, R] (bytes innermost): CRC-32 as a scan over RDom(0, N) whose next state is a gather from a 256-entry u32 table buffer at (state ^ byte) & 255, xor state >> 8; Adler-32 as a 2-Tuple scan with % 65521; two u32 [R] outputs",
      {'N': (1, 2048), 'R': (1, 512)},
      outs=lambda v: [(U32, [v['R']]), (U32, [v['R']])],
      data=lambda v, r: [randint(r, (v['N'], v['R']), 0, 255, np.uint8), fa(crc_table())], target='A')
def crcad(S, E):
    data = hl.ImageParam(U8, 2, "data"); tab = hl.ImageParam(U32, 1, "tab")
    row, = V("row")
    N = S['N']
    ones = hl.u32(-1)
    c = F("cr_state"); c[row] = ones
    rk = RD((0, N), name="rk")
    c[row] = tab[hl.i32((c[row] ^ hl.u32(data[rk.x, row])) & 255)] ^ (c[row] >> 8)
    o = F("cr_crc"); o[row] = c[row] ^ ones
    ad = F("cr_adler_state"); ad[row] = (hl.u32(1), hl.u32(0))
    ra = RD((0, N), name="ra")
    a1 = (ad[row][0] + hl.u32(data[ra.x, row])) % 65521
    ad[row] = (a1, (ad[row][1] + a1) % 65521)
    o2 = F("cr_adler"); o2[row] = (ad[row][1] << 16) | ad[row][0]
    est_in(data, E['N'], E['R']); est_in(tab, 256); est_out(o, [row], E['R']); est_out(o2, [row], E['R'])
    return [o, o2], [data, tab]


# ============================================ contractions ====================================================

@spec("q4_0_gemv_packed_nibbles_u8_k_over_2_dequant_func_group32_inner_hlsum_f16_scales_outer_hlsum_tokens_param",
      "llama.cpp-style Q4_0 matmul for a few tokens: weights packed two 4-bit values per byte wq[k/2, n] (low nibble = even k), a dequant Func nib[k, n] = ((wq >> 4*(k%2)) & 15) - 8, float16 per-group scales [G, n] (groups of 32 along k, G a Param), an inner hl.sum over the 32 group members into gsum[g, n, t], then an outer hl.sum over groups of scale * gsum; x [K, T] f32 with T a Param 1..8",
      {'N': (1, 4096), 'G': (1, 128), 'T': (1, 8)},
      outs=lambda v: [(F32, [v['N'], v['T']])],
      data=lambda v, r: [randint(r, (16 * v['G'], v['N']), 0, 255, np.uint8), fa((0.01 + 0.04 * r.random((v['G'], v['N']))).astype(np.float16)),
                         rimg(r, (32 * v['G'], v['T']))], tol=1e-4, target='A')
def q4gemv(S, E):
    wq = hl.ImageParam(U8, 2, "wq"); sc = hl.ImageParam(F16, 2, "scales"); xx = hl.ImageParam(F32, 2, "x")
    k, n, t, g = V("k", "n", "t", "g")
    G = S['G']
    nib = F("q4_nib"); nib[k, n] = hl.i32((wq[k / 2, n] >> hl.u8((k % 2) * 4)) & 15) - 8
    rj = RD((0, 32), name="rj")
    gs = F("q4_gsum"); gs[g, n, t] = hl.sum(hl.f32(nib[g * 32 + rj.x, n]) * xx[g * 32 + rj.x, t])
    rg = RD((0, G), name="rg")
    y = F("q4_out"); y[n, t] = hl.sum(hl.f32(sc[rg.x, n]) * gs[rg.x, n, t])
    est_in(wq, 16 * E['G'], E['N']); est_in(sc, E['G'], E['N']); est_in(xx, 32 * E['G'], E['T']); est_out(y, [n, t], E['N'], E['T'])
    return [y], [wq, sc, xx]


@spec("winograd_f2x2_3x3_conv_filter_transform_input_transform_5d_tiles_16_batched_gemms_over_ci_output_transform_mux_matrices",
      "3x3 valid convolution by Winograd F(2x2, 3x3): constant G / B^T / A^T matrices as Funcs via hl.mux; U[xi, eta, ci, co] = G g G^T (hl.sum over 3x3), V[xi, eta, ci, tx, ty] = B^T d B over 4x4 input tiles at stride 2 (5-D Func), M[xi, eta, co, tx, ty] = hl.sum over ci of U * V (16 batched GEMMs), out[ox, oy, co] = A^T M A read at (ox % 2, ox / 2); planar input [W, H, CI] with W = 2 TW + 2, tile counts TW, TH and channels CI, CO Params",
      {'TW': (1, 64), 'TH': (1, 64), 'CI': (1, 32), 'CO': (1, 32)},
      outs=lambda v: [(F32, [2 * v['TW'], 2 * v['TH'], v['CO']])],
      data=lambda v, r: [rimg(r, (2 * v['TW'] + 2, 2 * v['TH'] + 2, v['CI'])), fa((r.standard_normal((3, 3, v['CI'], v['CO'])) / math.sqrt(9 * v['CI'])).astype(np.float32))],
      tol=1e-4, target='B')
def wino(S, E):
    xin = hl.ImageParam(F32, 3, "x"); w = hl.ImageParam(F32, 4, "w")
    a, b, ci, co, tx, ty, xi, eta, ox, oy = V("a", "b", "ci", "co", "tx", "ty", "xi", "eta", "ox", "oy")
    CI = S['CI']
    f = lambda vals: [hl.f32(q) for q in vals]
    Gm = F("wg_G"); Gm[a, b] = hl.mux(a * 3 + b, f([1, 0, 0, .5, .5, .5, .5, -.5, .5, 0, 0, 1]))
    Bt = F("wg_Bt"); Bt[a, b] = hl.mux(a * 4 + b, f([1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1]))
    At = F("wg_At"); At[a, b] = hl.mux(a * 4 + b, f([1, 1, 1, 0, 0, 1, -1, -1]))
    rg = RD((0, 3), (0, 3), name="rg")
    U = F("wg_U"); U[xi, eta, ci, co] = hl.sum(Gm[xi, rg.x] * w[rg.x, rg.y, ci, co] * Gm[eta, rg.y])
    rb = RD((0, 4), (0, 4), name="rb")
    Vt = F("wg_V"); Vt[xi, eta, ci, tx, ty] = hl.sum(Bt[xi, rb.x] * xin[2 * tx + rb.x, 2 * ty + rb.y, ci] * Bt[eta, rb.y])
    rc = RD((0, CI), name="rc")
    M = F("wg_M"); M[xi, eta, co, tx, ty] = hl.sum(U[xi, eta, rc.x, co] * Vt[xi, eta, rc.x, tx, ty])
    ra = RD((0, 4), (0, 4), name="ra")
    o = F("wg_out"); o[ox, oy, co] = hl.sum(At[ox % 2, ra.x] * M[ra.x, ra.y, co, ox / 2, oy / 2] * At[oy % 2, ra.y])
    est_in(xin, 2 * E['TW'] + 2, 2 * E['TH'] + 2, E['CI']); est_in(w, 3, 3, E['CI'], E['CO'])
    est_out(o, [ox, oy, co], 2 * E['TW'], 2 * E['TH'], E['CO'])
    return [o], [xin, w]


@spec("flownet_correlation_cost_volume_displacement_param_divmod_d_channels_inner_mean_constant_exterior_plus_max_over_d",
      "FlowNet correlation layer: two feature maps [C, x, y] (channels innermost), displacement radius DM a Param (1..4), out[d, x, y] = (1/C) hl.sum over c of f1[c, x, y] * f2[c, x + d % (2DM+1) - DM, y + d / (2DM+1) - DM] with constant_exterior(0) on f2; second output the max over d by hl.maximum",
      {'C': (1, 64), 'W': (1, 96), 'H': (1, 64), 'DM': (1, 4)},
      outs=lambda v: [(F32, [(2 * v['DM'] + 1) ** 2, v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['C'], v['W'], v['H'])), rimg(r, (v['C'], v['W'], v['H']))], tol=1e-4, target='A')
def fncorr(S, E):
    f1 = hl.ImageParam(F32, 3, "f1"); f2 = hl.ImageParam(F32, 3, "f2")
    d, x, y = V("d", "x", "y")
    C, DM = S['C'], S['DM']
    side = 2 * DM + 1
    e2 = BF.constant_exterior(f2, 0.0, [(0, C), (0, S['W']), (0, S['H'])])
    rc = RD((0, C), name="rc")
    o = F("fc_corr"); o[d, x, y] = hl.sum(f1[rc.x, x, y] * e2[rc.x, x + d % side - DM, y + d / side - DM]) / fE(C)
    rd = RD((0, side * side), name="rd")
    mx = F("fc_max"); mx[x, y] = hl.maximum(o[rd.x, x, y])
    est_in(f1, E['C'], E['W'], E['H']); est_in(f2, E['C'], E['W'], E['H'])
    est_out(o, [d, x, y], sq(2 * E['DM'] + 1), E['W'], E['H']); est_out(mx, [x, y], E['W'], E['H'])
    return [o, mx], [f1, f2]


@spec("rbf_kernel_ridge_predict_gemm_trick_sqnorm_funcs_exp_gamma_param_kernel_func_then_alpha_matvec",
      "kernel ridge regression prediction with an RBF kernel computed by the GEMM trick: squared norms xn[n], zn[m] (hl.sum over d), dot[n, m] = hl.sum_d X[d, n] Z[d, m] (d innermost of both), K[n, m] = exp(-gamma * max(xn + zn - 2 dot, 0)) with gamma a Param (per mille), pred[m] = hl.sum over n of alpha[n] K[n, m]",
      {'N': (1, 1024), 'M': (1, 512), 'DD': (1, 64), 'GM': (1, 1000)},
      outs=lambda v: [(F32, [v['M']])],
      data=lambda v, r: [fa((0.3 * r.standard_normal((v['DD'], v['N']))).astype(np.float32)), fa((0.3 * r.standard_normal((v['DD'], v['M']))).astype(np.float32)), rimg(r, (v['N'],))],
      tol=1e-4, target='B')
def rbfkrr(S, E):
    X = hl.ImageParam(F32, 2, "X"); Z = hl.ImageParam(F32, 2, "Z"); al = hl.ImageParam(F32, 1, "alpha")
    n, m = V("n", "m")
    DD = S['DD']
    r1 = RD((0, DD), name="r1"); xn = F("rb_xn"); xn[n] = hl.sum(sq(X[r1.x, n]))
    r2 = RD((0, DD), name="r2"); zn = F("rb_zn"); zn[m] = hl.sum(sq(Z[r2.x, m]))
    r3 = RD((0, DD), name="r3"); dot = F("rb_dot"); dot[n, m] = hl.sum(X[r3.x, n] * Z[r3.x, m])
    gam = fE(S['GM']) * 0.001
    K = F("rb_K"); K[n, m] = hl.exp(-gam * hl.max(xn[n] + zn[m] - 2.0 * dot[n, m], 0.0))
    rn = RD((0, S['N']), name="rn")
    p = F("rb_pred"); p[m] = hl.sum(al[rn.x] * K[rn.x, m])
    est_in(X, E['DD'], E['N']); est_in(Z, E['DD'], E['M']); est_in(al, E['N']); est_out(p, [m], E['M'])
    return [p], [X, Z, al]


@spec("shufflenet_unit_grouped_pw_groups_param_cpg_param_channel_shuffle_divmod_dw3x3_constant_exterior_grouped_pw_residual_cxy",
      "ShuffleNet unit on [c, x, y] (channels innermost, C = G * CPG with groups G and channels-per-group CPG Params): grouped 1x1 conv + bias + ReLU reading x[(c / CPG) * CPG + j], channel shuffle by an index permutation sh[c] = p1[(c % G) * CPG + c / G], depthwise 3x3 through constant_exterior(0), second grouped 1x1 conv, residual add",
      {'W': (1, 128), 'H': (1, 128), 'G': (1, 4), 'CPG': (1, 16)},
      outs=lambda v: [(F32, [v['G'] * v['CPG'], v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['G'] * v['CPG'], v['W'], v['H'])), fa((r.standard_normal((v['CPG'], v['G'] * v['CPG'])) / math.sqrt(v['CPG'])).astype(np.float32)),
                         fa((r.standard_normal((v['G'] * v['CPG'], 3, 3)) / 3.0).astype(np.float32)),
                         fa((r.standard_normal((v['CPG'], v['G'] * v['CPG'])) / math.sqrt(v['CPG'])).astype(np.float32)), rimg(r, (v['G'] * v['CPG'],))],
      tol=1e-4, target='A')
def shuffle(S, E):
    xi = hl.ImageParam(F32, 3, "x"); w1 = hl.ImageParam(F32, 2, "w1"); wd = hl.ImageParam(F32, 3, "wd"); w2 = hl.ImageParam(F32, 2, "w2")
    b1 = hl.ImageParam(F32, 1, "b1")
    c, x, y = V("c", "x", "y")
    G, CPG = S['G'], S['CPG']; C = G * CPG
    rj = RD((0, CPG), name="rj")
    p1 = F("sn_pw1"); p1[c, x, y] = hl.max(b1[c] + hl.sum(w1[rj.x, c] * xi[(c / CPG) * CPG + rj.x, x, y]), 0.0)
    sh = F("sn_shuffle"); sh[c, x, y] = p1[(c % G) * CPG + c / G, x, y]
    se = BF.constant_exterior(sh, 0.0, [(0, C), (0, S['W']), (0, S['H'])])
    rk = RD((0, 3), (0, 3), name="rk")
    dw = F("sn_dw"); dw[c, x, y] = hl.sum(wd[c, rk.x, rk.y] * se[c, x + rk.x - 1, y + rk.y - 1])
    rj2 = RD((0, CPG), name="rj2")
    o = F("sn_out"); o[c, x, y] = xi[c, x, y] + hl.sum(w2[rj2.x, c] * dw[(c / CPG) * CPG + rj2.x, x, y])
    EC = E['G'] * E['CPG']
    est_in(xi, EC, E['W'], E['H']); est_in(w1, E['CPG'], EC); est_in(wd, EC, 3, 3); est_in(w2, E['CPG'], EC); est_in(b1, EC)
    est_out(o, [c, x, y], EC, E['W'], E['H'])
    return [o], [xi, w1, wd, w2, b1]


@spec("complex_matmul_interleaved_re_im_dim0_of_both_operands_and_output_one_hlsum_select_on_c",
      "complex matrix product with re/im interleaved as the innermost dim of size 2 of both operands and the output: A[2, K, M], B[2, N, K], C[c, n, m] = ONE inline hl.sum over k of select(c == 0, ar br - ai bi, ar bi + ai br)",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 256)},
      outs=lambda v: [(F32, [2, v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (2, v['K'], v['M'])), rimg(r, (2, v['N'], v['K']))], tol=1e-4, target='B')
def cmatint(S, E):
    A = hl.ImageParam(F32, 3, "A"); Bm = hl.ImageParam(F32, 3, "B")
    c, n, m = V("c", "n", "m")
    rk = RD((0, S['K']), name="rk")
    ar, ai = A[0, rk.x, m], A[1, rk.x, m]; br, bi = Bm[0, n, rk.x], Bm[1, n, rk.x]
    o = F("cm_out"); o[c, n, m] = hl.sum(hl.select(c == 0, ar * br - ai * bi, ar * bi + ai * br))
    est_in(A, 2, E['K'], E['M']); est_in(Bm, 2, E['N'], E['K']); est_out(o, [c, n, m], 2, E['N'], E['M'])
    return [o], [A, Bm]


# ============================================ other ===========================================================

@spec("levenshtein_batch_dp_i_j_p_one_func_select_init_rdom_j_inner_i_outer_pairs_outermost_u8_strings_plus_similarity",
      "batched edit distance: strings a [LA, NB], b [LB, NB] (u8, pair index outermost, LA / LB / NB Params), one DP Func dp[i, j, p] with the borders as a select-chain pure def and one update over RDom(j in 1..LB inner, i in 1..LA outer) of min(up + 1, left + 1, diag + (a != b)); outputs the distance i32 [NB] and a f32 similarity 1 - d / max(LA, LB)",
      {'LA': (1, 64), 'LB': (1, 64), 'NB': (1, 256)},
      outs=lambda v: [(I32, [v['NB']]), (F32, [v['NB']])],
      data=lambda v, r: [randint(r, (v['LA'], v['NB']), 0, 3, np.uint8), randint(r, (v['LB'], v['NB']), 0, 3, np.uint8)], tol=1e-6, target='A')
def lev(S, E):
    a = hl.ImageParam(U8, 2, "a"); b = hl.ImageParam(U8, 2, "b")
    i, j, p = V("i", "j", "p")
    LA, LB = S['LA'], S['LB']
    dp = F("lv_dp"); dp[i, j, p] = hl.select(i == 0, j, j == 0, i, 0)
    r = RD((1, LB), (1, LA), name="r")
    jj, ii = r.x, r.y
    sub = hl.select(a[ii - 1, p] == b[jj - 1, p], 0, 1)
    dp[ii, jj, p] = hl.min(hl.min(dp[ii - 1, jj, p] + 1, dp[ii, jj - 1, p] + 1), dp[ii - 1, jj - 1, p] + sub)
    o = F("lv_dist"); o[p] = dp[LA, LB, p]
    sim = F("lv_sim"); sim[p] = 1.0 - hl.f32(o[p]) / fE(hl.max(LA, LB))
    est_in(a, E['LA'], E['NB']); est_in(b, E['LB'], E['NB']); est_out(o, [p], E['NB']); est_out(sim, [p], E['NB'])
    return [o, sim], [a, b]


@spec("black_scholes_aos_options_3_by_n_erf_cnd_rate_vol_params_call_and_put_outputs_d1_func",
      "Black-Scholes European call and put prices for N options stored array-of-structs opt[3, N] (spot, strike, maturity), rate and volatility run-time int Params (per mille / percent), d1 as a Func, CND via hl.erf, two f32 [N] outputs",
      {'N': (1, 1 << 20), 'RATE': (0, 100), 'VOL': (1, 100)},
      outs=lambda v: [(F32, [v['N']]), (F32, [v['N']])],
      data=lambda v, r: [fa(np.stack([10 + 90 * r.random(v['N']), 10 + 90 * r.random(v['N']), 0.1 + 1.9 * r.random(v['N'])]).astype(np.float32))],
      tol=1e-4, target='B')
def bsch(S, E):
    opt = hl.ImageParam(F32, 2, "opt")
    i, = V("i")
    rate = fE(S['RATE']) * 0.001; vol = fE(S['VOL']) * 0.01
    Sp, K, T = opt[0, i], opt[1, i], opt[2, i]
    sT = hl.sqrt(T)
    d1 = F("bs_d1"); d1[i] = (hl.log(Sp / K) + (rate + 0.5 * vol * vol) * T) / (vol * sT)
    d2 = d1[i] - vol * sT
    cnd = lambda z: 0.5 * (1.0 + hl.erf(z * (1.0 / math.sqrt(2.0))))
    disc = K * hl.exp(-rate * T)
    call = F("bs_call"); call[i] = Sp * cnd(d1[i]) - disc * cnd(d2)
    put = F("bs_put"); put[i] = disc * cnd(-d2) - Sp * cnd(-d1[i])
    est_in(opt, 3, E['N']); est_out(call, [i], E['N']); est_out(put, [i], E['N'])
    return [call, put], [opt]


@spec("elementary_ca_rule_number_param_time_scan_rdom_t_wraparound_mod_w_spacetime_u8_plus_0d_final_population",
      "1-D elementary cellular automaton (rule number a run-time Param 0..255, e.g. 110): the space-time diagram st[x, t] as a pure def (row 0 from the input) + an update over a 2-D RDom (x inner, t in 1..T-1 outer; Halide refuses the pure-x form because the neighbours are not at x) reading st[(x +- 1) mod W, t-1] with Euclidean % wraparound and the new bit (RULE >> (l<<2 | c<<1 | r)) & 1; outputs the diagram u8 [W, T] and the 0-D population of the last row",
      {'W': (1, 4096), 'T': (1, 256), 'RULE': (0, 255)},
      outs=lambda v: [(U8, [v['W'], v['T']]), (I32, [])],
      data=lambda v, r: [randint(r, (v['W'],), 0, 1, np.uint8)], target='A')
def eca(S, E):
    init = hl.ImageParam(U8, 1, "init")
    x, t = V("x", "t")
    W, T, RU = S['W'], S['T'], S['RULE']
    st = F("ca_st"); st[x, t] = hl.select(t == 0, init[x] & 1, hl.u8(0))
    rt = RD((0, W), (1, T - 1), name="rt")
    xx, tt = rt.x, rt.y
    l = st[(xx + W - 1) % W, tt - 1]; cc = st[xx, tt - 1]; rr = st[(xx + 1) % W, tt - 1]
    idx = hl.i32((l << 2) | (cc << 1) | rr)
    st[xx, tt] = hl.u8((RU >> idx) & 1)
    rx = RD((0, W), name="rx")
    pop = F("ca_pop"); pop[()] = hl.sum(hl.i32(st[rx.x, T - 1]))
    est_in(init, E['W']); est_out(st, [x, t], E['W'], E['T'])
    return [st, pop], [init]


@spec("stream_compaction_exclusive_count_scan_then_rdom_where_scatter_to_data_dependent_index_on_output_plus_0d_count",
      "stream compaction (np.flatnonzero-style): mask = x > TH (a Param, per mille), exclusive prefix count by a scan over RDom(1, N-1), then the output (pure def 0) gets an update over RDom(0, N).where(mask) scattering x[r] to out[clamp(count[r], 0, N-1)]; second output the 0-D number kept",
      {'N': (1, 1 << 20), 'TH': (-1000, 1000)},
      outs=lambda v: [(F32, [v['N']]), (I32, [])],
      data=lambda v, r: [rimg(r, (v['N'],))], target='B', tol=1e-6)
def compact(S, E):
    xin = hl.ImageParam(F32, 1, "x")
    i, = V("i")
    N = S['N']; th = fE(S['TH']) * 0.001
    msk = F("sc_mask"); msk[i] = hl.select(xin[i] > th, 1, 0)
    cnt = F("sc_count_scan"); cnt[i] = 0
    rc = RD((1, N - 1), name="rc"); cnt[rc.x] = cnt[rc.x - 1] + msk[rc.x - 1]
    out = F("sc_out"); out[i] = hl.f32(0)
    rs = RD((0, N), name="rs"); rs.where(msk[rs.x] == 1)
    out[hl.clamp(cnt[rs.x], 0, N - 1)] = xin[rs.x]
    tot = F("sc_total"); tot[()] = cnt[N - 1] + msk[N - 1]
    est_in(xin, E['N']); est_out(out, [i], E['N'])
    return [out, tot], [xin]


@spec("multigrid_two_level_vcycle_jacobi_pre2_restrict_4cell_coarse_jacobi4_bilinear_parity_prolong_post1_constant_exterior_0d_residual",
      "two-level multigrid V-cycle for -Laplace(u) = f with zero Dirichlet exterior (constant_exterior on every smoothed Func): 2 weighted-Jacobi pre-smooths on the fine grid (2CW x 2CH, CW / CH Params), the residual, 4-cell restriction to the coarse grid, 4 coarse Jacobi sweeps (h = 2), cell-centred bilinear prolongation with 9/3/3/1 weights and parity-selected neighbours (x / 2, x % 2), correction, 1 post-smooth; outputs u and the 0-D residual L2 norm",
      {'CW': (1, 256), 'CH': (1, 256)},
      outs=lambda v: [(F32, [2 * v['CW'], 2 * v['CH']]), (F32, [])],
      data=lambda v, r: [rimg(r, (2 * v['CW'], 2 * v['CH']))], tol=1e-4, target='A')
def mgrid(S, E):
    f = hl.ImageParam(F32, 2, "f")
    x, y = V("x", "y")
    CW, CH = S['CW'], S['CH']
    fb = [(0, 2 * CW), (0, 2 * CH)]; cb = [(0, CW), (0, CH)]

    def jac(u, rhs, bnd, hh, name, om=0.8):
        ue = BF.constant_exterior(u, 0.0, bnd)
        n = F(name)
        n[x, y] = (1.0 - om) * u[x, y] + om * 0.25 * (ue[x - 1, y] + ue[x + 1, y] + ue[x, y - 1] + ue[x, y + 1] + hh * rhs[x, y])
        return n

    def resid(u, name):
        ue = BF.constant_exterior(u, 0.0, fb)
        r = F(name); r[x, y] = f[x, y] - (4.0 * u[x, y] - ue[x - 1, y] - ue[x + 1, y] - ue[x, y - 1] - ue[x, y + 1])
        return r
    u0 = F("mg_u0"); u0[x, y] = hl.f32(0)
    u2 = jac(jac(u0, f, fb, 1.0, "mg_u1"), f, fb, 1.0, "mg_u2")
    res = resid(u2, "mg_res")
    rc = F("mg_rc"); rc[x, y] = 0.25 * (res[2 * x, 2 * y] + res[2 * x + 1, 2 * y] + res[2 * x, 2 * y + 1] + res[2 * x + 1, 2 * y + 1])
    e = F("mg_e0"); e[x, y] = hl.f32(0)
    for k in range(4):
        e = jac(e, rc, cb, 4.0, "mg_e%d" % (k + 1))
    ee = BF.constant_exterior(e, 0.0, cb)
    X, Y = x / 2, y / 2
    sx = hl.select(x % 2 == 0, -1, 1); sy = hl.select(y % 2 == 0, -1, 1)
    pr = F("mg_prolong"); pr[x, y] = (9.0 / 16) * ee[X, Y] + (3.0 / 16) * ee[X + sx, Y] + (3.0 / 16) * ee[X, Y + sy] + (1.0 / 16) * ee[X + sx, Y + sy]
    u3 = F("mg_u3"); u3[x, y] = u2[x, y] + pr[x, y]
    u4 = jac(u3, f, fb, 1.0, "mg_u4")
    r4 = resid(u4, "mg_res4")
    rn = RD((0, 2 * CW), (0, 2 * CH), name="rn")
    nrm = F("mg_norm"); nrm[()] = hl.sqrt(hl.sum(r4[rn.x, rn.y] * r4[rn.x, rn.y]))
    est_in(f, 2 * E['CW'], 2 * E['CH']); est_out(u4, [x, y], 2 * E['CW'], 2 * E['CH'])
    return [u4, nrm], [f]


@spec("kde_2d_gaussian_grid_by_pairwise_hlsum_over_points_aos_2_by_n_bandwidth_param_then_0d_mass",
      "2-D kernel density estimate on a GW x GH grid over [0, 1]^2: dens[i, j] = norm * hl.sum over N points (array-of-structs pts[2, N]) of exp(-|g - p|^2 / 2h^2), bandwidth h a Param (hundredths), grid coordinates from Params; second output the 0-D mean density (hl.sum over the grid)",
      {'N': (1, 2048), 'GW': (1, 128), 'GH': (1, 128), 'BW': (1, 50)},
      outs=lambda v: [(F32, [v['GW'], v['GH']]), (F32, [])],
      data=lambda v, r: [runif(r, (2, v['N']))], tol=1e-4, target='B')
def kde2(S, E):
    pts = hl.ImageParam(F32, 2, "pts")
    i, j = V("i", "j")
    N, GW, GH = S['N'], S['GW'], S['GH']
    h = fE(S['BW']) * 0.01
    gx = (hl.f32(i) + 0.5) / fE(GW); gy = (hl.f32(j) + 0.5) / fE(GH)
    rn = RD((0, N), name="rn")
    dx = gx - pts[0, rn.x]; dy = gy - pts[1, rn.x]
    norm = 1.0 / (fE(N) * (2.0 * math.pi) * h * h)
    dens = F("kd_dens"); dens[i, j] = hl.sum(hl.exp(-(dx * dx + dy * dy) / (2.0 * h * h))) * norm
    rg = RD((0, GW), (0, GH), name="rg")
    mass = F("kd_mass"); mass[()] = hl.sum(dens[rg.x, rg.y]) / (fE(GW) * fE(GH))
    est_in(pts, 2, E['N']); est_out(dens, [i, j], E['GW'], E['GH'])
    return [dens, mass], [pts]
