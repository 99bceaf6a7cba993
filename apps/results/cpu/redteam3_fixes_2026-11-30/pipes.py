"""Red-team pipelines for Diet. Each spec: name, style, ranges {P: (lo, hi)}, build(S, E) -> (outputs, inputs),
data(v, rng) -> list of numpy arrays (Halide dim order, Fortran layout), outs(v) -> list of (hl type, shape),
optional tests (list of dicts of values), times (small, large).
S: dict of ranged hl.Param (always Params, may be used in the algorithm); E: what the estimates use
(the Params themselves for Diet, constant ints for Adams2019/Mullapudi2016)."""
import halide as hl
import numpy as np

F32, U8, U16, I8, I32 = hl.Float(32), hl.UInt(8), hl.UInt(16), hl.Int(8), hl.Int(32)
def registry():
    """A round's own spec table: (SPECS, spec, CREATED, F). Later rounds' pipes.py call it too (run_one
    reads SPECS and CREATED from whichever module is imported as `pipes`)."""
    specs, created = {}, []

    def spec(name, style, ranges, outs, data, tests=None, times=None, tol=None, **kw):
        def deco(build):
            specs[name] = dict(name=name, style=style, ranges=ranges, build=build, outs=outs, data=data,
                               tests=tests, times=times, tol=tol, **kw)
            return build
        return deco

    def F(n):
        f = hl.Func(n)
        created.append(f)
        return f
    return specs, spec, created, F


SPECS, spec, CREATED, F = registry()


def V(*names):
    return [hl.Var(n) for n in names]


def est_in(ip, *exts):
    for i, e in enumerate(exts):
        ip.dim(i).set_estimate(0, e)


def est_out(f, vars_, *exts, mins=None):
    for k, (v, e) in enumerate(zip(vars_, exts)):
        f.set_estimate(v, mins[k] if mins else 0, e)


def fa(a):
    b = np.empty(a.shape, dtype=a.dtype, order='F')
    b[...] = a
    return b


def rimg(rng, shape, dtype=np.float32):
    if dtype == np.float32:
        return fa(rng.standard_normal(shape).astype(np.float32))
    info = np.iinfo(dtype)
    return fa(rng.integers(info.min, info.max + 1, size=shape).astype(dtype))


BF = hl.BoundaryConditions


# ================================================================ contractions
@spec("gemv_rdomK", "GEMV y[i]=sum_{k<K} A[k,i]x[k], K ranged via RDom(0,K)", {'M': (1, 1000), 'K': (1, 1000)},
      outs=lambda v: [(F32, [v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'],))], tol=1e-3)
def gemv(S, E):
    A = hl.ImageParam(F32, 2, "A"); xv = hl.ImageParam(F32, 1, "xv")
    i, = V("i")
    r = hl.RDom([hl.Range(0, S['K'])], "r")
    y = F("gemv")
    y[i] = 0.0
    y[i] += A[r, i] * xv[r]
    est_in(A, E['K'], E['M']); est_in(xv, E['K']); est_out(y, [i], E['M'])
    return [y], [A, xv]


@spec("outer_product", "outer product o[i,j]=a[i]*b[j] + scale, M,N ranged", {'M': (1, 1000), 'N': (1, 800)},
      outs=lambda v: [(F32, [v['M'], v['N']])],
      data=lambda v, r: [rimg(r, (v['M'],)), rimg(r, (v['N'],))])
def outer(S, E):
    a = hl.ImageParam(F32, 1, "a"); b = hl.ImageParam(F32, 1, "b")
    i, j = V("i", "j")
    sa = F("sa"); sa[i] = a[i] * 2.0 + 1.0
    o = F("outer"); o[i, j] = sa[i] * b[j]
    est_in(a, E['M']); est_in(b, E['N']); est_out(o, [i, j], E['M'], E['N'])
    return [o], [a, b]


@spec("matmul_chain_abc", "(A*B)*C chained matmuls via Funcs, M ranged, K=N=L=128", {'M': (1, 256)},
      outs=lambda v: [(F32, [128, v['M']])],
      data=lambda v, r: [rimg(r, (128, v['M'])), rimg(r, (128, 128)), rimg(r, (128, 128))], tol=1e-3)
def mm_chain(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); C = hl.ImageParam(F32, 2, "C")
    j, i = V("j", "i")
    rk = hl.RDom([hl.Range(0, 128)], "rk"); rj = hl.RDom([hl.Range(0, 128)], "rj")
    ab, abc = F("ab"), F("abc")
    ab[j, i] = 0.0
    ab[j, i] += A[rk, i] * B[j, rk]
    abc[j, i] = 0.0
    abc[j, i] += ab[rj, i] * C[j, rj]
    est_in(A, 128, E['M']); est_in(B, 128, 128); est_in(C, 128, 128); est_out(abc, [j, i], 128, E['M'])
    return [abc], [A, B, C]


@spec("matmul_rdom_param_K", "matmul 256x256 with the reduction length a ranged Param RDom(0,K)", {'K': (1, 512)},
      outs=lambda v: [(F32, [256, 256])],
      data=lambda v, r: [rimg(r, (v['K'], 256)), rimg(r, (256, v['K']))], tol=1e-3)
def mm_paramK(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    j, i = V("j", "i")
    r = hl.RDom([hl.Range(0, S['K'])], "r")
    c = F("mmK")
    c[j, i] = hl.sum(A[r, i] * B[j, r])
    est_in(A, E['K'], 256); est_in(B, 256, E['K']); est_out(c, [j, i], 256, 256)
    return [c], [A, B]


@spec("conv1d_ncw", "conv1d NCW (t,c,n), k=5 valid, CI=CO=32, T,B ranged", {'T': (1, 1000), 'B': (1, 4)},
      outs=lambda v: [(F32, [v['T'], 32, v['B']])],
      data=lambda v, r: [rimg(r, (v['T'] + 4, 32, v['B'])), rimg(r, (5, 32, 32))], tol=1e-3)
def conv1d_ncw(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 3, "w")
    t, co, n = V("t", "co", "n")
    r = hl.RDom([hl.Range(0, 5), hl.Range(0, 32)], "r")
    c, o = F("c1"), F("c1_act")
    c[t, co, n] = 0.0
    c[t, co, n] += w[r.x, r.y, co] * inp[t + r.x, r.y, n]
    o[t, co, n] = hl.tanh(c[t, co, n])
    est_in(inp, E['T'] + 4, 32, E['B']); est_in(w, 5, 32, 32); est_out(o, [t, co, n], E['T'], 32, E['B'])
    return [o], [inp, w]


@spec("conv1d_nwc", "conv1d NWC (c,t,n), k=5 valid, CI=CO=32, inline sum", {'T': (1, 1000), 'B': (1, 4)},
      outs=lambda v: [(F32, [32, v['T'], v['B']])],
      data=lambda v, r: [rimg(r, (32, v['T'] + 4, v['B'])), rimg(r, (32, 32, 5))], tol=1e-3)
def conv1d_nwc(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 3, "w")
    co, t, n = V("co", "t", "n")
    r = hl.RDom([hl.Range(0, 32), hl.Range(0, 5)], "r")
    o = F("c1nwc")
    o[co, t, n] = hl.max(hl.sum(w[co, r.x, r.y] * inp[r.x, t + r.y, n]), 0.0)
    est_in(inp, 32, E['T'] + 4, E['B']); est_in(w, 32, 32, 5); est_out(o, [co, t, n], 32, E['T'], E['B'])
    return [o], [inp, w]


@spec("grouped_conv", "grouped conv NCHW 3x3, 32 ch in 4 groups of 8, zero pad", {'W': (1, 96), 'H': (1, 96), 'B': (1, 2)},
      outs=lambda v: [(F32, [v['W'], v['H'], 32, v['B']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 32, v['B'])), rimg(r, (3, 3, 8, 32))], tol=1e-3)
def grouped(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w")
    x, y, co, n = V("x", "y", "co", "n")
    pad = BF.constant_exterior(inp, 0.0, [(0, inp.dim(0).extent()), (0, inp.dim(1).extent())])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3), hl.Range(0, 8)], "r")
    g = F("gconv")
    g[x, y, co, n] = 0.0
    g[x, y, co, n] += w[r.x, r.y, r.z, co] * pad[x + r.x - 1, y + r.y - 1, (co / 8) * 8 + r.z, n]
    est_in(inp, E['W'], E['H'], 32, E['B']); est_in(w, 3, 3, 8, 32); est_out(g, [x, y, co, n], E['W'], E['H'], 32, E['B'])
    return [g], [inp, w]


@spec("conv_transposed_s2", "transposed conv stride 2 (zero-insert via select on x%2), 3x3, 16->16",
      {'W': (1, 64), 'H': (1, 64)},
      outs=lambda v: [(F32, [2 * v['W'], 2 * v['H'], 16])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 16)), rimg(r, (3, 3, 16, 16))], tol=1e-3)
def convT(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w")
    x, y, c = V("x", "y", "c")
    cl = BF.constant_exterior(inp, 0.0)
    up = F("zero_insert")
    up[x, y, c] = hl.select((x % 2 == 0) & (y % 2 == 0), cl[x / 2, y / 2, c], 0.0)
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3), hl.Range(0, 16)], "r")
    o = F("convT")
    o[x, y, c] = 0.0
    o[x, y, c] += w[r.x, r.y, r.z, c] * up[x + r.x - 1, y + r.y - 1, r.z]
    est_in(inp, E['W'], E['H'], 16); est_in(w, 3, 3, 16, 16); est_out(o, [x, y, c], 2 * E['W'], 2 * E['H'], 16)
    return [o], [inp, w]


@spec("im2col_matmul", "im2col Func col[k,x,y] (k=ci*9+ky*3+kx) then matmul with w[k,co]", {'W': (1, 64), 'H': (1, 64)},
      outs=lambda v: [(F32, [32, v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'] + 2, v['H'] + 2, 16)), rimg(r, (144, 32))], tol=1e-3)
def im2col(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 2, "w")
    k, x, y, co = V("k", "x", "y", "co")
    col = F("col")
    col[k, x, y] = inp[x + k % 3, y + (k / 3) % 3, k / 9]
    r = hl.RDom([hl.Range(0, 144)], "r")
    o = F("im2col_mm")
    o[co, x, y] = 0.0
    o[co, x, y] += w[r, co] * col[r, x, y]
    est_in(inp, E['W'] + 2, E['H'] + 2, 16); est_in(w, 144, 32); est_out(o, [co, x, y], 32, E['W'], E['H'])
    return [o], [inp, w]


@spec("einsum_batch_middle", "einsum o[j,b,i] = sum_k A[k,b,i] B[j,k,b], batch in the middle", {'B': (1, 16), 'M': (1, 128)},
      outs=lambda v: [(F32, [64, v['B'], v['M']])],
      data=lambda v, r: [rimg(r, (64, v['B'], v['M'])), rimg(r, (64, 64, v['B']))], tol=1e-3)
def einsum_mid(S, E):
    A = hl.ImageParam(F32, 3, "A"); Bm = hl.ImageParam(F32, 3, "Bm")
    j, b, i = V("j", "b", "i")
    r = hl.RDom([hl.Range(0, 64)], "r")
    o = F("einsum")
    o[j, b, i] = hl.sum(A[r, b, i] * Bm[j, r, b])
    est_in(A, 64, E['B'], E['M']); est_in(Bm, 64, 64, E['B']); est_out(o, [j, b, i], 64, E['B'], E['M'])
    return [o], [A, Bm]


@spec("tuple_sum_sumsq", "row stats as a Tuple accumulator (sum, sumsq) then standardize", {'W': (1, 1000), 'H': (1, 800)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def tuple_stats(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    r = hl.RDom([hl.Range(0, inp.width())], "r")
    st = F("stats")
    st[y] = (hl.f32(0), hl.f32(0))
    st[y] = (st[y][0] + inp[r, y], st[y][1] + inp[r, y] * inp[r, y])
    n = hl.f32(inp.width())
    mean = st[y][0] / n
    var = hl.max(st[y][1] / n - mean * mean, 0.0)
    o = F("standardized")
    o[x, y] = (inp[x, y] - mean) / hl.sqrt(var + 1e-3)
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("matmul_u8_u32", "uint8 x uint8 matmul accumulating in uint32 via explicit casts, K=256", {'M': (1, 256), 'N': (1, 256)},
      outs=lambda v: [(hl.UInt(32), [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (256, v['M']), np.uint8), rimg(r, (v['N'], 256), np.uint8)])
def mm_u8(S, E):
    A = hl.ImageParam(U8, 2, "A"); B = hl.ImageParam(U8, 2, "B")
    j, i = V("j", "i")
    r = hl.RDom([hl.Range(0, 256)], "r")
    c = F("mm_u32")
    c[j, i] = hl.u32(0)
    c[j, i] += hl.u32(A[r, i]) * hl.u32(B[j, r])
    est_in(A, 256, E['M']); est_in(B, E['N'], 256); est_out(c, [j, i], E['N'], E['M'])
    return [c], [A, B]


@spec("matmul_boundary_padded", "matmul on constant_exterior-wrapped operands, reduction padded to multiple of 8",
      {'M': (1, 256), 'K': (1, 200)},
      outs=lambda v: [(F32, [128, v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (128, v['K']))], tol=1e-3)
def mm_bc(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    j, i = V("j", "i")
    Ab = BF.constant_exterior(A, 0.0); Bb = BF.constant_exterior(B, 0.0)
    kp = ((A.width() + 7) / 8) * 8
    r = hl.RDom([hl.Range(0, kp)], "r")
    c = F("mm_pad")
    c[j, i] = 0.0
    c[j, i] += Ab[r, i] * Bb[j, r]
    est_in(A, E['K'], E['M']); est_in(B, 128, E['K']); est_out(c, [j, i], 128, E['M'])
    return [c], [A, B]


@spec("attention_heads_outer_mask", "multi-head attention, heads outermost (d,t,h), additive mask[s,t] input", {'T': (1, 128)},
      outs=lambda v: [(F32, [32, v['T'], 8])],
      data=lambda v, r: [rimg(r, (32, v['T'], 8)) for _ in range(3)] +
      [fa(np.where(r.random((v['T'], v['T'])) < 0.2, -1e4, 0.0).astype(np.float32))], tol=1e-3)
def mha(S, E):
    q = hl.ImageParam(F32, 3, "q"); k = hl.ImageParam(F32, 3, "k"); vv = hl.ImageParam(F32, 3, "v")
    mask = hl.ImageParam(F32, 2, "mask")
    d, s, t, h = V("d", "s", "t", "h")
    rd = hl.RDom([hl.Range(0, 32)], "rd")
    rs = hl.RDom([hl.Range(0, q.dim(1).extent())], "rs")
    sc, mx, ex, sm, o = F("mh_scores"), F("mh_max"), F("mh_exp"), F("mh_sum"), F("mh_ctx")
    sc[s, t, h] = hl.sum(q[rd, t, h] * k[rd, s, h]) * 0.17677669 + mask[s, t]
    mx[t, h] = hl.maximum(sc[rs, t, h])
    ex[s, t, h] = hl.exp(sc[s, t, h] - mx[t, h])
    sm[t, h] = hl.sum(ex[rs, t, h])
    o[d, t, h] = hl.sum(ex[rs, t, h] * vv[d, rs, h]) / sm[t, h]
    for p in (q, k, vv):
        est_in(p, 32, E['T'], 8)
    est_in(mask, E['T'], E['T'])
    est_out(o, [d, t, h], 32, E['T'], 8)
    return [o], [q, k, vv, mask]


# ================================================================ image
WH2 = {'W': (1, 1000), 'H': (1, 800)}


@spec("harris", "Harris corner response: sobel, products, 3x3 box sums, det - k*trace^2", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'], 3)).astype(np.float32))], tol=1e-3)
def harris(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    gray, ix, iy, ixx, iyy, ixy, sxx, syy, sxy, o = [F(n) for n in
        ("h_gray", "h_ix", "h_iy", "h_ixx", "h_iyy", "h_ixy", "h_sxx", "h_syy", "h_sxy", "harris")]
    gray[x, y] = 0.299 * e[x, y, 0] + 0.587 * e[x, y, 1] + 0.114 * e[x, y, 2]
    iy[x, y] = (gray[x - 1, y - 1] + 2 * gray[x, y - 1] + gray[x + 1, y - 1]
                - gray[x - 1, y + 1] - 2 * gray[x, y + 1] - gray[x + 1, y + 1]) / 12.0
    ix[x, y] = (gray[x + 1, y - 1] + 2 * gray[x + 1, y] + gray[x + 1, y + 1]
                - gray[x - 1, y - 1] - 2 * gray[x - 1, y] - gray[x - 1, y + 1]) / 12.0
    ixx[x, y] = ix[x, y] * ix[x, y]; iyy[x, y] = iy[x, y] * iy[x, y]; ixy[x, y] = ix[x, y] * iy[x, y]

    def box(f):
        return sum(f[x + i, y + j] for i in (-1, 0, 1) for j in (-1, 0, 1))
    sxx[x, y] = box(ixx); syy[x, y] = box(iyy); sxy[x, y] = box(ixy)
    det = sxx[x, y] * syy[x, y] - sxy[x, y] * sxy[x, y]
    tr = sxx[x, y] + syy[x, y]
    o[x, y] = det - 0.04 * tr * tr
    est_in(inp, E['W'], E['H'], 3); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("sobel_mag_atan2", "sobel magnitude (sqrt) and orientation (atan2), two outputs, mirror_image", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def sobel(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.mirror_image(inp)
    sx, sy, gx, gy, mag, ang = [F(n) for n in ("s_sx", "s_sy", "s_gx", "s_gy", "s_mag", "s_ang")]
    sx[x, y] = e[x, y - 1] + 2 * e[x, y] + e[x, y + 1]
    sy[x, y] = e[x - 1, y] + 2 * e[x, y] + e[x + 1, y]
    gx[x, y] = sx[x + 1, y] - sx[x - 1, y]
    gy[x, y] = sy[x, y + 1] - sy[x, y - 1]
    mag[x, y] = hl.sqrt(gx[x, y] * gx[x, y] + gy[x, y] * gy[x, y])
    ang[x, y] = hl.atan2(gy[x, y], gx[x, y])
    est_in(inp, E['W'], E['H']); est_out(mag, [x, y], E['W'], E['H']); est_out(ang, [x, y], E['W'], E['H'])
    return [mag, ang], [inp]


@spec("bayer_demosaic", "bilinear RGGB demosaic, select on x%2,y%2, uint16 in -> float RGB out", WH2,
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(r.integers(0, 1024, size=(v['W'], v['H'])).astype(np.uint16))])
def bayer(S, E):
    raw = hl.ImageParam(U16, 2, "raw")
    x, y, c = V("x", "y", "c")
    e = BF.mirror_interior(raw)
    f = F("rawf"); f[x, y] = hl.f32(e[x, y])
    hz = F("b_h"); hz[x, y] = (f[x - 1, y] + f[x + 1, y]) * 0.5
    vt = F("b_v"); vt[x, y] = (f[x, y - 1] + f[x, y + 1]) * 0.5
    dg = F("b_d"); dg[x, y] = (f[x - 1, y - 1] + f[x + 1, y - 1] + f[x - 1, y + 1] + f[x + 1, y + 1]) * 0.25
    cr = F("b_cross"); cr[x, y] = (hz[x, y] + vt[x, y]) * 0.5
    ex, ey = (x % 2 == 0), (y % 2 == 0)
    R = hl.select(ex & ey, f[x, y], ~ex & ey, hz[x, y], ex & ~ey, vt[x, y], dg[x, y])
    G = hl.select((ex & ey) | (~ex & ~ey), cr[x, y], f[x, y])
    B = hl.select(~ex & ~ey, f[x, y], ex & ~ey, hz[x, y], ~ex & ey, vt[x, y], dg[x, y])
    o = F("demosaic")
    o[x, y, c] = hl.select(c == 0, R, c == 1, G, B) / 1023.0
    est_in(raw, E['W'], E['H']); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [raw]


@spec("lens_remap", "lens undistortion: per-pixel float coords (k1,k2), bilinear gather with clamped indices", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def lens(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    W, H = inp.width(), inp.height()
    cx, cy = hl.f32(W) * 0.5, hl.f32(H) * 0.5
    fo = hl.f32(hl.max(W, H)) * 0.5 + 1.0
    coord = F("coords")
    u = (hl.f32(x) - cx) / fo; v = (hl.f32(y) - cy) / fo
    r2 = u * u + v * v
    s = 1.0 + 0.12 * r2 + 0.03 * r2 * r2
    coord[x, y] = (cx + u * s * fo, cy + v * s * fo)
    sx, sy = coord[x, y][0], coord[x, y][1]
    fx, fy = hl.floor(sx), hl.floor(sy)
    ix, iy = hl.i32(fx), hl.i32(fy)
    ax, ay = sx - fx, sy - fy

    def at(a, b):
        return inp[hl.clamp(a, 0, W - 1), hl.clamp(b, 0, H - 1)]
    o = F("remap")
    o[x, y] = hl.lerp(hl.lerp(at(ix, iy), at(ix + 1, iy), ax), hl.lerp(at(ix, iy + 1), at(ix + 1, iy + 1), ax), ay)
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("morph_open_rdom", "opening: 5x5 erosion (RDom minimum) then 5x5 dilation (RDom maximum), uint8", WH2,
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def morph(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    ero, dil = F("erode"), F("dilate")
    ero[x, y] = hl.minimum(e[x + r.x, y + r.y])
    dil[x, y] = hl.maximum(ero[x + r.x, y + r.y])
    est_in(inp, E['W'], E['H']); est_out(dil, [x, y], E['W'], E['H'])
    return [dil], [inp]


@spec("integral_box", "integral image (x-scan and y-scan as updates on one Func), 9x9 box via 4 lookups, int32", WH2,
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def integral(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    W, H = inp.width(), inp.height()
    ii = F("integral")
    ii[x, y] = hl.i32(inp[x, y])
    rx = hl.RDom([hl.Range(1, W - 1)], "rx"); ry = hl.RDom([hl.Range(1, H - 1)], "ry")
    ii[rx, y] = ii[rx, y] + ii[rx - 1, y]
    ii[x, ry] = ii[x, ry] + ii[x, ry - 1]
    iz = F("integral_z")
    iz[x, y] = hl.select((x < 0) | (y < 0), 0, ii[hl.clamp(x, 0, W - 1), hl.clamp(y, 0, H - 1)])
    o = F("boxsum")
    o[x, y] = iz[x + 4, y + 4] - iz[x - 5, y + 4] - iz[x + 4, y - 5] + iz[x - 5, y - 5]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("guided_filter", "guided filter r=3: box means of I, p, I*p, I*I, a/b then box means again", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32)), fa(r.random((v['W'], v['H'])).astype(np.float32))],
      tol=1e-3)
def guided(S, E):
    I = hl.ImageParam(F32, 2, "I"); P = hl.ImageParam(F32, 2, "P")
    x, y = V("x", "y")
    Ie, Pe = BF.repeat_edge(I), BF.repeat_edge(P)
    rr = hl.RDom([hl.Range(-3, 7)], "rr")
    cnt = 49.0

    def boxmean(expr_f, n):
        bx, by = F(n + "_bx"), F(n + "_by")
        bx[x, y] = hl.sum(expr_f[x + rr, y])
        by[x, y] = hl.sum(bx[x, y + rr]) / cnt
        return by
    ip = F("g_ip"); ip[x, y] = Ie[x, y] * Pe[x, y]
    i2 = F("g_ii"); i2[x, y] = Ie[x, y] * Ie[x, y]
    iw = F("g_I"); iw[x, y] = Ie[x, y]
    pw = F("g_P"); pw[x, y] = Pe[x, y]
    mI, mP, mIP, mII = boxmean(iw, "mI"), boxmean(pw, "mP"), boxmean(ip, "mIP"), boxmean(i2, "mII")
    a = F("g_a"); b = F("g_b")
    a[x, y] = (mIP[x, y] - mI[x, y] * mP[x, y]) / (mII[x, y] - mI[x, y] * mI[x, y] + 0.01)
    b[x, y] = mP[x, y] - a[x, y] * mI[x, y]
    ma, mb = boxmean(a, "ma"), boxmean(b, "mb")
    o = F("guided")
    o[x, y] = ma[x, y] * I[x, y] + mb[x, y]
    est_in(I, E['W'], E['H']); est_in(P, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [I, P]


@spec("tile_histogram", "16-bin histogram per 16x16 tile (RDom scatter with pure tile vars), TW,TH ranged",
      {'TW': (1, 64), 'TH': (1, 50)},
      outs=lambda v: [(I32, [16, v['TW'], v['TH']])],
      data=lambda v, r: [rimg(r, (16 * v['TW'], 16 * v['TH']), np.uint8)])
def tile_hist(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    b, tx, ty = V("b", "tx", "ty")
    r = hl.RDom([hl.Range(0, 16), hl.Range(0, 16)], "r")
    h = F("tilehist")
    h[b, tx, ty] = 0
    h[hl.i32(inp[tx * 16 + r.x, ty * 16 + r.y] >> 4), tx, ty] += 1
    est_in(inp, 16 * E['TW'], 16 * E['TH']); est_out(h, [b, tx, ty], 16, E['TW'], E['TH'])
    return [h], [inp]


@spec("bilateral5x5_exp", "5x5 bilateral with exp range+space weights, normalized, repeat_edge", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def bil5(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    wgt = F("bw")
    d = e[x + r.x, y + r.y] - e[x, y]
    num, den, o = F("bnum"), F("bden"), F("bil5")
    w_ = hl.exp(-(d * d) * 20.0 - hl.f32(r.x * r.x + r.y * r.y) * 0.125)
    num[x, y] = 0.0; den[x, y] = 0.0
    num[x, y] += w_ * e[x + r.x, y + r.y]
    den[x, y] += w_
    wgt[x, y] = 1.0 / den[x, y]
    o[x, y] = num[x, y] * wgt[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("alpha_blend_param", "alpha blend of two RGB images with float Param alpha, uint8 in/out, rounding", WH2,
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3), np.uint8), rimg(r, (v['W'], v['H'], 3), np.uint8)])
def blend(S, E):
    a = hl.ImageParam(U8, 3, "a"); b = hl.ImageParam(U8, 3, "b")
    alpha = hl.Param(F32, "alpha", 0.3)
    x, y, c = V("x", "y", "c")
    o = F("blend")
    o[x, y, c] = hl.u8(hl.clamp(hl.f32(a[x, y, c]) * alpha + hl.f32(b[x, y, c]) * (1.0 - alpha) + 0.5, 0.0, 255.0))
    est_in(a, E['W'], E['H'], 3); est_in(b, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [a, b]


@spec("rgb_hsv_roundtrip", "RGB->HSV (max/min, hue via selects), saturation boost, HSV->RGB (6-way select)", WH2,
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'], 3)).astype(np.float32))], tol=1e-3)
def hsv(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    R, G, B = inp[x, y, 0], inp[x, y, 1], inp[x, y, 2]
    mx, mn, hsvf, o = F("hmax"), F("hmin"), F("hsv"), F("rgb_out")
    mx[x, y] = hl.max(R, hl.max(G, B)); mn[x, y] = hl.min(R, hl.min(G, B))
    dl = mx[x, y] - mn[x, y] + 1e-6
    h = hl.select(mx[x, y] == R, (G - B) / dl, mx[x, y] == G, 2.0 + (B - R) / dl, 4.0 + (R - G) / dl)
    h = h / 6.0
    h = hl.select(h < 0, h + 1.0, h)
    s = hl.select(mx[x, y] > 0, dl / (mx[x, y] + 1e-6), 0.0)
    hsvf[x, y, c] = hl.select(c == 0, h, c == 1, hl.min(s * 1.3, 1.0), mx[x, y])
    H6 = hsvf[x, y, 0] * 6.0
    i = hl.i32(hl.floor(H6)) % 6
    f = H6 - hl.floor(H6)
    S_, Vv = hsvf[x, y, 1], hsvf[x, y, 2]
    p = Vv * (1 - S_); q = Vv * (1 - S_ * f); t = Vv * (1 - S_ * (1 - f))
    rr = hl.select(i == 0, Vv, i == 1, q, i == 2, p, i == 3, p, i == 4, t, Vv)
    gg = hl.select(i == 0, t, i == 1, Vv, i == 2, Vv, i == 3, q, i == 4, p, p)
    bb = hl.select(i == 0, p, i == 1, p, i == 2, t, i == 3, Vv, i == 4, Vv, q)
    o[x, y, c] = hl.select(c == 0, rr, c == 1, gg, bb)
    est_in(inp, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [inp]


@spec("gauss_pyramid4", "gaussian pyramid, 4 levels, each a Func with clamp()ed reads of the previous level; 3 outputs",
      {'W': (8, 1000), 'H': (8, 800)},
      outs=lambda v: [(F32, [v['W'] >> 1, v['H'] >> 1]), (F32, [v['W'] >> 2, v['H'] >> 2]), (F32, [v['W'] >> 3, v['H'] >> 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def gpyr(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    lv = [F("lvl0")]
    lv[0][x, y] = inp[hl.clamp(x, 0, W - 1), hl.clamp(y, 0, H - 1)]
    for k in range(1, 4):
        prev = lv[-1]; pw, ph = (W >> (k - 1)), (H >> (k - 1))
        dx = F("lvl%d_dx" % k); d = F("lvl%d" % k)

        def P(a, b):
            return prev[hl.clamp(a, 0, pw - 1), b]
        dx[x, y] = (P(2 * x - 1, y) + 3 * P(2 * x, y) + 3 * P(2 * x + 1, y) + P(2 * x + 2, y)) * 0.125
        cy = lambda b: hl.clamp(b, 0, ph - 1)
        d[x, y] = (dx[x, cy(2 * y - 1)] + 3 * dx[x, cy(2 * y)] + 3 * dx[x, cy(2 * y + 1)] + dx[x, cy(2 * y + 2)]) * 0.125
        lv.append(d)
    est_in(inp, E['W'], E['H'])
    for k in range(1, 4):
        est_out(lv[k], [x, y], E['W'] >> k if isinstance(E['W'], int) else E['W'] / (1 << k),
                E['H'] >> k if isinstance(E['H'], int) else E['H'] / (1 << k))
    return [lv[1], lv[2], lv[3]], [inp]


@spec("unsharp_u8_sat", "unsharp mask on uint8 RGB: 5-tap u16 blur per channel, sharpen in i16, u8_sat", WH2,
      outs=lambda v: [(U8, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3), np.uint8)])
def unsharp8(S, E):
    inp = hl.ImageParam(U8, 3, "inp")
    x, y, c = V("x", "y", "c")
    e = BF.repeat_edge(inp)
    bx, by, o = F("u8_bx"), F("u8_by"), F("u8_sharp")
    k = [1, 4, 6, 4, 1]
    bx[x, y, c] = sum(hl.u16(e[x + i - 2, y, c]) * k[i] for i in range(5))
    by[x, y, c] = sum(hl.u32(bx[x, y + i - 2, c]) * k[i] for i in range(5))
    blur = hl.i16((by[x, y, c] + 128) >> 8)
    o[x, y, c] = hl.u8_sat(hl.i16(e[x, y, c]) + (hl.i16(e[x, y, c]) - blur) * 3 / 2)
    est_in(inp, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [inp]


# ================================================================ NN / other
@spec("batchnorm_relu_nchw", "batchnorm (per-channel mean/var/gamma/beta inputs) + ReLU, NCHW, C=64",
      {'W': (1, 112), 'H': (1, 112), 'B': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H'], 64, v['B']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 64, v['B']))] + [rimg(r, (64,)) for _ in range(3)] +
      [fa(r.random(64).astype(np.float32) + 0.5)])
def bn(S, E):
    inp = hl.ImageParam(F32, 4, "inp")
    mean, gamma, beta, var = [hl.ImageParam(F32, 1, n) for n in ("mean", "gamma", "beta", "var")]
    x, y, c, n = V("x", "y", "c", "n")
    sc, sh, o = F("bn_scale"), F("bn_shift"), F("bn_relu")
    sc[c] = gamma[c] / hl.sqrt(var[c] + 1e-5)
    sh[c] = beta[c] - mean[c] * sc[c]
    o[x, y, c, n] = hl.max(inp[x, y, c, n] * sc[c] + sh[c], 0.0)
    est_in(inp, E['W'], E['H'], 64, E['B'])
    for p in (mean, gamma, beta, var):
        est_in(p, 64)
    est_out(o, [x, y, c, n], E['W'], E['H'], 64, E['B'])
    return [o], [inp, mean, gamma, beta, var]


@spec("global_avg_pool", "global average pool NCHW -> (c,n), RDom over the input's W,H, C=256",
      {'W': (1, 56), 'H': (1, 56), 'B': (1, 8)},
      outs=lambda v: [(F32, [256, v['B']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 256, v['B']))], tol=1e-3)
def gap(S, E):
    inp = hl.ImageParam(F32, 4, "inp")
    c, n = V("c", "n")
    r = hl.RDom([hl.Range(0, inp.dim(0).extent()), hl.Range(0, inp.dim(1).extent())], "r")
    o = F("gap")
    o[c, n] = hl.sum(inp[r.x, r.y, c, n]) / hl.f32(inp.dim(0).extent() * inp.dim(1).extent())
    est_in(inp, E['W'], E['H'], 256, E['B']); est_out(o, [c, n], 256, E['B'])
    return [o], [inp]


@spec("rmsnorm", "RMSNorm over C=768 (innermost) with weight, T ranged", {'T': (1, 512)},
      outs=lambda v: [(F32, [768, v['T']])],
      data=lambda v, r: [rimg(r, (768, v['T'])), rimg(r, (768,))], tol=1e-3)
def rms(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); w = hl.ImageParam(F32, 1, "w")
    c, t = V("c", "t")
    r = hl.RDom([hl.Range(0, 768)], "r")
    ms, o = F("ms"), F("rmsnorm")
    ms[t] = hl.sum(inp[r, t] * inp[r, t]) / 768.0
    o[c, t] = inp[c, t] * hl.fast_inverse_sqrt(ms[t] + 1e-6) * w[c] if False else inp[c, t] / hl.sqrt(ms[t] + 1e-6) * w[c]
    est_in(inp, 768, E['T']); est_in(w, 768); est_out(o, [c, t], 768, E['T'])
    return [o], [inp, w]


@spec("softmax_outer_dim", "softmax over the outer (non-innermost) dim: in[n,t], normalize over t for each n",
      {'N': (1, 1000), 'T': (1, 300)},
      outs=lambda v: [(F32, [v['N'], v['T']])],
      data=lambda v, r: [rimg(r, (v['N'], v['T']))], tol=1e-3)
def sm_outer(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    n, t = V("n", "t")
    r = hl.RDom([hl.Range(0, inp.height())], "r")
    mx, ex, sm, o = F("so_max"), F("so_exp"), F("so_sum"), F("softmax_t")
    mx[n] = hl.maximum(inp[n, r])
    ex[n, t] = hl.exp(inp[n, t] - mx[n])
    sm[n] = hl.sum(ex[n, r])
    o[n, t] = ex[n, t] / sm[n]
    est_in(inp, E['N'], E['T']); est_out(o, [n, t], E['N'], E['T'])
    return [o], [inp]


@spec("embedding_lookup", "embedding: int32 ids ImageParam gathers rows of table[d, v] (D=256, V=5000), scaled + pos",
      {'T': (1, 1024)},
      outs=lambda v: [(F32, [256, v['T']])],
      data=lambda v, r: [fa(r.integers(-3, 5003, size=(v['T'],)).astype(np.int32)), rimg(r, (256, 5000)),
                         rimg(r, (256, 1024 + 1024 // 4 + 3))])
def embed(S, E):
    ids = hl.ImageParam(I32, 1, "ids"); table = hl.ImageParam(F32, 2, "table"); pos = hl.ImageParam(F32, 2, "pos")
    d, t = V("d", "t")
    idc = F("idc"); idc[t] = hl.clamp(ids[t], 0, 4999)
    o = F("embed")
    o[d, t] = table[d, idc[t]] * 16.0 + pos[d, t]
    est_in(ids, E['T']); est_in(table, 256, 5000); est_in(pos, 256, 1024); est_out(o, [d, t], 256, E['T'])
    return [o], [ids, table, pos]


@spec("gru_cell", "GRU cell: Wx (3H x X) and Uh (3H x H) matvecs per batch, sigmoid/tanh gates, H=X=256",
      {'B': (1, 64)},
      outs=lambda v: [(F32, [256, v['B']])],
      data=lambda v, r: [rimg(r, (256, v['B'])), rimg(r, (256, v['B'])), fa((r.standard_normal((256, 768)) * 0.06).astype(np.float32)),
                         fa((r.standard_normal((256, 768)) * 0.06).astype(np.float32)), rimg(r, (768,))], tol=1e-3)
def gru(S, E):
    xin = hl.ImageParam(F32, 2, "xin"); hin = hl.ImageParam(F32, 2, "hin")
    Wx = hl.ImageParam(F32, 2, "Wx"); Uh = hl.ImageParam(F32, 2, "Uh"); bias = hl.ImageParam(F32, 1, "bias")
    j, b = V("j", "b")
    r = hl.RDom([hl.Range(0, 256)], "r")
    gx, gh = F("gru_gx"), F("gru_gh")
    gx[j, b] = bias[j]
    gx[j, b] += Wx[r, j] * xin[r, b]
    gh[j, b] = 0.0
    gh[j, b] += Uh[r, j] * hin[r, b]
    sig = lambda e: 1.0 / (1.0 + hl.exp(-e))
    z, rg, n, o = F("gru_z"), F("gru_r"), F("gru_n"), F("gru_h")
    z[j, b] = sig(gx[j, b] + gh[j, b])
    rg[j, b] = sig(gx[j + 256, b] + gh[j + 256, b])
    n[j, b] = hl.tanh(gx[j + 512, b] + rg[j, b] * gh[j + 512, b])
    o[j, b] = (1.0 - z[j, b]) * n[j, b] + z[j, b] * hin[j, b]
    est_in(xin, 256, E['B']); est_in(hin, 256, E['B']); est_in(Wx, 256, 768); est_in(Uh, 256, 768); est_in(bias, 768)
    est_out(o, [j, b], 256, E['B'])
    return [o], [xin, hin, Wx, Uh, bias]


@spec("argmax_classes_outer", "top-1 over classes with hl.argmax, classes the OUTER dim logits[n,c], plus max prob",
      {'N': (1, 512), 'C': (1, 1000)},
      outs=lambda v: [(I32, [v['N']]), (F32, [v['N']])],
      data=lambda v, r: [rimg(r, (v['N'], v['C']))])
def argmax_outer(S, E):
    lg = hl.ImageParam(F32, 2, "logits")
    n, = V("n")
    r = hl.RDom([hl.Range(0, lg.height())], "r")
    am = F("am")
    am[n] = hl.argmax(lg[n, r])
    top, val = F("top1"), F("topval")
    top[n] = am[n][0]
    val[n] = am[n][1]
    est_in(lg, E['N'], E['C']); est_out(top, [n], E['N']); est_out(val, [n], E['N'])
    return [top, val], [lg]


@spec("cumsum_outer_z", "cumulative sum along the outermost dim z of (x,y,z), separate Func with RDom(1, Z-1) update",
      {'W': (1, 300), 'H': (1, 200), 'Z': (1, 32)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['Z']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['Z']))], tol=1e-3)
def cumsum_z(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, z = V("x", "y", "z")
    sq = F("cz_in"); sq[x, y, z] = inp[x, y, z] * 0.5
    cs = F("cumsum_z")
    cs[x, y, z] = sq[x, y, z]
    r = hl.RDom([hl.Range(1, S['Z'] - 1)], "r")
    cs[x, y, r] = cs[x, y, r - 1] + sq[x, y, r]
    est_in(inp, E['W'], E['H'], E['Z']); est_out(cs, [x, y, z], E['W'], E['H'], E['Z'])
    return [cs], [inp]


@spec("fir_ranged_taps", "1-D FIR, taps a ranged Param (RDom(0,taps)), input length N+taps-1, 4 channels outer",
      {'N': (1, 100000), 'TAPS': (1, 64)},
      outs=lambda v: [(F32, [v['N'], 4])],
      data=lambda v, r: [rimg(r, (v['N'] + v['TAPS'] - 1, 4)), rimg(r, (v['TAPS'],))], tol=1e-3)
def fir(S, E):
    sig = hl.ImageParam(F32, 2, "sig"); h = hl.ImageParam(F32, 1, "h")
    x, c = V("x", "c")
    r = hl.RDom([hl.Range(0, S['TAPS'])], "r")
    o = F("fir")
    o[x, c] = 0.0
    o[x, c] += h[r] * sig[x + r, c]
    est_in(sig, E['N'] + E['TAPS'] - 1, 4); est_in(h, E['TAPS']); est_out(o, [x, c], E['N'], 4)
    return [o], [sig, h]


@spec("scalar_reduction_0d", "0-D output: total energy sum over an image (f[()] += ...), via a squared Func",
      WH2,
      outs=lambda v: [(hl.Float(64), [])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-6)
def scalar0d(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    sq = F("sq0"); sq[x, y] = hl.f64(inp[x, y]) * hl.f64(inp[x, y])
    r = hl.RDom([hl.Range(0, inp.width()), hl.Range(0, inp.height())], "r")
    tot = F("total")
    tot[()] = hl.f64(0)
    tot[()] += sq[r.x, r.y]
    est_in(inp, E['W'], E['H'])
    tot.set_estimates([])
    return [tot], [inp]


@spec("mask_bool_and_u8", "two outputs: bool mask (local max & above threshold) and uint8 255/0 mask", WH2,
      outs=lambda v: [(hl.Bool(), [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def masks(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.constant_exterior(inp, -1e9)
    nm = F("nbr_max")
    nm[x, y] = hl.max(hl.max(e[x - 1, y], e[x + 1, y]), hl.max(e[x, y - 1], e[x, y + 1]))
    mb, m8 = F("mask_b"), F("mask_u8")
    mb[x, y] = (inp[x, y] > nm[x, y]) & (inp[x, y] > 0.5)
    m8[x, y] = hl.select(mb[x, y], hl.u8(255), hl.u8(0))
    est_in(inp, E['W'], E['H']); est_out(mb, [x, y], E['W'], E['H']); est_out(m8, [x, y], E['W'], E['H'])
    return [mb, m8], [inp]


@spec("concat_two_inputs", "two ImageParams of different ranged widths W1, W2 concatenated along x, then 3-tap blur",
      {'W1': (1, 600), 'W2': (1, 400), 'H': (1, 500)},
      outs=lambda v: [(F32, [v['W1'] + v['W2'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W1'], v['H'])), rimg(r, (v['W2'], v['H']))])
def concat(S, E):
    a = hl.ImageParam(F32, 2, "a"); b = hl.ImageParam(F32, 2, "b")
    x, y = V("x", "y")
    W1 = a.width()
    cat = F("cat")
    cat[x, y] = hl.select(x < W1, a[hl.clamp(x, 0, W1 - 1), y], b[hl.clamp(x - W1, 0, b.width() - 1), y])
    o = F("cat_blur")
    xl, xr = hl.max(x - 1, 0), hl.min(x + 1, W1 + b.width() - 1)
    o[x, y] = (cat[xl, y] + 2 * cat[x, y] + cat[xr, y]) * 0.25
    est_in(a, E['W1'], E['H']); est_in(b, E['W2'], E['H']); est_out(o, [x, y], E['W1'] + E['W2'], E['H'])
    return [o], [a, b]


# ================================================================ batch 2
@spec("box_radius_param", "box blur with a ranged radius Param R (RDom(-R, 2R+1)), separable inline hl.sum, float",
      {'W': (1, 1000), 'H': (1, 800), 'R': (0, 8)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def box_radius(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    R = S['R']
    e = BF.repeat_edge(inp)
    r = hl.RDom([hl.Range(-R, 2 * R + 1)], "r")
    bx, by = F("rb_x"), F("rb_y")
    bx[x, y] = hl.sum(e[x + r, y])
    by[x, y] = hl.sum(bx[x, y + r]) / hl.f32((2 * R + 1) * (2 * R + 1))
    est_in(inp, E['W'], E['H']); est_out(by, [x, y], E['W'], E['H'])
    return [by], [inp]


@spec("local_contrast_norm", "local contrast normalization: inline-sum box mean/var, normalized image box-filtered again",
      WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def lcn(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    rr = hl.RDom([hl.Range(-2, 5)], "rr")

    def box(f, n):
        bx, by = F(n + "_bx"), F(n + "_by")
        bx[x, y] = hl.sum(f[x + rr, y])
        by[x, y] = hl.sum(bx[x, y + rr]) / 25.0
        return by
    src = F("lcn_src"); src[x, y] = e[x, y]
    sq = F("lcn_sq"); sq[x, y] = e[x, y] * e[x, y]
    m, m2 = box(src, "lm"), box(sq, "lm2")
    nrm = F("lcn_norm")
    nrm[x, y] = (src[x, y] - m[x, y]) / hl.sqrt(hl.max(m2[x, y] - m[x, y] * m[x, y], 0.0) + 1e-2)
    d = F("lcn_d"); d[x, y] = nrm[x, y] * m[x, y]
    sm = box(d, "ls")
    o = F("lcn")
    o[x, y] = sm[x, y] + nrm[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("dog_two_outputs", "difference of gaussians: g1=blur(I), g2=blur(g1); outputs I-g1 and g1-g2 (shared producers)", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def dog(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.mirror_interior(inp)

    def blur(f, n):
        bx, by = F(n + "_x"), F(n + "_y")
        bx[x, y] = (f[x - 2, y] + 4 * f[x - 1, y] + 6 * f[x, y] + 4 * f[x + 1, y] + f[x + 2, y]) / 16.0
        by[x, y] = (bx[x, y - 2] + 4 * bx[x, y - 1] + 6 * bx[x, y] + 4 * bx[x, y + 1] + bx[x, y + 2]) / 16.0
        return by
    g1 = blur(e, "g1"); g2 = blur(g1, "g2")
    d1, d2 = F("dog1"), F("dog2")
    d1[x, y] = inp[x, y] - g1[x, y]
    d2[x, y] = g1[x, y] - g2[x, y]
    est_in(inp, E['W'], E['H']); est_out(d1, [x, y], E['W'], E['H']); est_out(d2, [x, y], E['W'], E['H'])
    return [d1, d2], [inp]


@spec("lstm_cell", "LSTM cell: one fused 4H-row matvec over [x;h] (two RDoms as updates), gate slices j+k*H, c/h outputs",
      {'B': (1, 64)},
      outs=lambda v: [(F32, [256, v['B']]), (F32, [256, v['B']])],
      data=lambda v, r: [rimg(r, (256, v['B'])), rimg(r, (256, v['B'])), rimg(r, (256, v['B'])),
                         fa((r.standard_normal((256, 1024)) * 0.06).astype(np.float32)),
                         fa((r.standard_normal((256, 1024)) * 0.06).astype(np.float32))], tol=1e-3)
def lstm(S, E):
    xin, hin, cin = [hl.ImageParam(F32, 2, n) for n in ("xin", "hin", "cin")]
    Wx, Wh = hl.ImageParam(F32, 2, "Wx"), hl.ImageParam(F32, 2, "Wh")
    j, b = V("j", "b")
    r = hl.RDom([hl.Range(0, 256)], "r")
    g = F("lstm_gates")
    g[j, b] = 0.0
    g[j, b] += Wx[r, j] * xin[r, b]
    g[j, b] += Wh[r, j] * hin[r, b]
    sig = lambda e: 1.0 / (1.0 + hl.exp(-e))
    c, h = F("lstm_c"), F("lstm_h")
    c[j, b] = sig(g[j + 256, b]) * cin[j, b] + sig(g[j, b]) * hl.tanh(g[j + 512, b])
    h[j, b] = sig(g[j + 768, b]) * hl.tanh(c[j, b])
    for p in (xin, hin, cin):
        est_in(p, 256, E['B'])
    est_in(Wx, 256, 1024); est_in(Wh, 256, 1024)
    est_out(c, [j, b], 256, E['B']); est_out(h, [j, b], 256, E['B'])
    return [c, h], [xin, hin, cin, Wx, Wh]


@spec("nms_3x3_gather", "non-max suppression 3x3 on a score map, then gather of box params where kept (select), int output",
      WH2,
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'])), fa(r.integers(0, 100, size=(v['W'], v['H'])).astype(np.int32))])
def nms(S, E):
    sc = hl.ImageParam(F32, 2, "score"); lab = hl.ImageParam(I32, 2, "label")
    x, y = V("x", "y")
    e = BF.constant_exterior(sc, -1e30)
    r = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)], "r")
    mx = F("nms_max"); mx[x, y] = hl.maximum(e[x + r.x, y + r.y])
    keep = F("nms_keep"); keep[x, y] = (sc[x, y] >= mx[x, y]) & (sc[x, y] > 1.0)
    o = F("nms_out")
    o[x, y] = hl.select(keep[x, y], lab[x, y] + 1, 0)
    est_in(sc, E['W'], E['H']); est_in(lab, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [sc, lab]


# ================================================================ batch 3 (multi-consumer stencil DAGs)
def _box_sum(f, n, rr, x, y):
    bx, by = F(n + "_bx"), F(n + "_by")
    bx[x, y] = hl.sum(f[x + rr, y])
    by[x, y] = hl.sum(bx[x, y + rr]) / hl.f32(rr.x.extent() * rr.x.extent())
    return by


@spec("detail_enhance", "two-scale detail enhancement: base=box7(I), detail=I-base, out=box7(base)+2*detail+box7(detail)", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def detail(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    rr = hl.RDom([hl.Range(-3, 7)], "rr")
    src = F("de_src"); src[x, y] = e[x, y]
    base = _box_sum(src, "de_base", rr, x, y)
    det = F("de_detail"); det[x, y] = src[x, y] - base[x, y]
    b2 = _box_sum(base, "de_b2", rr, x, y)
    d2 = _box_sum(det, "de_d2", rr, x, y)
    o = F("detail_enh"); o[x, y] = b2[x, y] + 2.0 * det[x, y] + d2[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("structure_tensor_2r", "structure tensor: shared gradients boxed at radius 1 and radius 3, coherence ratio", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def stensor(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    gx = F("st_gx"); gx[x, y] = e[x + 1, y] - e[x - 1, y]
    gy = F("st_gy"); gy[x, y] = e[x, y + 1] - e[x, y - 1]
    gxy = F("st_gxy"); gxy[x, y] = gx[x, y] * gy[x, y]
    r1 = hl.RDom([hl.Range(-1, 3)], "r1"); r3 = hl.RDom([hl.Range(-3, 7)], "r3")
    a1 = _box_sum(gxy, "st_a1", r1, x, y); a3 = _box_sum(gxy, "st_a3", r3, x, y)
    n1 = F("st_n1"); n1[x, y] = gx[x, y] * gx[x, y] + gy[x, y] * gy[x, y]
    b3 = _box_sum(n1, "st_b3", r3, x, y)
    o = F("stensor"); o[x, y] = (a1[x, y] - a3[x, y]) / (b3[x, y] + 1e-3) + n1[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("retinex_multiscale", "multi-scale retinex: log image shared by 3 box scales (r=1,3,7) and the output", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32) + 0.1)], tol=1e-3)
def retinex(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    lg = F("rx_log"); lg[x, y] = hl.log(e[x, y] + 0.01)
    acc = 0
    for k, rad in enumerate((1, 3, 7)):
        rr = hl.RDom([hl.Range(-rad, 2 * rad + 1)], "rr%d" % k)
        bk = _box_sum(e, "rx_b%d" % k, rr, x, y)
        acc = acc + (lg[x, y] - hl.log(bk[x, y] + 0.01))
    o = F("retinex"); o[x, y] = acc / 3.0
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


# ================================================================ batch 4 (contractions, other layouts)
@spec("matmul_nt_linear", "Linear layer y = x W^T (+bias): both operands k-innermost, y[j,i]=sum_k x[k,i] W[k,j]",
      {'M': (1, 512)},
      outs=lambda v: [(F32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (256, v['M'])), rimg(r, (256, 256)), rimg(r, (256,))], tol=1e-3)
def mm_nt(S, E):
    X = hl.ImageParam(F32, 2, "X"); Wt = hl.ImageParam(F32, 2, "Wt"); b = hl.ImageParam(F32, 1, "b")
    j, i = V("j", "i")
    r = hl.RDom([hl.Range(0, 256)], "r")
    y = F("linear")
    y[j, i] = b[j]
    y[j, i] += X[r, i] * Wt[r, j]
    est_in(X, 256, E['M']); est_in(Wt, 256, 256); est_in(b, 256); est_out(y, [j, i], 256, E['M'])
    return [y], [X, Wt, b]


@spec("matmul_i16_i32", "int16 x int16 -> int32 matmul (explicit i32 casts), K=128", {'M': (1, 256), 'N': (1, 256)},
      outs=lambda v: [(I32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (128, v['M']), np.int16), rimg(r, (v['N'], 128), np.int16)])
def mm_i16(S, E):
    A = hl.ImageParam(hl.Int(16), 2, "A"); B = hl.ImageParam(hl.Int(16), 2, "B")
    j, i = V("j", "i")
    r = hl.RDom([hl.Range(0, 128)], "r")
    c = F("mm_i32")
    c[j, i] = hl.sum(hl.i32(A[r, i]) * hl.i32(B[j, r]))
    est_in(A, 128, E['M']); est_in(B, E['N'], 128); est_out(c, [j, i], E['N'], E['M'])
    return [c], [A, B]


@spec("matmul_2d_rdom_k", "matmul whose reduction is a 2-D RDom (k = r.x + 16*r.y, 256 total)", {'M': (1, 256)},
      outs=lambda v: [(F32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (256, v['M'])), rimg(r, (256, 256))], tol=1e-3)
def mm_2d(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    j, i = V("j", "i")
    r = hl.RDom([hl.Range(0, 16), hl.Range(0, 16)], "r")
    c = F("mm2d")
    c[j, i] = 0.0
    c[j, i] += A[r.x + 16 * r.y, i] * B[j, r.x + 16 * r.y]
    est_in(A, 256, E['M']); est_in(B, 256, 256); est_out(c, [j, i], 256, E['M'])
    return [c], [A, B]


@spec("matmul_transposed_consumer", "C = A*B then out[i,j] = relu(C[j,i] + bias[i]): consumer reads the matmul transposed",
      {'M': (1, 384), 'N': (1, 384)},
      outs=lambda v: [(F32, [v['M'], v['N']])],
      data=lambda v, r: [rimg(r, (128, v['M'])), rimg(r, (v['N'], 128)), rimg(r, (v['M'],))], tol=1e-3)
def mm_tc(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); bias = hl.ImageParam(F32, 1, "bias")
    j, i = V("j", "i")
    r = hl.RDom([hl.Range(0, 128)], "r")
    c = F("mm_c")
    c[j, i] = 0.0
    c[j, i] += A[r, i] * B[j, r]
    o = F("mm_t_out")
    o[i, j] = hl.max(c[j, i] + bias[i], 0.0)
    est_in(A, 128, E['M']); est_in(B, E['N'], 128); est_in(bias, E['M']); est_out(o, [i, j], E['M'], E['N'])
    return [o], [A, B, bias]


@spec("conv2d_stride2_sum", "conv2d 3x3 stride 2 (reads 2x+kx), inline hl.sum over (ci,ky,kx), CI=16, CO=32, NCHW",
      {'W': (1, 64), 'H': (1, 64)},
      outs=lambda v: [(F32, [v['W'], v['H'], 32])],
      data=lambda v, r: [rimg(r, (2 * v['W'] + 1, 2 * v['H'] + 1, 16)), rimg(r, (3, 3, 16, 32))], tol=1e-3)
def conv_s2(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w")
    x, y, co = V("x", "y", "co")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3), hl.Range(0, 16)], "r")
    o = F("conv_s2")
    o[x, y, co] = hl.sum(w[r.x, r.y, r.z, co] * inp[2 * x + r.x, 2 * y + r.y, r.z])
    est_in(inp, 2 * E['W'] + 1, 2 * E['H'] + 1, 16); est_in(w, 3, 3, 16, 32); est_out(o, [x, y, co], E['W'], E['H'], 32)
    return [o], [inp, w]


# ================================================================ batch 5
@spec("variance_ratio_hlsum", "m=box5(I), v=box5(I*I)-m^2 (m read pointwise), out=box5(v)/(box5(m)+eps), inline hl.sum", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=1e-3)
def varratio(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    rr = hl.RDom([hl.Range(-2, 5)], "rr")
    src = F("vr_src"); src[x, y] = e[x, y]
    sq = F("vr_sq"); sq[x, y] = e[x, y] * e[x, y]
    m = _box_sum(src, "vr_m", rr, x, y); m2 = _box_sum(sq, "vr_m2", rr, x, y)
    var = F("vr_var"); var[x, y] = m2[x, y] - m[x, y] * m[x, y]
    bv = _box_sum(var, "vr_bv", rr, x, y); bm = _box_sum(m, "vr_bm", rr, x, y)
    o = F("var_ratio"); o[x, y] = bv[x, y] / (bm[x, y] + 1.0)
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("pyramid_hlsum_2x2", "3-level pyramid: 2x2 RDom-sum downsample, nearest upsample, residual add at each level", {'W': (8, 1000), 'H': (8, 800)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def pyr_sum(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    lv = [F("ps_l0")]; lv[0][x, y] = e[x, y]
    for k in range(1, 4):
        d = F("ps_l%d" % k); d[x, y] = hl.sum(lv[-1][2 * x + r.x, 2 * y + r.y]) * 0.25
        lv.append(d)
    up = lv[3]
    for k in (2, 1, 0):
        u = F("ps_up%d" % k)
        u[x, y] = up[x / 2, y / 2] + 0.5 * (lv[k][x, y] - lv[k + 1][x / 2, y / 2])
        up = u
    o = F("pyr_sum"); o[x, y] = up[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("census_5x5", "census transform 5x5: bit-packed comparisons via hl.sum(select(..., 1<<bit, 0)), uint32 out", WH2,
      outs=lambda v: [(hl.UInt(32), [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def census(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    bit = hl.u32(r.x + 2 + 5 * (r.y + 2))
    o = F("census")
    o[x, y] = hl.sum(hl.select(e[x + r.x, y + r.y] > e[x, y], hl.u32(1) << bit, hl.u32(0)))
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("stereo_sad_argmin", "stereo block matching: SAD over 5x5 for D=32 disparities, then argmin over d (hl.argmin)", 
      {'W': (1, 640), 'H': (1, 480)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8), rimg(r, (v['W'], v['H']), np.uint8)])
def stereo(S, E):
    L = hl.ImageParam(U8, 2, "L"); Rt = hl.ImageParam(U8, 2, "R")
    x, y, d = V("x", "y", "d")
    le, re_ = BF.repeat_edge(L), BF.repeat_edge(Rt)
    diff = F("sad_diff"); diff[x, y, d] = hl.absd(hl.u16(le[x, y]), hl.u16(re_[x - d, y]))
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    cost = F("sad_cost"); cost[x, y, d] = hl.sum(hl.u32(diff[x + r.x, y + r.y, d]))
    rd = hl.RDom([hl.Range(0, 32)], "rd")
    o = F("disparity"); o[x, y] = hl.argmin(cost[x, y, rd])[0]
    est_in(L, E['W'], E['H']); est_in(Rt, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [L, Rt]


@spec("sharpen_hlsum", "sharpen: out = I + 1.5*(I - box5(I)) with inline hl.sum box, float", WH2,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def sharpen_sum(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    rr = hl.RDom([hl.Range(-2, 5)], "rr")
    src = F("sh_src"); src[x, y] = e[x, y]
    b = _box_sum(src, "sh_b", rr, x, y)
    o = F("sharpen"); o[x, y] = src[x, y] + 1.5 * (src[x, y] - b[x, y])
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]
