"""Red-team round 17 pipelines for Diet: 24 new algorithms / writing styles not used by rounds 1-16. Same spec format as
round 16 (helpers and the registry factory imported from pipes16 -> pipes15 -> ... by importlib, not copied).
target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for Adams2019c), E: estimates.
Every size and run-time scalar is a ranged int Param."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec16 = importlib.util.spec_from_file_location("pipes_round16", os.path.join(_here, "..", "redteam16_2026-12-06", "pipes16.py"))
_round16 = importlib.util.module_from_spec(_spec16)
_spec16.loader.exec_module(_round16)
_round3 = _round16._round3
V, est_in, est_out, fa, RD, TARGETS = _round16.V, _round16.est_in, _round16.est_out, _round16.fa, _round16.RD, _round16.TARGETS
D, MX, runif, randint, fE, sq = _round16.D, _round16.MX, _round16.runif, _round16.randint, _round16.fE, _round16.sq
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round16.F32, _round16.F64, _round16.U8, _round16.U16, _round16.U32, _round16.U64,
                                                  _round16.I8, _round16.I16, _round16.I32, _round16.I64)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def rnorm(r, shape, dtype=np.float32):
    return fa(r.standard_normal(shape).astype(dtype))


def runs_u8(r, shape, k=4):
    """class map with horizontal runs: each row a sequence of random-length runs of random classes 0..k-1"""
    W, H = shape
    a = np.zeros((W, H), np.uint8)
    for y in range(H):
        x = 0
        while x < W:
            n = int(r.integers(1, 9)); a[x:x + n, y] = r.integers(0, k); x += n
    return fa(a)


def hough_trig(nt):
    th = np.arange(nt) * np.pi / nt
    return fa(np.stack([np.round(np.cos(th) * 1024), np.round(np.sin(th) * 1024)], 0).astype(np.int32))


def rois_data(r, nr, fw, fh):
    x0 = r.uniform(-0.5, fw, nr); y0 = r.uniform(-0.5, fh, nr)
    x1 = x0 + r.uniform(0.5, max(fw, 1) * 0.7, nr); y1 = y0 + r.uniform(0.5, max(fh, 1) * 0.7, nr)
    return fa(np.stack([x0, y0, x1, y1], 0).astype(np.float32))


def blobs(r, W, H):
    """f32 image of random Gaussian blobs (sigma 0.8 / 1.2 / 1.8) so that the DoG has scale-space extrema: sparse +-1
    impulses blurred separably (zero padded) per sigma class, plus a little noise"""
    im = np.zeros((W, H))
    for sg in (0.8, 1.2, 1.8):
        imp = (r.random((W, H)) < 1.0 / 120) * r.uniform(-1, 1, (W, H))
        k = np.exp(-np.arange(-6, 7) ** 2 / (2 * sg * sg))
        P = np.pad(imp, 6); t = sum(k[i] * P[i:i + W, :] for i in range(13)); im += sum(k[i] * t[:, i:i + H] for i in range(13))
    return fa((im + 0.01 * r.standard_normal((W, H))).astype(np.float32))


def bayer8():
    m = np.zeros((8, 8), np.int32)
    for i in range(8):
        for j in range(8):
            v = 0
            for k in range(3):
                xb = (i >> k) & 1; yb = (j >> k) & 1
                v |= (((xb ^ yb) << 1) | yb) << (2 * (2 - k))
            m[i, j] = v
    return m


# ============================================ image ===========================================================

@spec("kuwahara_u8_four_quadrant_tuple_sum_sumsq_func_q_x_y_offsets_from_q_divmod_radius_param_integer_variance_argmin_tuple_update_mirror_image",
      "Kuwahara filter on u8 gray: ONE Tuple Func st[q, x, y] = (sum, sum of squares) over the (R+1)^2 quadrant q (0..3), whose offsets come from q by %2 and /2, by an explicit update over RDom; the quadrant of least variance (exact integer n*s2 - s^2, first on ties) picked by a Tuple (best var, best sum) defined from quadrant 0 and updated over RDom(1, 3); output the rounded quadrant mean u8; mirror_image input; R a Param",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 6)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def kuwahara(S, E):
    im = hl.ImageParam(U8, 2, "im")
    q, x, y = V("q", "x", "y")
    R = S['R']
    e = BF.mirror_image(im, [(0, S['W']), (0, S['H'])])
    ei = F("kw_e"); ei[x, y] = hl.i32(e[x, y])
    r = RD((0, R + 1), (0, R + 1), name="rq")
    ox = (q % 2) * R - R; oy = (q / 2) * R - R
    st = F("kw_stats"); st[q, x, y] = (hl.i32(0), hl.i32(0))
    v = ei[x + ox + r.x, y + oy + r.y]
    st[q, x, y] = (st[q, x, y][0] + v, st[q, x, y][1] + v * v)
    n = (R + 1) * (R + 1)
    # (an INT_MAX sentinel is wrong here: Halide's simplifier rewrites n*s2 - s*s < best into n*s2 < best + s*s, which
    #  overflows for best = INT_MAX; so the pure definition is quadrant 0 and the update runs over quadrants 1..3)
    best = F("kw_best"); best[x, y] = (n * st[0, x, y][1] - st[0, x, y][0] * st[0, x, y][0], st[0, x, y][0])
    rb = RD((1, 3), name="rb")
    s, s2 = st[rb.x, x, y][0], st[rb.x, x, y][1]
    var = n * s2 - s * s
    better = var < best[x, y][0]
    best[x, y] = (hl.select(better, var, best[x, y][0]), hl.select(better, s, best[x, y][1]))
    out = F("kw_out"); out[x, y] = hl.u8((best[x, y][1] + D(n, 2)) / n)
    est_in(im, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [im]


@spec("perona_malik_4_iters_flux_form_east_south_flux_funcs_read_twice_exp_conductance_kappa_param_repeat_edge_f32",
      "Perona-Malik anisotropic diffusion, 4 unrolled iterations in flux form: per iteration an east-flux Func and a south-flux Func g(d)*d with g = exp(-(d/kappa)^2) (kappa a Param in hundredths), each read twice by the update (at x and x-1 / y and y-1); repeat_edge of the previous iterate (zero flux at the border); lambda 0.2",
      {'W': (1, 640), 'H': (1, 480), 'KAP': (2, 50)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='B')
def perona(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    kap = fE(S['KAP']) * 0.01
    u = F("pm_u0"); u[x, y] = im[x, y]
    for it in range(4):
        ue = BF.repeat_edge(u, [(0, S['W']), (0, S['H'])])
        fe = F("pm_fe%d" % it); d = ue[x + 1, y] - ue[x, y]; fe[x, y] = hl.exp(-(d / kap) * (d / kap)) * d
        fs = F("pm_fs%d" % it); d2 = ue[x, y + 1] - ue[x, y]; fs[x, y] = hl.exp(-(d2 / kap) * (d2 / kap)) * d2
        un = F("pm_u%d" % (it + 1)); un[x, y] = u[x, y] + 0.2 * (fe[x, y] - fe[x - 1, y] + fs[x, y] - fs[x, y - 1])
        u = un
    est_in(im, E['W'], E['H']); est_out(u, [x, y], E['W'], E['H'])
    return [u], [im]


@spec("seam_carving_gradient_energy_i32_cumulative_min_dp_update_2d_rdom_x_inner_y_outer_then_0d_hlargmin_last_row_then_backtrack_scan_gather_on_output",
      "seam carving: energy |dx|+|dy| of u8 gray (repeat_edge, i32); cumulative DP M[x, y] = e + min of three M[clamp(x-1..x+1), y-1] as an update over a 2-D RDom (x inner, rows 1..H-1; Halide refuses the pure-x form because M[x-1, y-1] does not keep x in place); 0-D hl.argmin over the last row; the vertical seam as a bottom-up backtrack update over RDom on a 1-D output that gathers M at its own previous entry (ties left/centre first); outputs M and the seam",
      {'W': (3, 1024), 'H': (2, 768)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [v['H']])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8)], target='A')
def seam(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    e = BF.repeat_edge(im, [(0, W), (0, H)])
    en = F("sc_energy")
    en[x, y] = hl.i32(hl.absd(e[x + 1, y], e[x - 1, y])) + hl.i32(hl.absd(e[x, y + 1], e[x, y - 1]))
    M = F("sc_cum"); M[x, y] = en[x, y]
    rd = RD((0, W), (1, H - 1), name="rd")  # (x pure is refused: M[x-1, y-1] is not the same pure x) -> serial 2-D RDom, x inner
    M[rd.x, rd.y] = en[rd.x, rd.y] + hl.min(hl.min(M[hl.clamp(rd.x - 1, 0, W - 1), rd.y - 1], M[rd.x, rd.y - 1]), M[hl.clamp(rd.x + 1, 0, W - 1), rd.y - 1])
    rx = RD((0, W), name="rx")
    am = F("sc_argmin"); am[()] = hl.argmin(M[rx, H - 1])
    sm = F("sc_seam"); sm[y] = am[()][0]
    rb = RD((0, H - 1), name="rb")
    yy = H - 2 - rb
    p = sm[yy + 1]
    c0 = hl.clamp(p - 1, 0, W - 1); c1 = hl.clamp(p, 0, W - 1); c2 = hl.clamp(p + 1, 0, W - 1)
    m0, m1, m2 = M[c0, yy], M[c1, yy], M[c2, yy]
    sm[yy] = hl.select((m0 <= m1) & (m0 <= m2), c0, m1 <= m2, c1, c2)
    est_in(im, E['W'], E['H']); est_out(M, [x, y], E['W'], E['H']); est_out(sm, [y], E['H'])
    return [M, sm], [im]


@spec("dog_scale_space_blur_func_x_y_s_with_sigma_from_pure_s_weight_func_i_s_normalized_hlsum_dog_3_levels_26_neighbour_extrema_u8_mask_plus_0d_count",
      "SIFT-style DoG extrema: a 3-D blur Func g[x, y, s] (4 scales) whose separable 13-tap weights w[i, s] depend on the PURE scale var (sigma = S0/10 * 2^(s/3), S0 a Param, normalized by an inline hl.sum), x then y, mirror_image input; DoG d[x, y, s] = g[s+1] - g[s] (3 levels); mask u8 = 255 where the middle level is a strict max or min of its 26 neighbours (python-unrolled, clamped) and |d| > THR/1000 (THR a Param), 0 at the image border; 0-D count of keypoints",
      {'W': (1, 640), 'H': (1, 480), 'S0': (8, 20), 'THR': (1, 20)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (I32, [])],
      data=lambda v, r: [blobs(r, v['W'], v['H'])], target='B')
def dogext(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y, s, i = V("x", "y", "s", "i")
    W, H = S['W'], S['H']
    e = BF.mirror_image(im, [(0, W), (0, H)])
    sig = fE(S['S0']) * 0.1 * hl.pow(2.0, hl.f32(s) / 3.0)
    w = F("dg_w"); w[i, s] = hl.exp(-hl.f32(i * i) / (2.0 * sig * sig))
    rn = RD((-6, 13), name="rn")
    wn = F("dg_wn"); wn[i, s] = w[i, s] / hl.sum(w[rn, s])
    rt = RD((-6, 13), name="rt")
    gx = F("dg_gx"); gx[x, y, s] = hl.sum(wn[rt, s] * e[x + rt, y])
    rt2 = RD((-6, 13), name="rt2")
    g = F("dg_g"); g[x, y, s] = hl.sum(wn[rt2, s] * gx[x, y + rt2, s])
    d = F("dg_dog"); d[x, y, s] = g[x, y, s + 1] - g[x, y, s]
    v = d[x, y, 1]
    nb = []
    for ss in range(3):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if ss == 1 and dx == 0 and dy == 0:
                    continue
                nb.append(d[hl.clamp(x + dx, 0, W - 1), hl.clamp(y + dy, 0, H - 1), ss])
    mx, mn = nb[0], nb[0]
    for t in nb[1:]:
        mx = hl.max(mx, t); mn = hl.min(mn, t)
    inner = (x > 0) & (x < W - 1) & (y > 0) & (y < H - 1)
    thr = fE(S['THR']) * 0.001
    key = inner & ((v > mx) | (v < mn)) & (hl.abs(v) > thr)
    mask = F("dg_mask"); mask[x, y] = hl.select(key, hl.u8(255), hl.u8(0))
    rc = RD((0, W), (0, H), name="rc")
    cnt = F("dg_count"); cnt[()] = hl.i32(0)
    cnt[()] += hl.select(mask[rc.x, rc.y] > 0, 1, 0)
    est_in(im, E['W'], E['H']); est_out(mask, [x, y], E['W'], E['H'])
    return [mask, cnt], [im]


@spec("bilateral_separable_approx_x_pass_then_y_pass_tuple_num_den_updates_range_weight_from_centre_radius_param_sigma_r_param_mirror_image_f32",
      "separable approximation of the bilateral filter: an x pass and then a y pass on the x-pass result, each ONE Tuple Func (weighted sum, weight sum) updated over RDom(-R..R) with w = exp(-i^2/(2 ss^2) - (v - centre)^2/(2 sr^2)), ss = R/2, sr = SR/100 (R, SR Params); each pass reads through mirror_image; normalized in a separate Func",
      {'W': (1, 1024), 'H': (1, 768), 'R': (1, 7), 'SR': (5, 50)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))], tol=1e-4, target='A')
def bilsep(S, E):
    im = hl.ImageParam(F32, 2, "im")
    x, y = V("x", "y")
    W, H, R = S['W'], S['H'], S['R']
    ss = fE(R) * 0.5; sr = fE(S['SR']) * 0.01
    inv_s = 1.0 / (2.0 * ss * ss); inv_r = 1.0 / (2.0 * sr * sr)

    def bpass(src, horiz, nm):
        e = BF.mirror_image(src, [(0, W), (0, H)])
        r = RD((-R, 2 * R + 1), name="r" + nm)
        nbv = e[x + r.x, y] if horiz else e[x, y + r.x]
        c = e[x, y]
        w = hl.exp(-hl.f32(r.x * r.x) * inv_s - (nbv - c) * (nbv - c) * inv_r)
        acc = F("bs_acc_" + nm); acc[x, y] = (hl.f32(0), hl.f32(0))
        acc[x, y] = (acc[x, y][0] + w * nbv, acc[x, y][1] + w)
        o = F("bs_" + nm); o[x, y] = acc[x, y][0] / acc[x, y][1]
        return o
    bx = bpass(im, True, "x")
    by = bpass(bx, False, "y")
    est_in(im, E['W'], E['H']); est_out(by, [x, y], E['W'], E['H'])
    return [by], [im]


@spec("ordered_dither_bayer8_func_from_bit_interleave_clamp_gather_levels_param_cxy_u8_plus_packed_palette_index_u16",
      "ordered (Bayer 8x8) dithering of channels-first-in-memory RGB u8 [c, x, y] to L levels per channel (L a Param): the 8x8 threshold matrix is a Func built by bit interleaving of x^y and y, gathered at (x & 7, y & 7); exact integer quantization q = (v (L-1) 128 + (2 b + 1) 255) / (255 * 128); outputs the requantized u8 image and a u16 palette index q_r L^2 + q_g L + q_b (the q Func read by both)",
      {'W': (1, 1024), 'H': (1, 768), 'L': (2, 16)},
      outs=lambda v: [(U8, [3, v['W'], v['H']]), (U16, [v['W'], v['H']])],
      data=lambda v, r: [randint(r, (3, v['W'], v['H']), 0, 255, np.uint8)], target='B')
def odither(S, E):
    im = hl.ImageParam(U8, 3, "im")
    c, x, y, i, j = V("c", "x", "y", "i", "j")
    L = S['L']
    bv = hl.i32(0)
    for k in range(3):
        xb = (i >> k) & 1; yb = (j >> k) & 1
        bv = bv | ((((xb ^ yb) << 1) | yb) << (2 * (2 - k)))
    bm = F("od_bayer"); bm[i, j] = bv
    b = bm[x & 7, y & 7]
    qf = F("od_q"); qf[c, x, y] = hl.min((hl.i32(im[c, x, y]) * (L - 1) * 128 + (2 * b + 1) * 255) / (255 * 128), L - 1)
    out = F("od_out"); out[c, x, y] = hl.u8((qf[c, x, y] * 255 + D(L - 1, 2)) / (L - 1))
    idx = F("od_index"); idx[x, y] = hl.u16(qf[0, x, y] * L * L + qf[1, x, y] * L + qf[2, x, y])
    est_in(im, 3, E['W'], E['H']); est_out(out, [c, x, y], 3, E['W'], E['H']); est_out(idx, [x, y], E['W'], E['H'])
    return [out, idx], [im]


@spec("hough_lines_q10_trig_buffer_theta_param_scatter_votes_3d_rdom_where_edge_threshold_to_computed_rho_u32_acc_then_0d_hlargmax_peak_mux_out",
      "Hough transform for lines: accumulator acc[rho, t] (u32, rho in [0, 2(W+H)]) updated over a 3-D RDom(x, y, t) with where(im >= THR) (THR a Param), scattering +1 to rho = ((x cos_t + y sin_t) >> 10) + W + H from a Q10 i32 trig buffer [2, NT] (NT a Param); peak (rho, t, votes) by a 0-D 2-D hl.argmax muxed into an i32[3] output",
      {'W': (1, 512), 'H': (1, 384), 'NT': (1, 180), 'THR': (1, 255)},
      outs=lambda v: [(U32, [2 * (v['W'] + v['H']) + 1, v['NT']]), (I32, [3])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), hough_trig(v['NT'])], target='A')
def hough(S, E):
    im = hl.ImageParam(U8, 2, "im"); trig = hl.ImageParam(I32, 2, "trig")
    rho, t, k = V("rho", "t", "k")
    W, H, NT = S['W'], S['H'], S['NT']
    acc = F("hg_acc"); acc[rho, t] = hl.u32(0)
    r = RD((0, W), (0, H), (0, NT), name="rv")
    r.where(im[r.x, r.y] >= S['THR'])
    rr = ((r.x * trig[0, r.z] + r.y * trig[1, r.z]) >> 10) + W + H
    acc[hl.clamp(rr, 0, 2 * (W + H)), r.z] += hl.u32(1)
    ra = RD((0, 2 * (W + H) + 1), (0, NT), name="ra")
    am = F("hg_argmax"); am[()] = hl.argmax(acc[ra.x, ra.y])
    pk = F("hg_peak"); pk[k] = hl.mux(k, [am[()][0], am[()][1], hl.i32(am[()][2])])
    est_in(im, E['W'], E['H']); est_in(trig, 2, E['NT'])
    est_out(acc, [rho, t], 2 * (E['W'] + E['H']) + 1, E['NT']); est_out(pk, [k], 3)
    return [acc, pk], [im, trig]


@spec("exact_edt_meijster_column_fwd_bwd_scan_updates_pure_x_then_row_hlminimum_over_rdom_w_sq_dist_plus_g_sq_i32",
      "exact squared Euclidean distance transform (Meijster / brute-force phase 2): column distance g[x, y] to the nearest feature (mask != 0) by a forward scan update over RDom y then a backward scan update (H-2-r) with x pure; dt[x, y] = hl.minimum over RDom(0, W) of (x - x')^2 + g[x', y]^2; i32",
      {'W': (1, 512), 'H': (1, 384)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [fa((r.random((v['W'], v['H'])) < 0.02).astype(np.uint8))], target='B')
def edt(S, E):
    m = hl.ImageParam(U8, 2, "mask")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    INF = W + H
    g = F("dt_g"); g[x, y] = hl.select(m[x, y] != 0, 0, INF)
    rf = RD((1, H - 1), name="rf")
    g[x, rf] = hl.select(m[x, rf] != 0, 0, g[x, rf - 1] + 1)
    rb = RD((0, H - 1), name="rb")
    yy = H - 2 - rb
    g[x, yy] = hl.min(g[x, yy], g[x, yy + 1] + 1)
    rx = RD((0, W), name="rx")
    dt = F("dt_out"); dt[x, y] = hl.minimum((x - rx) * (x - rx) + g[rx, y] * g[rx, y])
    est_in(m, E['W'], E['H']); est_out(dt, [x, y], E['W'], E['H'])
    return [dt], [m]


@spec("run_length_rows_start_flags_then_tuple_scan_run_id_and_pos_plus_backward_remaining_scan_u16_length_plus_runs_per_row_gather_last",
      "run-length analysis of a u8 class map per row: start flags (x == 0 or class change, clamped x-1 read); ONE Tuple Func (run id, position in run) scanned left to right by an update over RDom(1..W-1) with y pure; a second Func scanned right to left (W-2-r) for the remaining length; outputs the i32 run id, the u16 run length pos + rem - 1, and the per-row run count gathered at x = W-1 of the scan",
      {'W': (1, 2048), 'H': (1, 512)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (U16, [v['W'], v['H']]), (I32, [v['H']])],
      data=lambda v, r: [runs_u8(r, (v['W'], v['H']))], target='A')
def runlen(S, E):
    c = hl.ImageParam(U8, 2, "cls")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    st = F("rl_start"); st[x, y] = hl.select(x == 0, 1, hl.select(c[x, y] != c[hl.max(x - 1, 0), y], 1, 0))
    sc = F("rl_scan"); sc[x, y] = (st[x, y], hl.i32(1))
    r = RD((1, W - 1), name="rs")
    sc[r, y] = (sc[r - 1, y][0] + st[r, y], hl.select(st[r, y] == 1, 1, sc[r - 1, y][1] + 1))
    rem = F("rl_rem"); rem[x, y] = hl.i32(1)
    rb = RD((0, W - 1), name="rbk")
    xx = W - 2 - rb
    rem[xx, y] = hl.select(c[xx + 1, y] == c[xx, y], rem[xx + 1, y] + 1, 1)
    rid = F("rl_id"); rid[x, y] = sc[x, y][0]
    ln = F("rl_len"); ln[x, y] = hl.u16(sc[x, y][1] + rem[x, y] - 1)
    nr = F("rl_nruns"); nr[y] = sc[W - 1, y][0]
    est_in(c, E['W'], E['H']); est_out(rid, [x, y], E['W'], E['H']); est_out(ln, [x, y], E['W'], E['H']); est_out(nr, [y], E['H'])
    return [rid, ln, nr], [c]


# ============================================ signal ==========================================================

@spec("lpc_order8_levinson_durbin_python_unrolled_k_err_a_funcs_per_frame_autocorr_hlsum_select_guard_hann_f64_frames_hop_params",
      "linear prediction (LPC order 8) per frame: frames of a 1-D f32 signal at hop HOP (NF frames of N samples, all Params), Hann window in f64, autocorrelation r[k, f] (k 0..8) by an inline hl.sum over RDom(0, N) with select(n + k < N) and a clamped read, then Levinson-Durbin python-unrolled: 8 reflection Funcs k_m[f], 8 error Funcs, 8 coefficient Funcs a_m[i, f] defined by a select chain on i reading a_{m-1} at i and clamped m - i; outputs a_8[i, f] and the final error",
      {'NF': (1, 256), 'N': (16, 512), 'HOP': (1, 256)},
      outs=lambda v: [(F64, [9, v['NF']]), (F64, [v['NF']])],
      data=lambda v, r: [rnorm(r, ((v['NF'] - 1) * v['HOP'] + v['N'],))], tol=1e-6, target='B')
def lpc(S, E):
    sig = hl.ImageParam(F32, 1, "sig")
    n, f, k, i = V("n", "f", "k", "i")
    N, HOP = S['N'], S['HOP']
    P = 8
    win = F("lp_win"); win[n] = 0.5 - 0.5 * hl.cos(8.0 * hl.atan(hl.f64(1)) * hl.f64(n) / hl.f64(N - 1))  # 2 pi in f64 (math.pi would be an f32 constant)
    xw = F("lp_xw"); xw[n, f] = hl.f64(sig[f * HOP + n]) * win[n]
    rn = RD((0, N), name="rn")
    ac = F("lp_r"); ac[k, f] = hl.sum(hl.select(rn + k < N, xw[rn, f] * xw[hl.min(rn + k, N - 1), f], hl.f64(0)))
    err = F("lp_err0"); err[f] = ac[0, f] * (1.0 + 1e-9) + 1e-12
    a = F("lp_a0"); a[i, f] = hl.select(i == 0, hl.f64(1), hl.f64(0))
    for m in range(1, P + 1):
        s = ac[m, f]
        for j in range(1, m):
            s = s + a[j, f] * ac[m - j, f]
        km = F("lp_k%d" % m); km[f] = -s / err[f]
        an = F("lp_a%d" % m)
        an[i, f] = hl.select(i == 0, hl.f64(1), i == m, km[f], i < m, a[i, f] + km[f] * a[hl.clamp(m - i, 0, P), f], hl.f64(0))
        en = F("lp_err%d" % m); en[f] = err[f] * (1.0 - km[f] * km[f])
        a, err = an, en
    est_in(sig, (E['NF'] - 1) * E['HOP'] + E['N']); est_out(a, [i, f], P + 1, E['NF']); est_out(err, [f], E['NF'])
    return [a, err], [sig]


@spec("compressor_interleaved_c_t_linked_detector_hlmaximum_over_c_then_1d_serial_envelope_scan_attack_release_select_then_gain_db_thr_ratio_params_f32",
      "dynamic range compressor on interleaved audio x[c, t] (C channels a Param, c innermost): stereo-linked detector max_c |x| by an inline hl.maximum over RDom(0, C), a 1-D serial envelope follower scan over RDom(0, T) with no pure var whose coefficient is selected by attack (d > prev) or release, the previous value read through select(t > 0); gain in dB min(0, (THR - 20 log10 env)(1 - 1/RATIO)) (THR, RATIO Params) applied to every channel by pow(10, g/20)",
      {'T': (1, 262144), 'C': (1, 8), 'THR': (-60, 0), 'RAT': (1, 20)},
      outs=lambda v: [(F32, [v['C'], v['T']])],
      data=lambda v, r: [fa((0.5 * r.standard_normal((v['C'], v['T'])) * np.sin(np.arange(v['T']) / 300.0)[None, :] ** 2).astype(np.float32))],
      tol=1e-4, target='A')
def compressor(S, E):
    xin = hl.ImageParam(F32, 2, "x")
    c, t = V("c", "t")
    rc = RD((0, S['C']), name="rc")
    det = F("cp_det"); det[t] = hl.maximum(hl.abs(xin[rc, t]))
    env = F("cp_env"); env[t] = hl.f32(0)
    rt = RD((0, S['T']), name="rt")
    prev = hl.select(rt > 0, env[hl.max(rt - 1, 0)], 0.0)
    dd = det[rt]
    env[rt] = prev + hl.select(dd > prev, 0.3, 0.002) * (dd - prev)
    thr = fE(S['THR']); rat = fE(S['RAT'])
    gdb = F("cp_gain_db"); gdb[t] = hl.min(0.0, (thr - 20.0 * hl.log(hl.max(env[t], 1e-6)) / math.log(10.0)) * (1.0 - 1.0 / rat))
    out = F("cp_out"); out[c, t] = xin[c, t] * hl.exp(gdb[t] * (math.log(10.0) / 20.0))
    est_in(xin, E['C'], E['T']); est_out(out, [c, t], E['C'], E['T'])
    return [out], [xin]


@spec("savitzky_golay_quadratic_smooth_and_first_derivative_closed_form_coeff_funcs_negative_domain_half_window_param_batch_innermost_b_t_mirror_interior",
      "Savitzky-Golay filtering along t of a batch-innermost signal x[b, t] (b contiguous): closed-form quadratic-fit smoothing coefficients cs[i] = 3(3m^2+3m-1-5i^2)/((4m^2-1)(2m+3)) and derivative coefficients cd[i] = 3i/(m(m+1)(2m+1)) as Funcs over the negative domain i in [-M, M] (M a Param); smooth by an inline hl.sum, derivative by an explicit update over RDom; both read the same mirror_interior wrapper; two outputs",
      {'NB': (1, 256), 'T': (1, 4096), 'M': (1, 12)},
      outs=lambda v: [(F32, [v['NB'], v['T']]), (F32, [v['NB'], v['T']])],
      data=lambda v, r: [rnorm(r, (v['NB'], v['T']))], tol=1e-4, target='B')
def savgol(S, E):
    xin = hl.ImageParam(F32, 2, "x")
    b, t, i = V("b", "t", "i")
    M = S['M']; m = fE(M)
    e = BF.mirror_interior(xin, [(0, S['NB']), (0, S['T'])])
    cs = F("sg_cs"); cs[i] = 3.0 * (3.0 * m * m + 3.0 * m - 1.0 - 5.0 * hl.f32(i * i)) / ((4.0 * m * m - 1.0) * (2.0 * m + 3.0))
    cd = F("sg_cd"); cd[i] = 3.0 * hl.f32(i) / (m * (m + 1.0) * (2.0 * m + 1.0))
    r = RD((-M, 2 * M + 1), name="rsm")
    sm = F("sg_smooth"); sm[b, t] = hl.sum(cs[r] * e[b, t + r])
    r2 = RD((-M, 2 * M + 1), name="rdv")
    dv = F("sg_deriv"); dv[b, t] = hl.f32(0)
    dv[b, t] += cd[r2] * e[b, t + r2]
    est_in(xin, E['NB'], E['T']); est_out(sm, [b, t], E['NB'], E['T']); est_out(dv, [b, t], E['NB'], E['T'])
    return [sm, dv], [xin]


@spec("linear_resampler_rational_num_den_params_integer_phase_i32_divmod_two_tap_exact_rounding_interleaved_c_n_i16_output_extent_from_params",
      "linear-interpolation sample-rate converter with ratio NUM/DEN (Params): output n reads input position p = n*DEN/NUM split by integer / and % into index and phase, two taps of interleaved i16 audio x[c, i] (C channels a Param, c innermost) with the second tap clamped, exact integer rounding (a (NUM - ph) + b ph + NUM/2) / NUM; the output extent ((NIN-1) NUM / DEN + 1) is an expression of the Params",
      {'NIN': (2, 65536), 'C': (1, 8), 'NUM': (1, 64), 'DEN': (1, 64)},
      outs=lambda v: [(I16, [v['C'], ((v['NIN'] - 1) * v['NUM']) // v['DEN'] + 1])],
      data=lambda v, r: [randint(r, (v['C'], v['NIN']), -32768, 32767, np.int16)], target='A')
def resamp(S, E):
    xin = hl.ImageParam(I16, 2, "x")
    c, n = V("c", "n")
    NUM, DEN, NIN = S['NUM'], S['DEN'], S['NIN']
    p = n * DEN
    ix = F("rs_idx"); ix[n] = (hl.clamp(p / NUM, 0, NIN - 1), p % NUM)
    i0 = ix[n][0]; ph = ix[n][1]
    a = hl.i32(xin[c, i0]); b = hl.i32(xin[c, hl.min(i0 + 1, NIN - 1)])
    out = F("rs_out"); out[c, n] = hl.i16((a * (NUM - ph) + b * ph + D(NUM, 2)) / NUM)
    est_in(xin, E['C'], E['NIN']); est_out(out, [c, n], E['C'], D((E['NIN'] - 1) * E['NUM'], E['DEN']) + 1)
    return [out], [xin]


# ============================================ ML ==============================================================

@spec("group_norm_groups_param_cpg_param_stats_tuple_f64_update_3_rvars_x_y_c_in_group_g_times_cpg_plus_rz_then_affine_silu_x_y_c_n",
      "GroupNorm + SiLU on x[x, y, c, n] with C = G * CPG (G groups, CPG channels per group, both Params): ONE Tuple Func (sum, sum of squares) in f64 per (g, n) updated over RDom(x, y, cpg) reading channel g*CPG + r.z; normalized with the group of c = c / CPG, per-channel gamma / beta buffers, SiLU",
      {'W': (1, 128), 'H': (1, 128), 'G': (1, 8), 'CPG': (1, 16), 'N': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['G'] * v['CPG'], v['N']])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'], v['G'] * v['CPG'], v['N'])), rnorm(r, (v['G'] * v['CPG'],)), rnorm(r, (v['G'] * v['CPG'],))],
      tol=1e-4, target='A')
def groupnorm(S, E):
    xin = hl.ImageParam(F32, 4, "x"); gam = hl.ImageParam(F32, 1, "gamma"); bet = hl.ImageParam(F32, 1, "beta")
    x, y, c, n, g = V("x", "y", "c", "n", "g")
    W, H, CPG = S['W'], S['H'], S['CPG']
    st = F("gn_stats"); st[g, n] = (hl.f64(0), hl.f64(0))
    r = RD((0, W), (0, H), (0, CPG), name="rg")
    v = hl.f64(xin[r.x, r.y, g * CPG + r.z, n])
    st[g, n] = (st[g, n][0] + v, st[g, n][1] + v * v)
    cnt = hl.f64(W * H * CPG)
    mv = F("gn_mean_rstd")
    mu = st[g, n][0] / cnt
    mv[g, n] = (hl.f32(mu), hl.f32(1.0 / hl.sqrt(hl.max(st[g, n][1] / cnt - mu * mu, 0.0) + 1e-5)))
    gg = c / CPG
    z = (xin[x, y, c, n] - mv[gg, n][0]) * mv[gg, n][1] * gam[c] + bet[c]
    out = F("gn_out"); out[x, y, c, n] = z / (1.0 + hl.exp(-z))
    est_in(xin, E['W'], E['H'], E['G'] * E['CPG'], E['N']); est_in(gam, E['G'] * E['CPG']); est_in(bet, E['G'] * E['CPG'])
    est_out(out, [x, y, c, n], E['W'], E['H'], E['G'] * E['CPG'], E['N'])
    return [out], [xin, gam, bet]


@spec("sinkhorn_4_iters_gibbs_kernel_func_exp_cost_over_eps_param_alternating_hlsum_matvec_kv_and_ktu_scaled_plan_output_plus_0d_transport_cost",
      "entropic optimal transport by Sinkhorn: Gibbs kernel Func K[i, j] = exp(-C[i, j] / eps) (eps = EPS/100 a Param) read by 8 matvecs (4 unrolled iterations of u = (1/N) / (K v), v = (1/M) / (K^T u), inline hl.sum over i or j) and by the plan; outputs the plan scaled by N*M and the 0-D transport cost sum P * C",
      {'N': (1, 512), 'M': (1, 512), 'EPS': (5, 100)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [])],
      data=lambda v, r: [runif(r, (v['N'], v['M']))], tol=1e-4, target='B')
def sinkhorn(S, E):
    C = hl.ImageParam(F32, 2, "cost")
    i, j = V("i", "j")
    N, M = S['N'], S['M']
    eps = fE(S['EPS']) * 0.01
    K = F("sk_K"); K[i, j] = hl.exp(-C[i, j] / eps)
    v = F("sk_v0"); v[j] = hl.f32(1)
    for it in range(4):
        rj = RD((0, M), name="rj%d" % it)
        u = F("sk_u%d" % it); u[i] = (1.0 / fE(N)) / hl.sum(K[i, rj] * v[rj])
        ri = RD((0, N), name="ri%d" % it)
        vn = F("sk_v%d" % (it + 1)); vn[j] = (1.0 / fE(M)) / hl.sum(K[ri, j] * u[ri])
        v = vn
    P = F("sk_plan"); P[i, j] = u[i] * K[i, j] * v[j] * (fE(N) * fE(M))
    rc = RD((0, N), (0, M), name="rc")
    cost = F("sk_cost"); cost[()] = hl.sum(u[rc.x] * K[rc.x, rc.y] * v[rc.y] * C[rc.x, rc.y])
    est_in(C, E['N'], E['M']); est_out(P, [i, j], E['N'], E['M'])
    return [P, cost], [C]


@spec("roi_align_boxes_buffer_bins_param_2x2_samples_inline_hlsum_bilinear_clamped_gather_channels_innermost_c_x_y_out_c_bx_by_roi",
      "RoIAlign: per box (x0, y0, x1, y1 read from an f32 buffer [4, NR]) and bin (PB x PB bins, a Param) the mean of 2x2 bilinear samples, written as an inline hl.sum over RDom(0..2, 0..2); sample coordinates clamped to the feature map, floor to int, clamped +1 neighbour, channels innermost features [c, x, y] and output [c, bx, by, roi]",
      {'CH': (1, 64), 'FW': (1, 128), 'FH': (1, 128), 'NR': (1, 32), 'PB': (1, 7)},
      outs=lambda v: [(F32, [v['CH'], v['PB'], v['PB'], v['NR']])],
      data=lambda v, r: [rnorm(r, (v['CH'], v['FW'], v['FH'])), rois_data(r, v['NR'], v['FW'], v['FH'])], tol=1e-4, target='A')
def roialign(S, E):
    feat = hl.ImageParam(F32, 3, "feat"); rois = hl.ImageParam(F32, 2, "rois")
    c, bx, by, ro = V("c", "bx", "by", "ro")
    FW, FH, PB = S['FW'], S['FH'], S['PB']
    x0, y0, x1, y1 = rois[0, ro], rois[1, ro], rois[2, ro], rois[3, ro]
    bw = (x1 - x0) / fE(PB); bh = (y1 - y0) / fE(PB)
    rs = RD((0, 2), (0, 2), name="rsmp")
    px = hl.clamp(x0 + (hl.f32(bx) + (hl.f32(rs.x) + 0.5) * 0.5) * bw, 0.0, fE(FW - 1))
    py = hl.clamp(y0 + (hl.f32(by) + (hl.f32(rs.y) + 0.5) * 0.5) * bh, 0.0, fE(FH - 1))
    fx = hl.floor(px); fy = hl.floor(py)
    ix = hl.clamp(hl.i32(fx), 0, FW - 1); iy = hl.clamp(hl.i32(fy), 0, FH - 1)
    ix1 = hl.min(ix + 1, FW - 1); iy1 = hl.min(iy + 1, FH - 1)
    ax = px - fx; ay = py - fy
    val = (feat[c, ix, iy] * (1 - ax) + feat[c, ix1, iy] * ax) * (1 - ay) + (feat[c, ix, iy1] * (1 - ax) + feat[c, ix1, iy1] * ax) * ay
    out = F("ra_out"); out[c, bx, by, ro] = hl.sum(val) * 0.25
    est_in(feat, E['CH'], E['FW'], E['FH']); est_in(rois, 4, E['NR'])
    est_out(out, [c, bx, by, ro], E['CH'], E['PB'], E['PB'], E['NR'])
    return [out], [feat, rois]


@spec("alibi_causal_attention_heads_param_slope_pow2_func_of_h_bias_minus_slope_times_i_minus_j_select_masked_exp_hlmaximum_hlsum_d_inner_q_d_i_h",
      "causal attention with ALiBi position bias: q, k, v as [d, t, h] (d innermost, NH heads a Param), per-head slope Func 2^(-8 (h+1) / NH), scores s[j, i, h] = q.k / sqrt(D) - slope (i - j) by an inline hl.sum, row max by hl.maximum over j with select(j <= i, s, -1e30), probabilities select(j <= i, exp(s - max), 0) in a Func, normalizer hl.sum, context hl.sum over j then divided",
      {'D': (1, 64), 'T': (1, 256), 'NH': (1, 8)},
      outs=lambda v: [(F32, [v['D'], v['T'], v['NH']])],
      data=lambda v, r: [rnorm(r, (v['D'], v['T'], v['NH'])), rnorm(r, (v['D'], v['T'], v['NH'])), rnorm(r, (v['D'], v['T'], v['NH']))],
      tol=1e-4, target='B')
def alibi(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 3, "k"); vv = hl.ImageParam(F32, 3, "v")
    d, i, j, h = V("d", "i", "j", "h")
    Dd, T, NH = S['D'], S['T'], S['NH']
    slope = F("al_slope"); slope[h] = hl.pow(2.0, -8.0 * hl.f32(h + 1) / fE(NH))
    rd = RD((0, Dd), name="rd")
    sc = F("al_scores"); sc[j, i, h] = hl.sum(q[rd, i, h] * k[rd, j, h]) / hl.sqrt(fE(Dd)) - slope[h] * hl.f32(i - j)
    rj = RD((0, T), name="rj")
    mx = F("al_max"); mx[i, h] = hl.maximum(hl.select(rj <= i, sc[rj, i, h], -1e30))
    p = F("al_p"); p[j, i, h] = hl.select(j <= i, hl.exp(sc[j, i, h] - mx[i, h]), 0.0)
    rj2 = RD((0, T), name="rj2")
    den = F("al_den"); den[i, h] = hl.sum(p[rj2, i, h])
    rj3 = RD((0, T), name="rj3")
    out = F("al_out"); out[d, i, h] = hl.sum(p[rj3, i, h] * vv[d, rj3, h]) / den[i, h]
    for a in (q, k, vv):
        est_in(a, E['D'], E['T'], E['NH'])
    est_out(out, [d, i, h], E['D'], E['T'], E['NH'])
    return [out], [q, k, vv]


@spec("weight_standardized_conv3x3_two_pass_mean_then_centered_var_per_co_hlsum_3_rvars_standardized_weight_func_conv_constant_exterior_relu_x_y_ci_planar",
      "weight-standardized 3x3 conv (as in BiT / GroupNorm+WS nets): per output channel mean and then centred variance of the weights wt[kx, ky, ci, co] over (kx, ky, ci) by inline hl.sum over 3-D RDoms, a standardized-weight Func, then conv3x3 over planar input [x, y, ci] through constant_exterior(0) with an inline hl.sum over (kx, ky, ci), ReLU; output [x, y, co]",
      {'W': (1, 64), 'H': (1, 64), 'CI': (1, 32), 'CO': (1, 64)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['CO']])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'], v['CI'])), rnorm(r, (3, 3, v['CI'], v['CO']))], tol=1e-4, target='A')
def wsconv(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); wt = hl.ImageParam(F32, 4, "wt")
    x, y, co, kx, ky, ci = V("x", "y", "co", "kx", "ky", "ci")
    CI = S['CI']
    cnt = fE(9 * CI)
    r1 = RD((0, 3), (0, 3), (0, CI), name="r1")
    mu = F("ws_mean"); mu[co] = hl.sum(wt[r1.x, r1.y, r1.z, co]) / cnt
    r2 = RD((0, 3), (0, 3), (0, CI), name="r2")
    var = F("ws_var"); var[co] = hl.sum(sq(wt[r2.x, r2.y, r2.z, co] - mu[co])) / cnt
    wn = F("ws_w"); wn[kx, ky, ci, co] = (wt[kx, ky, ci, co] - mu[co]) / hl.sqrt(var[co] + 1e-5)
    e = BF.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H']), (0, CI)])
    r = RD((0, 3), (0, 3), (0, CI), name="rc")
    out = F("ws_out"); out[x, y, co] = hl.max(hl.sum(wn[r.x, r.y, r.z, co] * e[x + r.x - 1, y + r.y - 1, r.z]), 0.0)
    est_in(inp, E['W'], E['H'], E['CI']); est_in(wt, 3, 3, E['CI'], E['CO']); est_out(out, [x, y, co], E['W'], E['H'], E['CO'])
    return [out], [inp, wt]


@spec("hashing_trick_char_trigram_fnv1a_u32_wraparound_mod_buckets_param_bucket_ids_output_embedding_bag_gather_sum_then_l2_normalize_over_d",
      "text featurization by the hashing trick: FNV-1a (u32 wrap-around multiply) of every byte trigram of u8 texts [L, B] (L, B Params), bucket = h % NBK (NBK a Param), embedding bag sum over the L-2 trigrams of rows gathered from an f32 table [D, NBK] at the data-dependent bucket, then L2 normalization over d by hl.sum; outputs the i32 bucket ids [L-2, B] and the normalized bags [D, B]",
      {'L': (3, 128), 'B': (1, 512), 'NBK': (1, 4096), 'D': (1, 64)},
      outs=lambda v: [(I32, [v['L'] - 2, v['B']]), (F32, [v['D'], v['B']])],
      data=lambda v, r: [randint(r, (v['L'], v['B']), 32, 126, np.uint8), rnorm(r, (v['D'], v['NBK']))], tol=1e-4, target='B')
def hashtrick(S, E):
    txt = hl.ImageParam(U8, 2, "txt"); emb = hl.ImageParam(F32, 2, "emb")
    t, b, d = V("t", "b", "d")
    L, NBK, Dd = S['L'], S['NBK'], S['D']
    h = hl.u32(2166136261)
    for o in range(3):
        h = (h ^ hl.u32(txt[t + o, b])) * hl.u32(16777619)
    bk = F("ht_bucket"); bk[t, b] = hl.i32(h % hl.u32(NBK))
    rt = RD((0, L - 2), name="rt")
    bag = F("ht_bag"); bag[d, b] = hl.f32(0)
    bag[d, b] += emb[d, hl.clamp(bk[rt, b], 0, NBK - 1)]
    rd = RD((0, Dd), name="rd")
    nrm = F("ht_norm"); nrm[b] = hl.sqrt(hl.sum(sq(bag[rd, b])))
    out = F("ht_out"); out[d, b] = bag[d, b] / hl.max(nrm[b], 1e-6)
    est_in(txt, E['L'], E['B']); est_in(emb, E['D'], E['NBK'])
    est_out(bk, [t, b], E['L'] - 2, E['B']); est_out(out, [d, b], E['D'], E['B'])
    return [bk, out], [txt, emb]


@spec("cosine_similarity_matrix_norm_funcs_reused_hlsum_gemm_tn_output_also_read_by_tuple_argmax_update_select_per_column_integer_valued_f32",
      "cosine-similarity retrieval: row norms of A [D, N] and B [D, M] (hl.sum Funcs, each read by every output element), sim[m, n] = A.B / (|a| |b| + 1e-8) as an inline hl.sum over d (an output, m innermost), and per query n the best m by an explicit Tuple (value, index) update over RDom(0, M) with strict > (first on ties) — the contraction output is read by another reduction; integer-valued f32 data so that the similarities and ties are exact",
      {'D': (1, 128), 'N': (1, 512), 'M': (1, 512)},
      outs=lambda v: [(F32, [v['M'], v['N']]), (I32, [v['N']])],
      data=lambda v, r: [fa(r.integers(-3, 4, (v['D'], v['N'])).astype(np.float32)), fa(r.integers(-3, 4, (v['D'], v['M'])).astype(np.float32))],
      tol=1e-5, target='B')
def cossim(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    m, n = V("m", "n")
    Dd = S['D']
    r1 = RD((0, Dd), name="r1"); na = F("cs_na"); na[n] = hl.sqrt(hl.sum(sq(A[r1, n])))
    r2 = RD((0, Dd), name="r2"); nb = F("cs_nb"); nb[m] = hl.sqrt(hl.sum(sq(B[r2, m])))
    rd = RD((0, Dd), name="rd")
    sim = F("cs_sim"); sim[m, n] = hl.sum(A[rd, n] * B[rd, m]) / (na[n] * nb[m] + 1e-8)
    best = F("cs_best"); best[n] = (hl.f32(-2.0), hl.i32(0))
    rm = RD((0, S['M']), name="rm")
    gt = sim[rm, n] > best[n][0]
    best[n] = (hl.select(gt, sim[rm, n], best[n][0]), hl.select(gt, rm, best[n][1]))
    bi = F("cs_argmax"); bi[n] = best[n][1]
    est_in(A, E['D'], E['N']); est_in(B, E['D'], E['M']); est_out(sim, [m, n], E['M'], E['N']); est_out(bi, [n], E['N'])
    return [sim, bi], [A, B]


# ============================================ numerics ========================================================

@spec("nbody_softened_gravity_aos_4_by_n_pos_mass_tuple_3_acc_update_over_j_then_kick_drift_mux_k_two_outputs_dt_param",
      "N-body step: positions+masses AoS [4, N], velocities [3, N]; acceleration as ONE Tuple Func (ax, ay, az) updated over RDom(0, N) with Plummer softening (eps^2 = 0.01, self term zero by dx = 0); kick v' = v + dt a (component chosen by a select on k) and drift p' = p + dt v' (mass passed through) with dt = DT/1000 a Param; outputs p' [4, N] and v' [3, N]",
      {'N': (1, 2048), 'DT': (1, 100)},
      outs=lambda v: [(F32, [4, v['N']]), (F32, [3, v['N']])],
      data=lambda v, r: [fa(np.concatenate([r.standard_normal((3, v['N'])), r.uniform(0.5, 1.5, (1, v['N']))], 0).astype(np.float32)), rnorm(r, (3, v['N']))],
      tol=1e-4, target='B')
def nbody(S, E):
    pos = hl.ImageParam(F32, 2, "pos"); vel = hl.ImageParam(F32, 2, "vel")
    i, k = V("i", "k")
    dt = fE(S['DT']) * 0.001
    acc = F("nb_acc"); acc[i] = (hl.f32(0), hl.f32(0), hl.f32(0))
    rj = RD((0, S['N']), name="rj")
    dx = pos[0, rj] - pos[0, i]; dy = pos[1, rj] - pos[1, i]; dz = pos[2, rj] - pos[2, i]
    r2 = dx * dx + dy * dy + dz * dz + 0.01
    s = pos[3, rj] / (r2 * hl.sqrt(r2))
    acc[i] = (acc[i][0] + dx * s, acc[i][1] + dy * s, acc[i][2] + dz * s)
    vn = F("nb_vel"); vn[k, i] = vel[k, i] + dt * hl.select(k == 0, acc[i][0], k == 1, acc[i][1], acc[i][2])
    pn = F("nb_pos"); pn[k, i] = hl.select(k < 3, pos[k, i] + dt * vn[hl.min(k, 2), i], pos[k, i])
    est_in(pos, 4, E['N']); est_in(vel, 3, E['N']); est_out(pn, [k, i], 4, E['N']); est_out(vn, [k, i], 3, E['N'])
    return [pn, vn], [pos, vel]


@spec("red_black_gauss_seidel_2_sweeps_4_half_step_funcs_parity_select_x_plus_y_mod_2_constant_exterior_dirichlet_f64_plus_0d_max_residual",
      "red-black Gauss-Seidel for the 5-point Poisson problem in f64: 2 sweeps written as 4 half-step Funcs, each a select on the parity (x + y) % 2 between the relaxed value (neighbours of the previous half step through constant_exterior(0), the homogeneous Dirichlet boundary) and the unchanged one; outputs u and the 0-D max |residual| by hl.maximum",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F64, [v['W'], v['H']]), (F64, [])],
      data=lambda v, r: [fa(r.standard_normal((v['W'], v['H']))), fa(r.standard_normal((v['W'], v['H'])))], tol=1e-9, target='A')
def redblack(S, E):
    u0 = hl.ImageParam(F64, 2, "u0"); f = hl.ImageParam(F64, 2, "f")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]
    u = F("rb_u0"); u[x, y] = u0[x, y]
    for hs in range(4):
        e = BF.constant_exterior(u, hl.f64(0), bnd)
        nb = e[x - 1, y] + e[x + 1, y] + e[x, y - 1] + e[x, y + 1]
        un = F("rb_u%d" % (hs + 1)); un[x, y] = hl.select((x + y) % 2 == hs % 2, 0.25 * (nb + f[x, y]), u[x, y])
        u = un
    e = BF.constant_exterior(u, hl.f64(0), bnd)
    rr = RD((0, S['W']), (0, S['H']), name="rr")
    res = f[rr.x, rr.y] + e[rr.x - 1, rr.y] + e[rr.x + 1, rr.y] + e[rr.x, rr.y - 1] + e[rr.x, rr.y + 1] - 4.0 * e[rr.x, rr.y]
    mr = F("rb_resid"); mr[()] = hl.maximum(hl.abs(res))
    est_in(u0, E['W'], E['H']); est_in(f, E['W'], E['H']); est_out(u, [x, y], E['W'], E['H'])
    return [u, mr], [u0, f]


@spec("game_of_life_4_generations_unrolled_torus_repeat_image_u8_neighbour_count_select_rules_plus_0d_population_u32",
      "Conway's game of life on a torus: 4 unrolled generations, each reading the previous through repeat_image (wrap-around), u8 8-neighbour count, birth/survival select; outputs the final u8 grid and its 0-D u32 population by an update over a 2-D RDom",
      {'W': (1, 1024), 'H': (1, 1024)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U32, [])],
      data=lambda v, r: [fa((r.random((v['W'], v['H'])) < 0.3).astype(np.uint8))], target='A')
def life(S, E):
    g0 = hl.ImageParam(U8, 2, "g0")
    x, y = V("x", "y")
    bnd = [(0, S['W']), (0, S['H'])]
    g = F("gl_g0"); g[x, y] = g0[x, y]
    for it in range(4):
        e = BF.repeat_image(g, bnd)
        cnt = hl.u8(0)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx or dy:
                    cnt = cnt + e[x + dx, y + dy]
        gn = F("gl_g%d" % (it + 1)); gn[x, y] = hl.select((cnt == 3) | ((g[x, y] == 1) & (cnt == 2)), hl.u8(1), hl.u8(0))
        g = gn
    rp = RD((0, S['W']), (0, S['H']), name="rp")
    pop = F("gl_pop"); pop[()] = hl.u32(0)
    pop[()] += hl.u32(g[rp.x, rp.y])
    est_in(g0, E['W'], E['H']); est_out(g, [x, y], E['W'], E['H'])
    return [g, pop], [g0]


@spec("rk4_lorenz_batch_innermost_time_scan_update_over_rdom_t_tuple_xyz_state_f64_inline_stages_dt_param_trajectory_mux_k_b_t",
      "RK4 integration of the Lorenz system (sigma 10, rho 28, beta 8/3) for a batch of initial conditions: ONE f64 Tuple Func st[b, t] = (x, y, z), pure def from the initial-state buffer [3, B], updated over RDom(1..T-1) with b pure (batch innermost) and all 4 RK stages as inline expressions of st[b, t-1]; dt = DT/1000 a Param; output the trajectory [3, B, T] by a mux on k",
      {'B': (1, 1024), 'T': (1, 256), 'DT': (1, 20)},
      outs=lambda v: [(F64, [3, v['B'], v['T']])],
      data=lambda v, r: [fa(np.stack([r.uniform(-15, 15, v['B']), r.uniform(-20, 20, v['B']), r.uniform(5, 40, v['B'])], 0))],
      tol=1e-6, target='B')
def rk4(S, E):
    x0 = hl.ImageParam(F64, 2, "x0")
    b, t, k = V("b", "t", "k")
    dt = hl.f64(S['DT']) / 1000.0  # (python floats become f32 constants: 0.001 would be f32-rounded)
    st = F("rk_state"); st[b, t] = (x0[0, b], x0[1, b], x0[2, b])
    rt = RD((1, S['T'] - 1), name="rt")
    s = st[b, rt - 1]

    def fl(X, Y, Z):
        return (10.0 * (Y - X), X * (28.0 - Z) - Y, X * Y - (hl.f64(8) / 3.0) * Z)
    X, Y, Z = s[0], s[1], s[2]
    k1 = fl(X, Y, Z)
    k2 = fl(X + 0.5 * dt * k1[0], Y + 0.5 * dt * k1[1], Z + 0.5 * dt * k1[2])
    k3 = fl(X + 0.5 * dt * k2[0], Y + 0.5 * dt * k2[1], Z + 0.5 * dt * k2[2])
    k4 = fl(X + dt * k3[0], Y + dt * k3[1], Z + dt * k3[2])
    st[b, rt] = tuple(P + dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4) for P, a1, a2, a3, a4 in zip((X, Y, Z), k1, k2, k3, k4))
    tr = F("rk_traj"); tr[k, b, t] = hl.mux(k, [st[b, t][0], st[b, t][1], st[b, t][2]])
    est_in(x0, 3, E['B']); est_out(tr, [k, b, t], 3, E['B'], E['T'])
    return [tr], [x0]
