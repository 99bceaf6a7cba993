"""Red-team round 6 pipelines for Diet: styles not used by redteam_, redteam3_fixes_, redteam4_contractions_
or redteam5_. Same spec format as ../redteam3_fixes_2026-11-30/pipes.py: name, style, ranges {P: (lo, hi)},
build(S, E) -> (outputs, inputs), data(v, rng) -> numpy arrays (Halide dim order, Fortran layout),
outs(v) -> list of (hl type, shape[, mins]), optional tests/times, tol.
S: dict of ranged hl.Param; E: what the estimates use (the Params for Diet, ints for the others)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

F16, F32, F64 = hl.Float(16), hl.Float(32), hl.Float(64)
U8, U16, U32, U64 = hl.UInt(8), hl.UInt(16), hl.UInt(32), hl.UInt(64)
I16, I32, I64 = hl.Int(16), hl.Int(32), hl.Int(64)
BF = hl.BoundaryConditions

# Round 3's helpers (its module is also named pipes: loaded under another name).
_spec3 = importlib.util.spec_from_file_location(
    "pipes_round3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "redteam3_fixes_2026-11-30", "pipes.py"))
_round3 = importlib.util.module_from_spec(_spec3)
_spec3.loader.exec_module(_round3)
V, est_in, est_out, fa = _round3.V, _round3.est_in, _round3.est_out, _round3.fa
SPECS, spec, CREATED, F = _round3.registry()



def rimg(rng, shape, dtype=np.float32):
    if dtype in (np.float32, np.float64, np.float16):
        return fa(rng.standard_normal(shape).astype(dtype))
    info = np.iinfo(dtype)
    return fa(rng.integers(info.min, info.max + 1, size=shape).astype(dtype))


def runif(rng, shape, lo=0.0, hi=1.0):
    return fa(rng.uniform(lo, hi, size=shape).astype(np.float32))


WH = {'W': (1, 800), 'H': (1, 600)}


# 1 ---------------------------------------------------------------------------------------------
@spec("lut3d_trilinear", "3-D colour LUT (33^3 x 3 table ImageParam lut[c,r,g,b]), Tuple coord Func (i32 cell, f32 frac), 8-corner trilinear via nested hl.lerp",
      WH, outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [runif(r, (v['W'], v['H'], 3), -0.1, 1.1), runif(r, (3, 33, 33, 33))], tol=1e-4)
def lut3d(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); lut = hl.ImageParam(F32, 4, "lut")
    x, y, c, k = V("x", "y", "c", "k")
    cd = F("l3_coord")
    s = hl.clamp(inp[x, y, k], 0.0, 1.0) * 32.0
    b = hl.clamp(hl.i32(hl.floor(s)), 0, 31)
    cd[x, y, k] = (b, s - hl.f32(b))
    R, G, B = cd[x, y, 0], cd[x, y, 1], cd[x, y, 2]

    def L(dr, dg, db):
        return lut[c, R[0] + dr, G[0] + dg, B[0] + db]
    o = F("lut3d")
    o[x, y, c] = hl.lerp(hl.lerp(hl.lerp(L(0, 0, 0), L(1, 0, 0), R[1]), hl.lerp(L(0, 1, 0), L(1, 1, 0), R[1]), G[1]),
                         hl.lerp(hl.lerp(L(0, 0, 1), L(1, 0, 1), R[1]), hl.lerp(L(0, 1, 1), L(1, 1, 1), R[1]), G[1]), B[1])
    est_in(inp, E['W'], E['H'], 3); est_in(lut, 3, 33, 33, 33); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [inp, lut]


# 2 ---------------------------------------------------------------------------------------------
@spec("affine_warp_fparams", "affine warp: 2x3 matrix as six unranged float Params, bilinear (hl.lerp) over constant_exterior input, out size OW,OH ranged independently of W,H",
      {'W': (1, 500), 'H': (1, 400), 'OW': (1, 600), 'OH': (1, 500)},
      outs=lambda v: [(F32, [v['OW'], v['OH']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def affine(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    m = [hl.Param(F32, "m%d" % i, val) for i, val in enumerate([0.7, -0.35, 3.25, 0.4, 0.8, -6.5])]
    e = BF.constant_exterior(inp, 0.0)
    co = F("aw_coord")
    co[x, y] = (m[0] * hl.f32(x) + m[1] * hl.f32(y) + m[2], m[3] * hl.f32(x) + m[4] * hl.f32(y) + m[5])
    sx, sy = co[x, y][0], co[x, y][1]
    ix, iy = hl.i32(hl.floor(sx)), hl.i32(hl.floor(sy))
    fx, fy = sx - hl.floor(sx), sy - hl.floor(sy)
    o = F("affine_warp")
    o[x, y] = hl.lerp(hl.lerp(e[ix, iy], e[ix + 1, iy], fx), hl.lerp(e[ix, iy + 1], e[ix + 1, iy + 1], fx), fy)
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [inp]


# 3 ---------------------------------------------------------------------------------------------
@spec("horner_coeff_buffer", "polynomial by Horner over a coefficient ImageParam: update p = p*x + c[D-1-r] with RDom(0,D), D ranged, 1-D N up to 1e6",
      {'N': (1, 1000000), 'D': (1, 16)},
      outs=lambda v: [(F32, [v['N']])],
      data=lambda v, r: [runif(r, (v['N'],), -1.0, 1.0), runif(r, (v['D'],), -1.0, 1.0)], tol=1e-4)
def horner(S, E):
    xs = hl.ImageParam(F32, 1, "xs"); cf = hl.ImageParam(F32, 1, "cf")
    i, = V("i")
    p = F("horner")
    p[i] = 0.0
    r = hl.RDom([hl.Range(0, S['D'])], "r")
    p[i] = p[i] * xs[i] + cf[S['D'] - 1 - r]
    est_in(xs, E['N']); est_in(cf, E['D']); est_out(p, [i], E['N'])
    return [p], [xs, cf]


# 4 ---------------------------------------------------------------------------------------------
@spec("welford_tuple_cols", "Welford running (count, mean, M2) as a 3-Tuple update over RDom(0,H) per column, then standardize each pixel by its column stats",
      {'W': (1, 1000), 'H': (1, 500)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W']])],
      data=lambda v, r: [fa((r.standard_normal((v['W'], v['H'])) * 3 + 5).astype(np.float32))], tol=1e-3)
def welford(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    st = F("wf_stats")
    st[x] = (hl.f32(0), hl.f32(0), hl.f32(0))
    r = hl.RDom([hl.Range(0, S['H'])], "r")
    n0, m0, q0 = st[x][0], st[x][1], st[x][2]
    v = inp[x, r]
    n1 = n0 + 1.0
    d = v - m0
    m1 = m0 + d / n1
    st[x] = (n1, m1, q0 + d * (v - m1))
    o = F("wf_standardized")
    o[x, y] = (inp[x, y] - st[x][1]) / hl.sqrt(st[x][2] / st[x][0] + 1e-3)
    sd = F("wf_std")
    sd[x] = hl.sqrt(st[x][2] / st[x][0])
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H']); est_out(sd, [x], E['W'])
    return [o, sd], [inp]


# 5 ---------------------------------------------------------------------------------------------
def _u64c(v):
    return (hl.u64(v >> 32) << 32) | hl.u64(v & 0xFFFFFFFF)


@spec("hash_dither_u64_i64", "xor-shift u32 hash of (x,y,u32 seed Param) dither to u8, plus an order-dependent u64 LCG fold per row (wraps) and an i64 signed column sum: 3 outputs of 3 shapes",
      WH, outs=lambda v: [(U8, [v['W'], v['H']]), (U64, [v['H']]), (I64, [v['W']])],
      data=lambda v, r: [runif(r, (v['W'], v['H']))])
def hashdither(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    seed = hl.Param(U32, "seed", 12345)
    x, y = V("x", "y")
    h = F("hd_hash")
    a = (hl.u32(x) * hl.u32(0x9E3779B1 - (1 << 32)) if False else hl.u32(x) * (hl.u32(0x9E37) << 16 | hl.u32(0x79B1)))
    b = hl.u32(y) * (hl.u32(0x85EB) << 16 | hl.u32(0xCA77))
    h0 = a ^ b ^ seed
    h1 = h0 ^ (h0 >> 15)
    h2 = h1 * (hl.u32(0x2C1B) << 16 | hl.u32(0x3C6D))
    h[x, y] = h2 ^ (h2 >> 12)
    d = F("hd_dither")
    d[x, y] = hl.select(inp[x, y] > hl.f32(h[x, y] & hl.u32(0xFFFF)) / 65536.0, hl.u8(255), hl.u8(0))
    rx = hl.RDom([hl.Range(0, S['W'])], "rx")
    rowf = F("hd_rowfold")
    rowf[y] = hl.u64(0)
    rowf[y] = rowf[y] * _u64c(6364136223846793005) + hl.u64(h[rx, y])
    ry = hl.RDom([hl.Range(0, S['H'])], "ry")
    cols = F("hd_colsum")
    cols[x] = hl.i64(0)
    cols[x] += hl.i64(h[x, ry]) - hl.i64(1 << 31) + hl.i64(d[x, ry])
    est_in(inp, E['W'], E['H']); est_out(d, [x, y], E['W'], E['H']); est_out(rowf, [y], E['H']); est_out(cols, [x], E['W'])
    return [d, rowf, cols], [inp]


# 6 ---------------------------------------------------------------------------------------------
@spec("tile_mean_divmod_param", "per-tile mean with tile size TS a ranged Param: x/TS, x%TS on an output with negative mins (-3,-5), RDom(0,TS,0,TS) tile sums over repeat_edge; 2nd output checkerboard u8 of another size",
      {'W': (1, 700), 'H': (1, 500), 'TS': (1, 32)},
      outs=lambda v: [(F32, [v['W'], v['H']], [-3, -5]), (U8, [v['W'] + 7, v['H']], [2, -1])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def tilemean(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    TS = S['TS']
    e = BF.repeat_edge(inp)
    r = hl.RDom([hl.Range(0, TS), hl.Range(0, TS)], "r")
    ts = F("tm_tilesum")
    ts[x, y] = 0.0
    ts[x, y] += e[x * TS + r.x, y * TS + r.y]
    o = F("tm_out")
    o[x, y] = e[x, y] - ts[x / TS, y / TS] / hl.f32(TS * TS) + hl.f32(x % TS) * 0.01 - hl.f32(y % TS) * 0.02
    cb = F("tm_checker")
    cb[x, y] = hl.u8(((x / TS + y / TS) % 2) * 200 + (x % TS))
    est_in(inp, E['W'], E['H'])
    est_out(o, [x, y], E['W'], E['H'], mins=[-3, -5]); est_out(cb, [x, y], E['W'] + 7, E['H'], mins=[2, -1])
    return [o, cb], [inp]


# 7 ---------------------------------------------------------------------------------------------
@spec("four_boundaries_one_input", "one input read through repeat_edge (x-gradient), mirror_image (y-gradient), constant_exterior (cross blur) and mirror_interior (laplacian), combined",
      WH, outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4)
def fourbc(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    a = BF.repeat_edge(inp); b = BF.mirror_image(inp); c = BF.constant_exterior(inp, 0.0); d = BF.mirror_interior(inp)
    gx = F("fb_gx"); gx[x, y] = a[x + 1, y] - a[x - 1, y]
    gy = F("fb_gy"); gy[x, y] = b[x, y + 1] - b[x, y - 1]
    bl = F("fb_blur"); bl[x, y] = (c[x - 1, y] + c[x, y] + c[x + 1, y] + c[x, y - 1] + c[x, y + 1]) * 0.2
    lp = F("fb_lap"); lp[x, y] = 4.0 * d[x, y] - d[x - 1, y] - d[x + 1, y] - d[x, y - 1] - d[x, y + 1]
    o = F("fourbc")
    o[x, y] = hl.sqrt(gx[x, y] * gx[x, y] + gy[x, y] * gy[x, y]) + bl[x, y] - 0.1 * lp[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 8 ---------------------------------------------------------------------------------------------
@spec("separable_stage_dim_one_func", "5x5 separable gaussian in ONE Func f[x,y,s] with two RDom updates: f[x,y,0] += k[rx]*e[x+rx,y], then f[x,ry.y,1] += k[ry.x]*f[x,ry.y+ry.x,0] over RDom(-2..2 x 0..H) (stage index as a constant arg)",
      WH, outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4)
def stagesep(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y, i, s = V("x", "y", "i", "s")
    e = BF.repeat_edge(inp)
    k = F("ss_k")
    k[i] = hl.exp(-hl.f32(i * i) / 2.0) / hl.f32(2.5066)
    rx = hl.RDom([hl.Range(-2, 5)], "rx"); ry = hl.RDom([hl.Range(-2, 5), hl.Range(0, S['H'])], "ry")
    f = F("ss_f")
    f[x, y, s] = 0.0
    f[x, y, 0] += k[rx] * e[x + rx, y]
    f[x, ry.y, 1] += k[ry.x] * f[x, ry.y + ry.x, 0]
    o = F("ss_out")
    o[x, y] = f[x, y, 1]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 9 ---------------------------------------------------------------------------------------------
@spec("causal_softmax_select_ninf", "causal attention probs: q.k/8 scores, mask by select(j > i, -inf, s) (float -inf constant), hl.maximum / exp / hl.sum over RDom(0,T), heads outer",
      {'T': (1, 384), 'NH': (1, 8)},
      outs=lambda v: [(F32, [v['T'], v['T'], v['NH']])],
      data=lambda v, r: [rimg(r, (64, v['T'], v['NH'])), rimg(r, (64, v['T'], v['NH']))], tol=1e-4)
def causal(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 3, "k")
    j, i, h = V("j", "i", "h")
    rd = hl.RDom([hl.Range(0, 64)], "rd")
    sc = F("cs_scores")
    sc[j, i, h] = hl.select(j > i, hl.f32(float('-inf')), hl.sum(q[rd, i, h] * k[rd, j, h]) * 0.125)
    rt = hl.RDom([hl.Range(0, S['T'])], "rt")
    mx = F("cs_max"); mx[i, h] = hl.maximum(sc[rt, i, h])
    ex = F("cs_exp"); ex[j, i, h] = hl.exp(sc[j, i, h] - mx[i, h])
    sm = F("cs_sum"); sm[i, h] = hl.sum(ex[rt, i, h])
    o = F("causal_probs"); o[j, i, h] = ex[j, i, h] / sm[i, h]
    est_in(q, 64, E['T'], E['NH']); est_in(k, 64, E['T'], E['NH']); est_out(o, [j, i, h], E['T'], E['T'], E['NH'])
    return [o], [q, k]


# 10 --------------------------------------------------------------------------------------------
@spec("rnn_scan_inner_matmul", "RNN: pre-activation a[j,t,b] = x + sum_k W[k,j]*tanh(a[k,t-1,b]) as ONE update over a 3-D RDom (k inner, j, t outer), t=-1 read from the pure def; out = tanh(a)",
      {'T': (1, 200), 'B': (1, 16)},
      outs=lambda v: [(F32, [32, v['T'], v['B']])],
      data=lambda v, r: [rimg(r, (32, v['T'], v['B'])), fa((r.standard_normal((32, 32)) * 0.3).astype(np.float32))], tol=1e-4)
def rnn(S, E):
    xin = hl.ImageParam(F32, 3, "xin"); Wm = hl.ImageParam(F32, 2, "Wm")
    j, t, b = V("j", "t", "b")
    a = F("rnn_pre")
    a[j, t, b] = hl.select(t >= 0, xin[j, hl.max(t, 0), b], 0.0)
    r = hl.RDom([hl.Range(0, 32), hl.Range(0, 32), hl.Range(0, S['T'])], "r")
    a[r.y, r.z, b] = a[r.y, r.z, b] + Wm[r.x, r.y] * hl.tanh(a[r.x, r.z - 1, b])
    o = F("rnn_h"); o[j, t, b] = hl.tanh(a[j, t, b])
    est_in(xin, 32, E['T'], E['B']); est_in(Wm, 32, 32); est_out(o, [j, t, b], 32, E['T'], E['B'])
    return [o], [xin, Wm]


# 11 --------------------------------------------------------------------------------------------
@spec("otsu_threshold", "Otsu: u8 histogram scatter, Tuple prefix scan (w0, mu0) over 256 bins, between-class variance, hl.argmax -> 0-D threshold output + binarized image output",
      WH, outs=lambda v: [(U8, [v['W'], v['H']]), (I32, [])],
      data=lambda v, r: [fa(np.clip(np.where(r.random((v['W'], v['H'])) < 0.4, r.normal(60, 20, (v['W'], v['H'])), r.normal(170, 25, (v['W'], v['H']))), 0, 255).astype(np.uint8))])
def otsu(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y, i = V("x", "y", "i")
    r = hl.RDom([hl.Range(0, S['W']), hl.Range(0, S['H'])], "r")
    hist = F("ot_hist"); hist[i] = 0
    hist[hl.i32(inp[r.x, r.y])] += 1
    cum = F("ot_cum")
    cum[i] = (hl.f32(hist[i]), hl.f32(hist[i] * i))
    rb = hl.RDom([hl.Range(1, 255)], "rb")
    cum[rb] = (cum[rb - 1][0] + hl.f32(hist[rb]), cum[rb - 1][1] + hl.f32(hist[rb] * rb))
    N = hl.f32(S['W'] * S['H'])
    w0, m0 = cum[i][0], cum[i][1]
    muT = cum[255][1]
    sb = F("ot_sb")
    den = w0 * (N - w0)
    sb[i] = hl.select(den > 0.0, (muT * w0 / N - m0) * (muT * w0 / N - m0) / hl.max(den, 1.0), 0.0)
    ra = hl.RDom([hl.Range(0, 256)], "ra")
    thr = F("ot_thr")
    thr[()] = hl.argmax(sb[ra])[0]
    o = F("ot_binary")
    o[x, y] = hl.select(hl.i32(inp[x, y]) > thr[()], hl.u8(255), hl.u8(0))
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o, thr], [inp]


# 12 --------------------------------------------------------------------------------------------
@spec("suffix_max_prefix_min_outer", "reversed scan on the OUTER dim: suffix max over y via index H-2-r, forward prefix min over y; (4, W, H) with c=4 innermost, out = smax - pmin",
      {'W': (1, 500), 'H': (1, 400)},
      outs=lambda v: [(F32, [4, v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (4, v['W'], v['H']))])
def suffixmax(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    c, x, y = V("c", "x", "y")
    H = S['H']
    sm = F("sp_smax"); sm[c, x, y] = inp[c, x, y]
    r = hl.RDom([hl.Range(0, H - 1)], "r")
    yy = H - 2 - r
    sm[c, x, yy] = hl.max(sm[c, x, yy], sm[c, x, yy + 1])
    pm = F("sp_pmin"); pm[c, x, y] = inp[c, x, y]
    r2 = hl.RDom([hl.Range(1, H - 1)], "r2")
    pm[c, x, r2] = hl.min(pm[c, x, r2], pm[c, x, r2 - 1])
    o = F("sp_out"); o[c, x, y] = sm[c, x, y] - pm[c, x, y]
    est_in(inp, 4, E['W'], E['H']); est_out(o, [c, x, y], 4, E['W'], E['H'])
    return [o], [inp]


# 13 --------------------------------------------------------------------------------------------
@spec("mux_lerp_u8_clamp", "u8 RGBA output from hl.mux over c of: integer hl.lerp(a,b,w) on u8, clamp(clamp(i16 diff,-50,50)*3+128,0,255), u8 max, alpha = u8 average; 3 u8 inputs",
      WH, outs=lambda v: [(U8, [v['W'], v['H'], 4])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3), np.uint8), rimg(r, (v['W'], v['H'], 3), np.uint8), rimg(r, (v['W'], v['H']), np.uint8)])
def muxlerp(S, E):
    a = hl.ImageParam(U8, 3, "a"); b = hl.ImageParam(U8, 3, "b"); w = hl.ImageParam(U8, 2, "w")
    x, y, c = V("x", "y", "c")
    le = F("ml_lerp"); le[x, y] = hl.lerp(a[x, y, 0], b[x, y, 0], w[x, y])
    df = F("ml_diff")
    df[x, y] = hl.u8(hl.clamp(hl.clamp(hl.i16(a[x, y, 1]) - hl.i16(b[x, y, 1]), -50, 50) * 3 + 128, 0, 255))
    o = F("mux_out")
    o[x, y, c] = hl.mux(c, [le[x, y], df[x, y], hl.max(a[x, y, 2], b[x, y, 2]),
                            hl.u8((hl.u16(le[x, y]) + hl.u16(df[x, y]) + 1) / 2)])
    est_in(a, E['W'], E['H'], 3); est_in(b, E['W'], E['H'], 3); est_in(w, E['W'], E['H'])
    est_out(o, [x, y, c], E['W'], E['H'], 4)
    return [o], [a, b, w]


# 14 --------------------------------------------------------------------------------------------
@spec("ncc_template_match", "normalized cross-correlation with a template of ranged size TW x TH: 0-D template mean/var Funcs, 3-Tuple update (sum I, sum I^2, sum I*T') over RDom(0,TW,0,TH), 'valid' output",
      {'W': (1, 300), 'H': (1, 200), 'TW': (1, 15), 'TH': (1, 15)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'] + v['TW'] - 1, v['H'] + v['TH'] - 1)), runif(r, (v['TW'], v['TH']))], tol=2e-3)
def ncc(S, E):
    img = hl.ImageParam(F32, 2, "img"); tp = hl.ImageParam(F32, 2, "tp")
    x, y = V("x", "y")
    TW, TH = S['TW'], S['TH']
    rt = hl.RDom([hl.Range(0, TW), hl.Range(0, TH)], "rt")
    n = hl.f32(TW * TH)
    tm = F("nc_tmean"); tm[()] = hl.sum(tp[rt.x, rt.y]) / n
    tc = F("nc_tcent"); tc[x, y] = tp[x, y] - tm[()]
    tv = F("nc_tvar"); tv[()] = hl.sum(tc[rt.x, rt.y] * tc[rt.x, rt.y])
    acc = F("nc_acc")
    acc[x, y] = (hl.f32(0), hl.f32(0), hl.f32(0))
    v = img[x + rt.x, y + rt.y]
    acc[x, y] = (acc[x, y][0] + v, acc[x, y][1] + v * v, acc[x, y][2] + v * tc[rt.x, rt.y])
    o = F("ncc")
    iv = hl.max(acc[x, y][1] - acc[x, y][0] * acc[x, y][0] / n, 0.0)
    o[x, y] = acc[x, y][2] / hl.sqrt(iv * tv[()] + 1e-3)
    est_in(img, E['W'] + E['TW'] - 1, E['H'] + E['TH'] - 1); est_in(tp, E['TW'], E['TH']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [img, tp]


# 15 --------------------------------------------------------------------------------------------
@spec("dft_tuple_power_inverse", "naive real DFT of length N (ranged): twiddle Tuple Func (cos, sin of 2pi((k*n)%N)/N), Tuple-update spectrum, power output and inverse-DFT reconstruction output",
      {'N': (1, 256), 'B': (1, 32)},
      outs=lambda v: [(F32, [v['N'], v['B']]), (F32, [v['N'], v['B']])],
      data=lambda v, r: [rimg(r, (v['N'], v['B']))], tol=2e-3)
def dft(S, E):
    xs = hl.ImageParam(F32, 2, "xs")
    k, n, b = V("k", "n", "b")
    N = S['N']
    tw = F("dft_tw")
    ang = hl.f32((k * n) % N) * (2.0 * math.pi) / hl.f32(N)
    tw[k, n] = (hl.cos(ang), hl.sin(ang))
    r = hl.RDom([hl.Range(0, N)], "r")
    X = F("dft_X")
    X[k, b] = (hl.f32(0), hl.f32(0))
    X[k, b] = (X[k, b][0] + xs[r, b] * tw[k, r][0], X[k, b][1] - xs[r, b] * tw[k, r][1])
    pw = F("dft_power"); pw[k, b] = X[k, b][0] * X[k, b][0] + X[k, b][1] * X[k, b][1]
    r2 = hl.RDom([hl.Range(0, N)], "r2")
    inv = F("dft_inverse")
    inv[n, b] = 0.0
    inv[n, b] += (X[r2, b][0] * tw[r2, n][0] - X[r2, b][1] * tw[r2, n][1]) / hl.f32(N)
    est_in(xs, E['N'], E['B']); est_out(pw, [k, b], E['N'], E['B']); est_out(inv, [n, b], E['N'], E['B'])
    return [pw, inv], [xs]


# 16 --------------------------------------------------------------------------------------------
@spec("pixel_shuffle_param", "pixel shuffle (depth-to-space) with ranged factor R: out[c,X,Y,n] = in[c*R*R + (Y%R)*R + X%R, X/R, Y/R, n] (4-D, sizes W*R), then space-to-depth back as a 2nd output",
      {'R': (1, 4), 'W': (1, 64), 'H': (1, 48), 'N': (1, 4)},
      outs=lambda v: [(F32, [8, v['W'] * v['R'], v['H'] * v['R'], v['N']]), (F32, [8 * v['R'] ** 2, v['W'], v['H'], v['N']])],
      data=lambda v, r: [rimg(r, (8 * v['R'] ** 2, v['W'], v['H'], v['N']))])
def pixshuf(S, E):
    inp = hl.ImageParam(F32, 4, "inp")
    c, X, Y, n = V("c", "X", "Y", "n")
    R = S['R']
    ps = F("ps_d2s")
    ps[c, X, Y, n] = inp[c * R * R + (Y % R) * R + X % R, X / R, Y / R, n] * 2.0
    bk = F("ps_s2d")
    bk[c, X, Y, n] = ps[c / (R * R), X * R + c % R, Y * R + (c / R) % R, n] + 1.0
    er = E['R']
    est_in(inp, 8 * er * er, E['W'], E['H'], E['N'])
    est_out(ps, [c, X, Y, n], 8, E['W'] * er, E['H'] * er, E['N']); est_out(bk, [c, X, Y, n], 8 * er * er, E['W'], E['H'], E['N'])
    return [ps, bk], [inp]


# 17 --------------------------------------------------------------------------------------------
SORT8 = [(0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7), (0, 1), (2, 3), (4, 5), (6, 7),
         (2, 4), (3, 5), (1, 4), (3, 6), (1, 2), (3, 4), (5, 6)]


@spec("sort8_channels_network", "per-pixel sort of 8 planar channels with a 19-comparator min/max network, output via hl.mux over c, plus a median-of-8 output",
      WH, outs=lambda v: [(F32, [v['W'], v['H'], 8]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 8))])
def sort8(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    v = [inp[x, y, k] for k in range(8)]
    for a, b in SORT8:
        v[a], v[b] = hl.min(v[a], v[b]), hl.max(v[a], v[b])
    st = F("s8_sorted"); st[x, y] = tuple(v)
    o = F("s8_out"); o[x, y, c] = hl.mux(c, [st[x, y][k] for k in range(8)])
    md = F("s8_median"); md[x, y] = (st[x, y][3] + st[x, y][4]) * 0.5
    est_in(inp, E['W'], E['H'], 8); est_out(o, [x, y, c], E['W'], E['H'], 8); est_out(md, [x, y], E['W'], E['H'])
    return [o, md], [inp]


# 18 --------------------------------------------------------------------------------------------
@spec("chamfer_distance_2pass", "3-4 chamfer distance transform: forward raster scan over a 2-D RDom reading left/up neighbours, backward raster scan (indices W-1-r.x, H-1-r.y), i32",
      {'W': (1, 400), 'H': (1, 300)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [fa((r.random((v['W'], v['H'])) < 0.01).astype(np.uint8))])
def chamfer(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    BIG = 1 << 20
    e = BF.constant_exterior(inp, hl.u8(0))
    d1 = F("ch_fwd")
    d1[x, y] = hl.select(e[x, y] > 0, 0, BIG)
    r = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "r")
    d1[r.x, r.y] = hl.min(hl.min(d1[r.x, r.y], d1[r.x - 1, r.y] + 3),
                          hl.min(d1[r.x, r.y - 1] + 3, hl.min(d1[r.x - 1, r.y - 1] + 4, d1[r.x + 1, r.y - 1] + 4)))
    d2 = F("ch_bwd")
    d2[x, y] = d1[x, y]
    q = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "q")
    xx, yy = W - 1 - q.x, H - 1 - q.y
    d2[xx, yy] = hl.min(hl.min(d2[xx, yy], d2[xx + 1, yy] + 3),
                        hl.min(d2[xx, yy + 1] + 3, hl.min(d2[xx + 1, yy + 1] + 4, d2[xx - 1, yy + 1] + 4)))
    o = F("chamfer"); o[x, y] = d2[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 19 --------------------------------------------------------------------------------------------
@spec("bincount_weighted_K", "np.bincount(idx, weights, minlength=K): float scatter-add into K ranged bins (clamped data index), 0-D total, normalized output",
      {'N': (1, 200000), 'K': (1, 1000)},
      outs=lambda v: [(F32, [v['K']])],
      data=lambda v, r: [fa(r.integers(-5, v['K'] + 5, size=(v['N'],)).astype(np.int32)), runif(r, (v['N'],))], tol=1e-3)
def bincount(S, E):
    idx = hl.ImageParam(I32, 1, "idx"); wt = hl.ImageParam(F32, 1, "wt")
    k, = V("k")
    K = S['K']
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    h = F("bc_hist"); h[k] = 0.0
    h[hl.clamp(idx[r], 0, K - 1)] += wt[r]
    tot = F("bc_total"); tot[()] = 0.0
    tot[()] += wt[r]
    o = F("bc_norm"); o[k] = h[k] / (tot[()] + 1.0)
    est_in(idx, E['N']); est_in(wt, E['N']); est_out(o, [k], E['K'])
    return [o], [idx, wt]


# 20 --------------------------------------------------------------------------------------------
@spec("julia_tuple_iter_update", "Julia set: (zr, zi, count i32) 3-Tuple pure def from x/W, y/H (Params in arithmetic), update over RDom(0,ITER) with select(escaped, ...), float Params cr, ci",
      {'W': (1, 400), 'H': (1, 300), 'ITER': (1, 64)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [], tol=1e-3)
def julia(S, E):
    x, y = V("x", "y")
    cr = hl.Param(F32, "cr", -0.4); ci = hl.Param(F32, "ci", 0.6)
    z = F("ju_z")
    z[x, y] = ((hl.f32(x) + 0.5) * 3.0 / hl.f32(S['W']) - 1.5, (hl.f32(y) + 0.5) * 2.0 / hl.f32(S['H']) - 1.0, 0)
    r = hl.RDom([hl.Range(0, S['ITER'])], "r")
    zr, zi, cnt = z[x, y][0], z[x, y][1], z[x, y][2]
    esc = zr * zr + zi * zi > 4.0
    z[x, y] = (hl.select(esc, zr, zr * zr - zi * zi + cr), hl.select(esc, zi, 2.0 * zr * zi + ci), cnt + hl.select(esc, 0, 1))
    o = F("ju_count"); o[x, y] = z[x, y][2]
    m = F("ju_mag"); m[x, y] = hl.min(hl.sqrt(z[x, y][0] * z[x, y][0] + z[x, y][1] * z[x, y][1]), 2.5)
    est_out(o, [x, y], E['W'], E['H']); est_out(m, [x, y], E['W'], E['H'])
    return [o, m], []


# 21 --------------------------------------------------------------------------------------------
@spec("autocorr_lags_1d", "autocorrelation acf[l] = sum_{r<N} x[r]*xe[r+l] (constant_exterior), N up to 1e6, L ranged up to 64: tiny output, huge serial reduction; normalized by acf[0] output",
      {'N': (1, 1000000), 'L': (1, 64)},
      outs=lambda v: [(F32, [v['L']]), (F32, [v['L']])],
      data=lambda v, r: [runif(r, (v['N'],), -1.0, 1.0)], tol=1e-3)
def autocorr(S, E):
    xs = hl.ImageParam(F32, 1, "xs")
    l, = V("l")
    xe = BF.constant_exterior(xs, 0.0)
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    ac = F("ac_raw"); ac[l] = 0.0
    ac[l] += xs[r] * xe[r + l]
    nz = F("ac_norm"); nz[l] = ac[l] / (ac[0] + 1e-6)
    est_in(xs, E['N']); est_out(ac, [l], E['L']); est_out(nz, [l], E['L'])
    return [ac, nz], [xs]


# 22 --------------------------------------------------------------------------------------------
@spec("knn1_argmin_points", "nearest neighbour of M query points among N reference points (3, N) layout: squared distances (unrolled c), hl.argmin over RDom(0,N) -> i32 index and f32 distance outputs",
      {'M': (1, 2000), 'N': (1, 2000)},
      outs=lambda v: [(I32, [v['M']]), (F32, [v['M']])],
      data=lambda v, r: [rimg(r, (3, v['M'])), rimg(r, (3, v['N']))])
def knn1(S, E):
    q = hl.ImageParam(F32, 2, "q"); p = hl.ImageParam(F32, 2, "p")
    j, i = V("j", "i")
    d = F("kn_dist")
    d[j, i] = sum((q[c, i] - p[c, j]) * (q[c, i] - p[c, j]) for c in range(3))
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    am = F("kn_argmin"); am[i] = hl.argmin(d[r, i])
    oi = F("kn_index"); oi[i] = hl.i32(am[i][0])
    od = F("kn_dist_out"); od[i] = hl.sqrt(am[i][1])
    est_in(q, 3, E['M']); est_in(p, 3, E['N']); est_out(oi, [i], E['M']); est_out(od, [i], E['M'])
    return [oi, od], [q, p]


# 23 --------------------------------------------------------------------------------------------
def _csr(v, r):
    lens = r.integers(0, v['ML'] + 1, size=(v['S'],))
    off = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    return [fa(off), runif(r, (max(int(off[-1]), 1),), -1.0, 1.0)]


@spec("segment_sum_csr_where", "CSR segment sums: RDom(0,ML) with .where(r < off[s+1]-off[s]) referencing the pure var s and data, gather vals[clamp(off[s]+r)], then segment means",
      {'S': (1, 2000), 'ML': (1, 64)},
      outs=lambda v: [(F32, [v['S']]), (F32, [v['S']])],
      data=_csr, tol=1e-4)
def segsum(S, E):
    off = hl.ImageParam(I32, 1, "off"); vals = hl.ImageParam(F32, 1, "vals")
    s, = V("s")
    r = hl.RDom([hl.Range(0, S['ML'])], "r")
    r.where(r.x < off[s + 1] - off[s])
    sg = F("sg_sum"); sg[s] = 0.0
    sg[s] += vals[hl.clamp(off[s] + r.x, 0, vals.dim(0).extent() - 1)]
    mn = F("sg_mean"); mn[s] = sg[s] / hl.f32(hl.max(off[s + 1] - off[s], 1))
    est_in(off, E['S'] + 1); est_in(vals, E['S'] * E['ML'] // 2); est_out(sg, [s], E['S']); est_out(mn, [s], E['S'])
    return [sg, mn], [off, vals]


# 24 --------------------------------------------------------------------------------------------
@spec("maxpool_unpool_scatter", "2x2 max-pool with hl.argmax over RDom(0,2,0,2) (Tuple rx, ry, val), then max-unpool: data-dependent scatter of val*2 into a zeroed 2W x 2H Func (clamped coords)",
      {'W': (1, 300), 'H': (1, 200)},
      outs=lambda v: [(F32, [2 * v['W'], 2 * v['H']])],
      data=lambda v, r: [rimg(r, (2 * v['W'], 2 * v['H']))])
def unpool(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    rw = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "rw")
    pl = F("up_pool"); pl[x, y] = hl.argmax(inp[2 * x + rw.x, 2 * y + rw.y])
    u = F("up_unpool"); u[x, y] = 0.0
    rp = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "rp")
    px, py = pl[rp.x, rp.y][0], pl[rp.x, rp.y][1]
    u[hl.clamp(2 * rp.x + px, 0, 2 * W - 1), hl.clamp(2 * rp.y + py, 0, 2 * H - 1)] = pl[rp.x, rp.y][2] * 2.0
    o = F("up_out"); o[x, y] = u[x, y] + 0.5
    est_in(inp, 2 * E['W'], 2 * E['H']); est_out(o, [x, y], 2 * E['W'], 2 * E['H'])
    return [o], [inp]


# 25 --------------------------------------------------------------------------------------------
@spec("f16_storage_laplacian", "float16 input and output storage, f32 compute: 3x3 laplacian-sharpen over mirror_image, f16 round-trip intermediate Func",
      WH, outs=lambda v: [(F16, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.float16)], tol=1e-3)
def f16lap(S, E):
    inp = hl.ImageParam(F16, 2, "inp")
    x, y = V("x", "y")
    e = BF.mirror_image(inp)
    h = F("fh_half"); h[x, y] = hl.cast(F16, hl.f32(e[x, y]) * 0.5)
    lp = F("fh_lap")
    lp[x, y] = 4.0 * hl.f32(h[x, y]) - hl.f32(h[x - 1, y]) - hl.f32(h[x + 1, y]) - hl.f32(h[x, y - 1]) - hl.f32(h[x, y + 1])
    o = F("f16_out"); o[x, y] = hl.cast(F16, hl.f32(e[x, y]) + lp[x, y])
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# 26 --------------------------------------------------------------------------------------------
@spec("rank_sort_by_counting", "argsort by counting: rank[i] = #{j: v[j] < v[i] or (== and j < i)} over RDom(0,N) (O(N^2)), then scatter sorted[rank[r]] = v[r]; N ranged",
      {'N': (1, 3000)},
      outs=lambda v: [(F32, [v['N']]), (I32, [v['N']])],
      data=lambda v, r: [fa(r.integers(0, 50, size=(v['N'],)).astype(np.float32))])
def ranksort(S, E):
    vs = hl.ImageParam(F32, 1, "vs")
    i, = V("i")
    N = S['N']
    r = hl.RDom([hl.Range(0, N)], "r")
    rk = F("rs_rank")
    rk[i] = hl.sum(hl.select((vs[r] < vs[i]) | ((vs[r] == vs[i]) & (r < i)), 1, 0))
    so = F("rs_sorted"); so[i] = 0.0
    r2 = hl.RDom([hl.Range(0, N)], "r2")
    so[hl.clamp(rk[r2], 0, N - 1)] = vs[r2]
    est_in(vs, E['N']); est_out(so, [i], E['N']); est_out(rk, [i], E['N'])
    return [so, rk], [vs]


# 27 --------------------------------------------------------------------------------------------
@spec("inverse_permutation_scatter", "inverse permutation (np.argsort of a permutation): inv[perm[r]] = r as a plain ASSIGNMENT scatter over RDom(0,N) (clamped index), N up to 1e6; then gather-back check output",
      {'N': (1, 1000000)},
      outs=lambda v: [(I32, [v['N']]), (I32, [v['N']])],
      data=lambda v, r: [fa(r.permutation(v['N']).astype(np.int32))])
def invperm(S, E):
    perm = hl.ImageParam(I32, 1, "perm")
    i, = V("i")
    N = S['N']
    r = hl.RDom([hl.Range(0, N)], "r")
    inv = F("ip_inv"); inv[i] = -1
    inv[hl.clamp(perm[r], 0, N - 1)] = r
    chk = F("ip_check"); chk[i] = perm[hl.clamp(inv[i], 0, N - 1)] - i
    est_in(perm, E['N']); est_out(inv, [i], E['N']); est_out(chk, [i], E['N'])
    return [inv, chk], [perm]


# 28 --------------------------------------------------------------------------------------------
@spec("stream_fold_0d_nonassoc", "0-D folds over a 1-D stream N up to 1e6 (no pure loop): polynomial hash acc = acc*31 + x[r] in u32 (non-commutative), last index where x[r] > 0.999 via select(cond, r, acc), and an EMA acc = 0.999*acc + 0.001*x",
      {'N': (1, 1000000)},
      outs=lambda v: [(U32, []), (I32, []), (F32, [])],
      data=lambda v, r: [fa(r.integers(0, 1000, size=(v['N'],)).astype(np.uint32)), runif(r, (v['N'],))], tol=1e-4)
def streamfold(S, E):
    xs = hl.ImageParam(U32, 1, "xs"); fs = hl.ImageParam(F32, 1, "fs")
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    hsh = F("sf_hash"); hsh[()] = hl.u32(7)
    hsh[()] = hsh[()] * hl.u32(31) + xs[r]
    last = F("sf_last"); last[()] = -1
    last[()] = hl.select(fs[r] > 0.999, r, last[()])
    ema = F("sf_ema"); ema[()] = 0.0
    ema[()] = 0.999 * ema[()] + 0.001 * fs[r]
    est_in(xs, E['N']); est_in(fs, E['N'])
    return [hsh, last, ema], [xs, fs]


# 29 --------------------------------------------------------------------------------------------
@spec("tuple_scatter_bin_stats", "Tuple-valued scatter: per-bin (count i32, sum f32, max f32) over RDom(0,N) at data-dependent bin clamp(idx, 0, K-1), K and N ranged; mean and max outputs",
      {'N': (1, 300000), 'K': (1, 512)},
      outs=lambda v: [(F32, [v['K']]), (F32, [v['K']]), (I32, [v['K']])],
      data=lambda v, r: [fa(r.integers(-3, v['K'] + 3, size=(v['N'],)).astype(np.int32)), fa(r.integers(-1000, 1000, size=(v['N'],)).astype(np.float32))])
def tuplescatter(S, E):
    idx = hl.ImageParam(I32, 1, "idx"); val = hl.ImageParam(F32, 1, "val")
    k, = V("k")
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    b = F("tsb_bins")
    b[k] = (0, hl.f32(0), hl.f32(-1e30))
    j = hl.clamp(idx[r], 0, S['K'] - 1)
    b[j] = (b[j][0] + 1, b[j][1] + val[r], hl.max(b[j][2], val[r]))
    mean = F("tsb_mean"); mean[k] = b[k][1] / hl.f32(hl.max(b[k][0], 1))
    mx = F("tsb_max"); mx[k] = b[k][2]
    cnt = F("tsb_count"); cnt[k] = b[k][0]
    est_in(idx, E['N']); est_in(val, E['N'])
    for f in (mean, mx, cnt):
        est_out(f, [k], E['K'])
    return [mean, mx, cnt], [idx, val]


# 30 --------------------------------------------------------------------------------------------
@spec("triangle_where_0d_and_rows", "triangular RDom(0,N,0,N).where(r.y <= r.x) (no pure var): 0-D weighted sum of a[r.x]*b[r.y], and per-row (pure i) triangular sums with .where(r.x <= i)",
      {'N': (1, 3000)},
      outs=lambda v: [(F32, []), (F32, [v['N']])],
      data=lambda v, r: [fa(r.integers(-4, 5, size=(v['N'],)).astype(np.float32)), fa(r.integers(-4, 5, size=(v['N'],)).astype(np.float32))])
def triangle(S, E):
    a = hl.ImageParam(F32, 1, "a"); bb = hl.ImageParam(F32, 1, "bb")
    i, = V("i")
    N = S['N']
    r = hl.RDom([hl.Range(0, N), hl.Range(0, N)], "r")
    r.where(r.y <= r.x)
    t = F("tri_total"); t[()] = 0.0
    t[()] += a[r.x] * bb[r.y]
    q = hl.RDom([hl.Range(0, N)], "q")
    q.where(q.x <= i)
    rows = F("tri_rows"); rows[i] = 0.0
    rows[i] += a[q.x] * bb[i]
    est_in(a, E['N']); est_in(bb, E['N']); est_out(rows, [i], E['N'])
    return [t, rows], [a, bb]


# 31 --------------------------------------------------------------------------------------------
@spec("cumsum_1d_no_pure_var", "1-D inclusive prefix sum as an update with NO pure var: c[r] = c[r-1] + x[r] over RDom(1,N-1), N up to 1e6 (i32, exact), then c * 2 - x",
      {'N': (1, 1000000)},
      outs=lambda v: [(I32, [v['N']])],
      data=lambda v, r: [fa(r.integers(-100, 100, size=(v['N'],)).astype(np.int32))])
def cumsum1d(S, E):
    xs = hl.ImageParam(I32, 1, "xs")
    i, = V("i")
    c = F("cs1_scan"); c[i] = xs[i]
    r = hl.RDom([hl.Range(1, S['N'] - 1)], "r")
    c[r] = c[r - 1] + c[r]
    o = F("cs1_out"); o[i] = c[i] * 2 - xs[i]
    est_in(xs, E['N']); est_out(o, [i], E['N'])
    return [o], [xs]


# 32 --------------------------------------------------------------------------------------------
@spec("argmax_ties_0d_1e6", "0-D hl.argmax and hl.argmin over RDom(0,N), N up to 1e6, integer data in 0..9 so ties are everywhere (the FIRST index must win), plus a 0-D count of maxima",
      {'N': (1, 1000000)},
      outs=lambda v: [(I32, []), (I32, []), (I32, [])],
      data=lambda v, r: [fa(r.integers(0, 10, size=(v['N'],)).astype(np.int32))])
def argmaxties(S, E):
    xs = hl.ImageParam(I32, 1, "xs")
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    am = F("at_argmax"); am[()] = hl.argmax(xs[r])
    an = F("at_argmin"); an[()] = hl.argmin(xs[r])
    o1 = F("at_imax"); o1[()] = hl.i32(am[()][0])
    o2 = F("at_imin"); o2[()] = hl.i32(an[()][0])
    cnt = F("at_count"); cnt[()] = 0
    cnt[()] += hl.select(xs[r] == am[()][1], 1, 0)
    est_in(xs, E['N'])
    return [o1, o2, cnt], [xs]


# 33 --------------------------------------------------------------------------------------------
@spec("scatter_last_writer_wins", "np-style a[idx] = r with DUPLICATE indices (idx = data % K, K ranged): the last r per bin must win; plain assignment scatter over RDom(0,N), N up to 500000",
      {'N': (1, 500000), 'K': (1, 4096)},
      outs=lambda v: [(I32, [v['K']])],
      data=lambda v, r: [fa(r.integers(0, 1 << 30, size=(v['N'],)).astype(np.int32))])
def lastwriter(S, E):
    xs = hl.ImageParam(I32, 1, "xs")
    k, = V("k")
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    a = F("lw_bins"); a[k] = -1
    a[xs[r] % S['K']] = r
    o = F("lw_out"); o[k] = a[k] + 1
    est_in(xs, E['N']); est_out(o, [k], E['K'])
    return [o], [xs]


# 34 --------------------------------------------------------------------------------------------
@spec("scatter_max_float_rfactor", "segment max: u[clamp(idx)] = max(u[clamp(idx)], v) (associative scatter, candidate for rfactor), float values, K bins ranged, N up to 500000",
      {'N': (1, 500000), 'K': (1, 2048)},
      outs=lambda v: [(F32, [v['K']])],
      data=lambda v, r: [fa(r.integers(0, v['K'], size=(v['N'],)).astype(np.int32)), rimg(r, (v['N'],))])
def scattermax(S, E):
    idx = hl.ImageParam(I32, 1, "idx"); vs = hl.ImageParam(F32, 1, "vs")
    k, = V("k")
    r = hl.RDom([hl.Range(0, S['N'])], "r")
    u = F("smx_bins"); u[k] = hl.f32(-1e30)
    j = hl.clamp(idx[r], 0, S['K'] - 1)
    u[j] = hl.max(u[j], vs[r])
    o = F("smx_out"); o[k] = u[k]
    est_in(idx, E['N']); est_in(vs, E['N']); est_out(o, [k], E['K'])
    return [o], [idx, vs]
