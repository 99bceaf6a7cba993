"""Red-team pipelines for Diet. Each spec: name, style, ranges {P: (lo, hi)}, build(S, E) -> (outputs, inputs),
data(v, rng) -> list of numpy arrays (Halide dim order, Fortran layout), outs(v) -> list of (hl type, shape),
optional tests (list of dicts of values), times (small, large).
S: dict of ranged hl.Param (always Params, may be used in the algorithm); E: what the estimates use
(the Params themselves for Diet, constant ints for Adams2019/Mullapudi2016)."""
import halide as hl
import numpy as np

F32, U8, U16, I8, I32 = hl.Float(32), hl.UInt(8), hl.UInt(16), hl.Int(8), hl.Int(32)
SPECS = {}


def spec(name, style, ranges, outs, data, tests=None, times=None, tol=None, **kw):
    def deco(build):
        SPECS[name] = dict(name=name, style=style, ranges=ranges, build=build, outs=outs, data=data,
                           tests=tests, times=times, tol=tol, **kw)
        return build
    return deco


CREATED = []


def F(n):
    f = hl.Func(n)
    CREATED.append(f)
    return f


def V(*names):
    return [hl.Var(n) for n in names]


def est_in(ip, *exts):
    for i, e in enumerate(exts):
        ip.dim(i).set_estimate(0, e)


def est_out(f, vars_, *exts):
    for v, e in zip(vars_, exts):
        f.set_estimate(v, 0, e)


def fa(a):
    b = np.empty(a.shape, dtype=a.dtype, order='F')
    b[...] = a
    return b


def rimg(rng, shape, dtype=np.float32):
    if dtype == np.float32:
        return fa(rng.standard_normal(shape).astype(np.float32))
    info = np.iinfo(dtype)
    return fa(rng.integers(info.min, info.max + 1, size=shape).astype(dtype))


WH = {'W': (1, 700), 'H': (1, 500)}


# ---------------------------------------------------------------- image styles
@spec("blur_repeat", "separable 3x3 blur, repeat_edge, float", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def blur_repeat(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.repeat_edge(inp)
    bx, by = F("bx"), F("by")
    bx[x, y] = (c[x - 1, y] + 2 * c[x, y] + c[x + 1, y]) * 0.25
    by[x, y] = (bx[x, y - 1] + 2 * bx[x, y] + bx[x, y + 1]) * 0.25
    est_in(inp, E['W'], E['H']); est_out(by, [x, y], E['W'], E['H'])
    return [by], [inp]


@spec("blur_mirror_u16", "separable 5-tap blur, mirror_interior, uint16", WH,
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.integers(0, 4096, size=(v['W'], v['H'])).astype(np.uint16))],
      tests=[dict(W=2, H=2), dict(W=3, H=1), dict(W=351, H=257), dict(W=700, H=500), dict(W=901, H=613)])
def blur_mirror(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.mirror_interior(inp)
    bx, by = F("bx"), F("by")
    bx[x, y] = (hl.u32(c[x - 2, y]) + 4 * c[x - 1, y] + 6 * c[x, y] + 4 * c[x + 1, y] + c[x + 2, y])
    by[x, y] = hl.u16((bx[x, y - 2] + 4 * bx[x, y - 1] + 6 * bx[x, y] + 4 * bx[x, y + 1] + bx[x, y + 2] + 128) >> 8)
    est_in(inp, E['W'], E['H']); est_out(by, [x, y], E['W'], E['H'])
    return [by], [inp]


@spec("boxblur_rdom_const", "5x5 box blur as RDom sum, constant_exterior", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def boxblur(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.constant_exterior(inp, 0.0)
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    out = F("box")
    out[x, y] = hl.sum(c[x + r.x, y + r.y]) / 25.0
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("unsharp", "unsharp mask, 3 channels, gaussian 5-tap, clamped", WH,
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'], 3)).astype(np.float32))])
def unsharp(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    e = hl.BoundaryConditions.repeat_edge(inp)
    gray, bx, by, sharp, ratio, out = F("gray"), F("bx"), F("by"), F("sharp"), F("ratio"), F("unsharp")
    gray[x, y] = 0.299 * e[x, y, 0] + 0.587 * e[x, y, 1] + 0.114 * e[x, y, 2]
    k = [0.0625, 0.25, 0.375, 0.25, 0.0625]
    bx[x, y] = sum(k[i] * gray[x + i - 2, y] for i in range(5))
    by[x, y] = sum(k[i] * bx[x, y + i - 2] for i in range(5))
    sharp[x, y] = 2 * gray[x, y] - by[x, y]
    ratio[x, y] = sharp[x, y] / (gray[x, y] + 0.01)
    out[x, y, c] = hl.clamp(ratio[x, y] * inp[x, y, c], 0.0, 1.0)
    est_in(inp, E['W'], E['H'], 3); est_out(out, [x, y, c], E['W'], E['H'], 3)
    return [out], [inp]


@spec("color_tuple_select", "RGB->YCbCr via Tuple intermediate, c Var + select, interleaved-ish c last", WH,
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'], 3)).astype(np.float32))])
def color(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    rgb, ycc, out = F("rgb"), F("ycc"), F("ycc_out")
    rgb[x, y] = (inp[x, y, 0], inp[x, y, 1], inp[x, y, 2])
    r_, g_, b_ = rgb[x, y][0], rgb[x, y][1], rgb[x, y][2]
    ycc[x, y] = (0.299 * r_ + 0.587 * g_ + 0.114 * b_,
                 -0.1687 * r_ - 0.3313 * g_ + 0.5 * b_ + 0.5,
                 0.5 * r_ - 0.4187 * g_ - 0.0813 * b_ + 0.5)
    out[x, y, c] = hl.select(c == 0, ycc[x, y][0], c == 1, ycc[x, y][1], ycc[x, y][2])
    est_in(inp, E['W'], E['H'], 3); est_out(out, [x, y, c], E['W'], E['H'], 3)
    return [out], [inp]


@spec("hist_equalize", "uint8 histogram (RDom scatter) + cumsum scan + lookup", WH,
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [fa(np.clip(r.normal(90, 30, size=(v['W'], v['H'])), 0, 255).astype(np.uint8))])
def hist_eq(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y, i = V("x", "y", "i")
    hist, cdf, out = F("hist"), F("cdf"), F("equalized")
    r = hl.RDom([hl.Range(0, inp.width()), hl.Range(0, inp.height())], "r")
    hist[i] = 0
    hist[hl.i32(inp[r.x, r.y])] += 1
    s = hl.RDom([hl.Range(1, 255)], "s")
    cdf[i] = hist[i]
    cdf[s.x] = cdf[s.x - 1] + hist[s.x]
    total = inp.width() * inp.height()
    out[x, y] = hl.u8(hl.clamp(cdf[hl.i32(inp[x, y])] * 255 / total, 0, 255))
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("pyramid_laplacian", "downsample (2x+1 taps) / upsample (x/2) pyramid, 2 levels", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def pyramid(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    g0 = F("g0"); g0[x, y] = hl.BoundaryConditions.repeat_edge(inp)[x, y]

    def down(f, n):
        dx, dy = F(n + "_dx"), F(n + "_dy")
        dx[x, y] = (f[2 * x - 1, y] + 2 * f[2 * x, y] + f[2 * x + 1, y]) * 0.25
        dy[x, y] = (dx[x, 2 * y - 1] + 2 * dx[x, 2 * y] + dx[x, 2 * y + 1]) * 0.25
        return dy

    def up(f, n):
        ux, uy = F(n + "_ux"), F(n + "_uy")
        ux[x, y] = (f[x / 2, y] + f[(x + 1) / 2, y]) * 0.5
        uy[x, y] = (ux[x, y / 2] + ux[x, (y + 1) / 2]) * 0.5
        return uy
    g1 = down(g0, "d1"); g2 = down(g1, "d2")
    l1 = F("l1"); l1[x, y] = g1[x, y] - up(g2, "u2")[x, y]
    out = F("recon")
    out[x, y] = up(l1, "u1")[x, y] * 0.5 + g0[x, y] - up(g1, "u1b")[x, y] * 0.5
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("bilateral_grid", "bilateral grid: RDom scatter into grid, blur, trilinear slice", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))], tol=2e-3)
def bilateral(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y, z, c = V("x", "y", "z", "c")
    s = 8
    rs = 0.1
    cl = hl.BoundaryConditions.repeat_edge(inp)
    r = hl.RDom([hl.Range(0, s), hl.Range(0, s)], "r")
    val = hl.clamp(cl[x * s + r.x - s // 2, y * s + r.y - s // 2], 0.0, 1.0)
    zi = hl.i32(val * (1.0 / rs) + 0.5)
    grid = F("grid")
    grid[x, y, z, c] = 0.0
    grid[x, y, zi, c] += hl.select(c == 0, val, 1.0)
    bz, bx, by = F("gbz"), F("gbx"), F("gby")
    bz[x, y, z, c] = grid[x, y, z - 1, c] + 2 * grid[x, y, z, c] + grid[x, y, z + 1, c]
    bx[x, y, z, c] = bz[x - 1, y, z, c] + 2 * bz[x, y, z, c] + bz[x + 1, y, z, c]
    by[x, y, z, c] = bx[x, y - 1, z, c] + 2 * bx[x, y, z, c] + bx[x, y + 1, z, c]
    v = hl.clamp(inp[x, y], 0.0, 1.0) * (1.0 / rs)
    zv = hl.clamp(v, 0.0, 1.0 / rs - 0.001)
    zi2 = hl.i32(zv); zf = zv - zi2
    xf = hl.f32(x % s) / s; yf = hl.f32(y % s) / s
    xi = x / s; yi = y / s
    interp = F("interp")
    interp[x, y, c] = hl.lerp(hl.lerp(hl.lerp(by[xi, yi, zi2, c], by[xi + 1, yi, zi2, c], xf),
                                      hl.lerp(by[xi, yi + 1, zi2, c], by[xi + 1, yi + 1, zi2, c], xf), yf),
                              hl.lerp(hl.lerp(by[xi, yi, zi2 + 1, c], by[xi + 1, yi, zi2 + 1, c], xf),
                                      hl.lerp(by[xi, yi + 1, zi2 + 1, c], by[xi + 1, yi + 1, zi2 + 1, c], xf), yf), zf)
    out = F("bilateral")
    out[x, y] = interp[x, y, 0] / (interp[x, y, 1] + 1e-6)
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("median3x3", "3x3 median via min/max sort network, uint8, repeat_edge", WH,
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def median(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.repeat_edge(inp)
    mx, mn, md = F("colmax"), F("colmin"), F("colmid")
    a, b, d = c[x, y - 1], c[x, y], c[x, y + 1]
    mx[x, y] = hl.max(a, hl.max(b, d))
    mn[x, y] = hl.min(a, hl.min(b, d))
    md[x, y] = hl.max(hl.min(a, b), hl.min(hl.max(a, b), d))
    minmax = hl.min(mx[x - 1, y], hl.min(mx[x, y], mx[x + 1, y]))
    maxmin = hl.max(mn[x - 1, y], hl.max(mn[x, y], mn[x + 1, y]))
    p, q, r_ = md[x - 1, y], md[x, y], md[x + 1, y]
    midmid = hl.max(hl.min(p, q), hl.min(hl.max(p, q), r_))
    out = F("median")
    out[x, y] = hl.max(hl.min(minmax, maxmin), hl.min(hl.max(minmax, maxmin), midmid))
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("resize_bilinear", "resize x1.5 with float coords, floor, lerp; input W,H -> output 3W/2, 3H/2",
      {'W': (1, 460), 'H': (1, 330)},
      outs=lambda v: [(F32, [3 * v['W'] // 2, 3 * v['H'] // 2])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def resize(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.repeat_edge(inp)
    sx = (hl.f32(x) + 0.5) / 1.5 - 0.5
    sy = (hl.f32(y) + 0.5) / 1.5 - 0.5
    ix, iy = hl.i32(hl.floor(sx)), hl.i32(hl.floor(sy))
    fx, fy = sx - hl.floor(sx), sy - hl.floor(sy)
    rx = F("resize_x")
    rx[x, y] = hl.lerp(c[ix, y], c[ix + 1, y], fx)
    out = F("resized")
    out[x, y] = hl.lerp(rx[x, iy], rx[x, iy + 1], fy)
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], (3 * E['W']) // 2, (3 * E['H']) // 2)
    return [out], [inp]


@spec("gamma_pow_exp", "gamma with pow + tone curve with exp, float", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [fa(r.random((v['W'], v['H'])).astype(np.float32))])
def gamma(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    g, t = F("gamma"), F("tone")
    g[x, y] = hl.pow(hl.max(inp[x, y], 0.0), 1.0 / 2.2)
    t[x, y] = 1.0 - hl.exp(-3.0 * g[x, y]) + 0.1 * hl.log(1.0 + g[x, y])
    est_in(inp, E['W'], E['H']); est_out(t, [x, y], E['W'], E['H'])
    return [t], [inp]


@spec("int_sharpen_u8", "uint8->uint16 blur, saturating sharpen back to uint8", WH,
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def int_sharpen(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.repeat_edge(inp)
    bx, by, out = F("bx16"), F("by16"), F("sharp8")
    bx[x, y] = hl.u16(c[x - 1, y]) + 2 * hl.u16(c[x, y]) + hl.u16(c[x + 1, y])
    by[x, y] = bx[x, y - 1] + 2 * bx[x, y] + bx[x, y + 1]
    out[x, y] = hl.u8_sat(hl.i16(c[x, y]) * 2 - hl.i16(by[x, y] / 16))
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("two_outputs", "Pipeline([f, g]): shared producer, outputs of different sizes/types", WH,
      outs=lambda v: [(F32, [v['W'], v['H']]), (I32, [v['W'], 1])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def two_outputs(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    c = hl.BoundaryConditions.repeat_edge(inp)
    sq, f, g = F("sq"), F("outf"), F("outg")
    sq[x, y] = c[x, y] * c[x, y] + c[x + 1, y]
    f[x, y] = sq[x, y] + sq[x, y + 1]
    r = hl.RDom([hl.Range(0, inp.height())], "r")
    g[x, y] = hl.i32(0)
    g[x, y] += hl.select(sq[x, r] > 1.0, 1, 0)
    est_in(inp, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H']); est_out(g, [x, y], E['W'], 1)
    return [f, g], [inp]


# ---------------------------------------------------------------- ML styles
RT = {'N': (1, 700), 'T': (1, 128)}


@spec("softmax_rows", "softmax over a row: max, exp, sum, divide", RT,
      outs=lambda v: [(F32, [v['N'], v['T']])],
      data=lambda v, r: [rimg(r, (v['N'], v['T'])) * 4])
def softmax(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, t = V("x", "t")
    r = hl.RDom([hl.Range(0, inp.width())], "r")
    mx, ex, sm, out = F("rowmax"), F("expv"), F("rowsum"), F("softmax")
    mx[t] = hl.maximum(inp[r, t])
    ex[x, t] = hl.exp(inp[x, t] - mx[t])
    sm[t] = hl.sum(ex[r, t])
    out[x, t] = ex[x, t] / sm[t]
    est_in(inp, E['N'], E['T']); est_out(out, [x, t], E['N'], E['T'])
    return [out], [inp]


@spec("layernorm", "layernorm over C=384 (mean, variance, gamma/beta)", {'T': (1, 128)},
      outs=lambda v: [(F32, [384, v['T']])],
      data=lambda v, r: [rimg(r, (384, v['T'])) + 3, rimg(r, (384,)), rimg(r, (384,))])
def layernorm(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); gm = hl.ImageParam(F32, 1, "gm"); bt = hl.ImageParam(F32, 1, "bt")
    c, t = V("c", "t")
    r = hl.RDom([hl.Range(0, 384)], "r")
    mean, var, out = F("mean"), F("var"), F("layernorm")
    mean[t] = hl.sum(inp[r, t]) / 384.0
    var[t] = hl.sum((inp[r, t] - mean[t]) * (inp[r, t] - mean[t])) / 384.0
    out[c, t] = (inp[c, t] - mean[t]) / hl.sqrt(var[t] + 1e-5) * gm[c] + bt[c]
    est_in(inp, 384, E['T']); est_in(gm, 384); est_in(bt, 384); est_out(out, [c, t], 384, E['T'])
    return [out], [inp, gm, bt]


CONV = {'W': (1, 64), 'H': (1, 64), 'B': (1, 4)}
CI, CO = 16, 24


@spec("conv2d_nchw", "conv2d NCHW (x,y,c,n), 3x3 valid, RDom(c,ky,kx), bias+relu", CONV,
      outs=lambda v: [(F32, [v['W'], v['H'], CO, v['B']])],
      data=lambda v, r: [rimg(r, (v['W'] + 2, v['H'] + 2, CI, v['B'])), rimg(r, (3, 3, CI, CO)), rimg(r, (CO,))],
      tol=1e-3)
def conv_nchw(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w"); b = hl.ImageParam(F32, 1, "b")
    x, y, co, n = V("x", "y", "co", "n")
    r = hl.RDom([hl.Range(0, CI), hl.Range(0, 3), hl.Range(0, 3)], "r")
    conv, out = F("conv"), F("conv_relu")
    conv[x, y, co, n] = b[co]
    conv[x, y, co, n] += w[r[2], r[1], r[0], co] * inp[x + r[2], y + r[1], r[0], n]
    out[x, y, co, n] = hl.max(conv[x, y, co, n], 0.0)
    est_in(inp, E['W'] + 2, E['H'] + 2, CI, E['B']); est_in(w, 3, 3, CI, CO); est_in(b, CO)
    est_out(out, [x, y, co, n], E['W'], E['H'], CO, E['B'])
    return [out], [inp, w, b]


@spec("conv2d_nhwc", "conv2d NHWC (c,x,y,n), 3x3 valid, inline sum over RDom(c,ky,kx)", CONV,
      outs=lambda v: [(F32, [CO, v['W'], v['H'], v['B']])],
      data=lambda v, r: [rimg(r, (CI, v['W'] + 2, v['H'] + 2, v['B'])), rimg(r, (CI, CO, 3, 3))], tol=1e-3)
def conv_nhwc(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w")
    co, x, y, n = V("co", "x", "y", "n")
    r = hl.RDom([hl.Range(0, CI), hl.Range(0, 3), hl.Range(0, 3)], "r")
    out = F("conv_nhwc")
    out[co, x, y, n] = hl.sum(inp[r[0], x + r[2], y + r[1], n] * w[r[0], co, r[2], r[1]])
    est_in(inp, CI, E['W'] + 2, E['H'] + 2, E['B']); est_in(w, CI, CO, 3, 3)
    est_out(out, [co, x, y, n], CO, E['W'], E['H'], E['B'])
    return [out], [inp, w]


@spec("depthwise_conv", "depthwise 3x3 conv (c,x,y), c=32, zero padding", {'W': (1, 128), 'H': (1, 128)},
      outs=lambda v: [(F32, [32, v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (32, v['W'], v['H'])), rimg(r, (32, 3, 3))])
def depthwise(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 3, "w")
    c, x, y = V("c", "x", "y")
    p = hl.BoundaryConditions.constant_exterior(inp, 0.0)
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    out = F("dwconv")
    out[c, x, y] = 0.0
    out[c, x, y] += p[c, x + r.x - 1, y + r.y - 1] * w[c, r.x, r.y]
    est_in(inp, 32, E['W'], E['H']); est_in(w, 32, 3, 3); est_out(out, [c, x, y], 32, E['W'], E['H'])
    return [out], [inp, w]


@spec("maxpool3s2", "max-pool 3x3 stride 2 NCHW, output W,H from input 2W+1", {'W': (1, 100), 'H': (1, 100), 'C': (1, 64)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['C']])],
      data=lambda v, r: [rimg(r, (2 * v['W'] + 1, 2 * v['H'] + 1, v['C']))])
def maxpool(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    out = F("maxpool")
    out[x, y, c] = hl.maximum(inp[2 * x + r.x, 2 * y + r.y, c])
    est_in(inp, 2 * E['W'] + 1, 2 * E['H'] + 1, E['C']); est_out(out, [x, y, c], E['W'], E['H'], E['C'])
    return [out], [inp]


@spec("argmax_tuple", "argmax over row: hl.argmax and a hand-written Tuple update", RT,
      outs=lambda v: [(I32, [v['T']]), (I32, [v['T']]), (F32, [v['T']])],
      data=lambda v, r: [rimg(r, (v['N'], v['T']))])
def argmax(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    t, = V("t")
    r = hl.RDom([hl.Range(0, inp.width())], "r")
    a1 = F("argmax1")
    a1[t] = hl.argmax(inp[r, t])[0]
    a2 = F("argmax2")
    a2[t] = (hl.i32(0), inp[0, t])
    better = inp[r, t] > a2[t][1]
    a2[t] = (hl.select(better, r.x, a2[t][0]), hl.select(better, inp[r, t], a2[t][1]))
    est_in(inp, E['N'], E['T']); est_out(a1, [t], E['T']); est_out(a2, [t], E['T'])
    return [a1, a2], [inp]


ATT = {'T': (1, 128)}
DH = 64


def attention_common(S, E, causal):
    q = hl.ImageParam(F32, 2, "q"); k = hl.ImageParam(F32, 2, "k"); v = hl.ImageParam(F32, 2, "v")
    d, i, j = V("d", "i", "j")
    rd = hl.RDom([hl.Range(0, DH)], "rd")
    sc, mx, ex, sm, ctx = F("scores"), F("smax"), F("sexp"), F("ssum"), F("context")
    sc[j, i] = hl.sum(q[rd, i] * k[rd, j]) * (1.0 / 8.0)
    rj = hl.RDom([hl.Range(0, q.height())], "rj")
    if causal:
        rj.where(rj.x <= i)
    mx[i] = hl.f32(-1e30)
    mx[i] = hl.max(mx[i], sc[rj, i])
    ex[j, i] = hl.exp(sc[j, i] - mx[i])
    sm[i] = 0.0
    sm[i] += ex[rj, i]
    ctx[d, i] = 0.0
    ctx[d, i] += ex[rj, i] * v[d, rj] / sm[i]
    for p in (q, k, v):
        est_in(p, DH, E['T'])
    est_out(ctx, [d, i], DH, E['T'])
    return [ctx], [q, k, v]


@spec("attention", "attention: scores, softmax, context chained (T x T)", ATT,
      outs=lambda v: [(F32, [DH, v['T']])],
      data=lambda v, r: [rimg(r, (DH, v['T'])) for _ in range(3)], tol=1e-3)
def attention(S, E):
    return attention_common(S, E, False)


@spec("attention_causal_where", "causal attention, RDom.where(rj <= i)", ATT,
      outs=lambda v: [(F32, [DH, v['T']])],
      data=lambda v, r: [rimg(r, (DH, v['T'])) for _ in range(3)], tol=1e-3)
def attention_causal(S, E):
    return attention_common(S, E, True)


@spec("bgemm_batch_inner", "batched GEMM, batch innermost: C[b,i,j] = sum_k A[b,i,k] B[b,k,j]",
      {'B': (1, 8), 'M': (1, 200)},
      outs=lambda v: [(F32, [v['B'], 96, v['M']])],
      data=lambda v, r: [rimg(r, (v['B'], 96, 80)), rimg(r, (v['B'], 80, v['M']))], tol=1e-3)
def bgemm(S, E):
    A = hl.ImageParam(F32, 3, "A"); Bm = hl.ImageParam(F32, 3, "Bm")
    b, i, j = V("b", "i", "j")
    k = hl.RDom([hl.Range(0, 80)], "k")
    C = F("bgemm")
    C[b, i, j] = hl.sum(A[b, i, k] * Bm[b, k, j])
    est_in(A, E['B'], 96, 80); est_in(Bm, E['B'], 80, E['M']); est_out(C, [b, i, j], E['B'], 96, E['M'])
    return [C], [A, Bm]


@spec("matmul_bias_update", "matmul as explicit RDom update on a separate Func, init = bias", {'T': (1, 128)},
      outs=lambda v: [(F32, [200, 16 * v['T'] - 3])],
      data=lambda v, r: [rimg(r, (96, 16 * v['T'] - 3)), rimg(r, (96, 200)), rimg(r, (200,))],
      tests=[dict(T=1), dict(T=2), dict(T=77), dict(T=128), dict(T=150)], tol=1e-3)
def matmul_bias(S, E):
    x = hl.ImageParam(F32, 2, "x"); w = hl.ImageParam(F32, 2, "w"); bias = hl.ImageParam(F32, 1, "bias")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, 96)], "k")
    acc, out = F("acc"), F("mm_out")
    acc[n, m] = bias[n]
    acc[n, m] += x[k, m] * w[k, n]
    out[n, m] = acc[n, m] * 0.5
    est_in(x, 96, 16 * E['T'] - 3); est_in(w, 96, 200); est_in(bias, 200)
    est_out(out, [n, m], 200, 16 * E['T'] - 3)
    return [out], [x, w, bias]


@spec("matmul_int8", "int8 x int8 -> int32 matmul, K=256", {'M': (1, 300)},
      outs=lambda v: [(I32, [160, v['M']])],
      data=lambda v, r: [rimg(r, (256, v['M']), np.int8), rimg(r, (256, 160), np.int8)])
def matmul_int8(S, E):
    a = hl.ImageParam(I8, 2, "a"); b = hl.ImageParam(I8, 2, "b")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, 256)], "k")
    out = F("mm_i8")
    out[n, m] = hl.sum(hl.i32(a[k, m]) * hl.i32(b[k, n]))
    est_in(a, 256, E['M']); est_in(b, 256, 160); est_out(out, [n, m], 160, E['M'])
    return [out], [a, b]


# ---------------------------------------------------------------- oddities
@spec("two_consumers_offsets", "one Func read by two consumers at different offsets", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'] + 10, v['H'] + 10))])
def two_consumers(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    f, a, b, out = F("shared"), F("consA"), F("consB"), F("sum_ab")
    f[x, y] = hl.sqrt(hl.abs(inp[x, y])) + 1.0
    a[x, y] = f[x + 1, y + 7] * 2.0
    b[x, y] = f[x + 9, y] - f[x, y + 3]
    out[x, y] = a[x, y] + b[x, y]
    est_in(inp, E['W'] + 10, E['H'] + 10); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("const_inner_tiny_ranged", "innermost constant dim 4, middle 1000, tiny ranged outer B in 1..4",
      {'B': (1, 4)},
      outs=lambda v: [(F32, [4, 1000, v['B']])],
      data=lambda v, r: [rimg(r, (4, 1000, v['B'])), rimg(r, (4, 4))],
      tests=[dict(B=1), dict(B=2), dict(B=3), dict(B=4), dict(B=6)], times=[dict(B=1), dict(B=4)])
def const_inner(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); m = hl.ImageParam(F32, 2, "m")
    c, x, b = V("c", "x", "b")
    r = hl.RDom([hl.Range(0, 4)], "r")
    tr, out = F("xform"), F("xform_out")
    tr[c, x, b] = hl.sum(m[c, r] * inp[r, x, b])
    out[c, x, b] = tr[c, x, b] + tr[c, hl.max(x - 1, 0), b]
    est_in(inp, 4, 1000, E['B']); est_in(m, 4, 4); est_out(out, [c, x, b], 4, 1000, E['B'])
    return [out], [inp, m]


@spec("range_size_one", "ranged param with set_range(7, 7)", {'T': (7, 7)},
      outs=lambda v: [(F32, [33 * v['T'], 5])],
      data=lambda v, r: [rimg(r, (33 * v['T'] + 2, 5))],
      tests=[dict(T=7), dict(T=1), dict(T=9)], times=[dict(T=7), dict(T=7)])
def range_one(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    out = F("r1_out")
    out[x, y] = inp[x, y] + inp[x + 1, y] * inp[x + 2, y]
    est_in(inp, 33 * E['T'] + 2, 5); est_out(out, [x, y], 33 * E['T'], 5)
    return [out], [inp]


@spec("param_extent_and_value", "ranged Param used in estimates and as a value in the algorithm", {'T': (1, 128)},
      outs=lambda v: [(F32, [8 * v['T'], 37])],
      data=lambda v, r: [rimg(r, (8 * v['T'], 37))])
def param_value(S, E):
    T = S['T']
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    f, out = F("pv_f"), F("pv_out")
    f[x, y] = inp[x, y] * hl.f32(T) + hl.f32(x % T)
    out[x, y] = f[x, y] + f[hl.min(x + 1, 8 * T - 1), y] / hl.f32(T)
    est_in(inp, 8 * E['T'], 37); est_out(out, [x, y], 8 * E['T'], 37)
    return [out], [inp]


@spec("rdom_param_extent", "reduction with RDom(0, T) over a ranged Param", {'T': (1, 128), 'W': (1, 700)},
      outs=lambda v: [(F32, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'], v['T']))])
def rdom_param(S, E):
    T = S['T']
    inp = hl.ImageParam(F32, 2, "inp")
    x, = V("x")
    r = hl.RDom([hl.Range(0, T)], "r")
    acc, out = F("colsum"), F("colmean")
    acc[x] = hl.sum(inp[x, r] * inp[x, r])
    out[x] = hl.sqrt(acc[x] / hl.f32(T))
    est_in(inp, E['W'], E['T']); est_out(out, [x], E['W'])
    return [out], [inp]


@spec("causal_prefix_where", "causal mask: out[x,y] = sum over r<T where r<=x of in[r,y]", {'T': (1, 128), 'H': (1, 500)},
      outs=lambda v: [(F32, [v['T'], v['H']])],
      data=lambda v, r: [rimg(r, (v['T'], v['H']))], tol=1e-3)
def causal_prefix(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    r = hl.RDom([hl.Range(0, inp.width())], "r")
    r.where(r.x <= x)
    out = F("causal_sum")
    out[x, y] = 0.0
    out[x, y] += inp[r, y]
    est_in(inp, E['T'], E['H']); est_out(out, [x, y], E['T'], E['H'])
    return [out], [inp]


# ---------------------------------------------------------------- round 2: more adversarial
@spec("scan_update_y", "scan along y as an update on the output (pure x, RVar y)", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def scan_y(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    f = F("scan_y")
    r = hl.RDom([hl.Range(1, inp.height() - 1)], "r")
    f[x, y] = inp[x, y]
    f[x, r] = f[x, r - 1] * 0.5 + f[x, r]
    est_in(inp, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H'])
    return [f], [inp]


@spec("scan_update_x_inner", "scan along x (innermost) as an update, then a pointwise consumer", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-3)
def scan_x(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    f, out = F("scan_x"), F("scan_x_out")
    r = hl.RDom([hl.Range(1, inp.width() - 1)], "r")
    f[x, y] = inp[x, y]
    f[r, y] = f[r - 1, y] * 0.9 + f[r, y]
    out[x, y] = f[x, y] - f[hl.max(x - 1, 0), y]
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("nonzero_min_output", "output estimate and buffer with a non-zero min (x from -5)", WH,
      outs=lambda v: [(F32, [v['W'], v['H']], [-5, 3])],
      data=lambda v, r: [rimg(r, (v['W'] + 10, v['H'] + 10))])
def nonzero_min(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    g, out = F("nz_g"), F("nz_out")
    g[x, y] = inp[x + 5, y - 3] * 2.0
    out[x, y] = g[x, y] + g[x + 1, y]
    est_in(inp, E['W'] + 10, E['H'] + 10)
    out.set_estimate(x, -5, E['W']); out.set_estimate(y, 3, E['H'])
    return [out], [inp]


@spec("interleaved_rgb", "interleaved input and output (stride(0)=3, c stride 1), per-channel 3-tap", WH,
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 3))], interleaved=True)
def interleaved(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    inp.dim(0).set_stride(3); inp.dim(2).set_stride(1); inp.dim(2).set_bounds(0, 3)
    e = hl.BoundaryConditions.repeat_edge(inp)
    out = F("il_out")
    out[x, y, c] = e[x - 1, y, c] + e[x, y, c] * 2 + e[x + 1, y, c] + hl.f32(c)
    out.output_buffer().dim(0).set_stride(3); out.output_buffer().dim(2).set_stride(1)
    out.output_buffer().dim(2).set_bounds(0, 3)
    est_in(inp, E['W'], E['H'], 3); est_out(out, [x, y, c], E['W'], E['H'], 3)
    return [out], [inp]


@spec("f64_u64_types", "float64 and uint64 outputs", WH,
      outs=lambda v: [(hl.Float(64), [v['W'], v['H']]), (hl.UInt(64), [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def f64(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    d, u = F("f64_out"), F("u64_out")
    d[x, y] = hl.f64(inp[x, y]) * hl.f64(inp[x, y]) + hl.sqrt(hl.f64(hl.abs(inp[x, y])))
    u[x, y] = hl.u64(hl.abs(inp[x, y]) * 1000.0) * hl.u64(x + 1) * hl.u64(123456789)
    est_in(inp, E['W'], E['H']); est_out(d, [x, y], E['W'], E['H']); est_out(u, [x, y], E['W'], E['H'])
    return [d, u], [inp]


@spec("gather_lut", "data-dependent gather: LUT ImageParam and a computed Func", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8), rimg(r, (256,))])
def gather(S, E):
    idx = hl.ImageParam(U8, 2, "idx"); lut = hl.ImageParam(F32, 1, "lut")
    x, y, i = V("x", "y", "i")
    lut2, out = F("lut2"), F("gathered")
    lut2[i] = lut[i] * lut[255 - i]
    out[x, y] = lut[hl.i32(idx[x, y])] + lut2[hl.i32(idx[x, (y + 1) % idx.height()])]
    est_in(idx, E['W'], E['H']); est_in(lut, 256); est_out(out, [x, y], E['W'], E['H'])
    return [out], [idx, lut]


@spec("extent_zero_at_lo", "output extent T-1: zero at the range's low end", {'T': (1, 128)},
      outs=lambda v: [(F32, [v['T'] - 1, 40])],
      data=lambda v, r: [rimg(r, (v['T'], 40))],
      tests=[dict(T=1), dict(T=2), dict(T=17), dict(T=128), dict(T=200)], times=[dict(T=17), dict(T=128)])
def extent_zero(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    out = F("diff")
    out[x, y] = inp[x + 1, y] - inp[x, y]
    est_in(inp, E['T'], 40); est_out(out, [x, y], E['T'] - 1, 40)
    return [out], [inp]


@spec("nonlinear_extent_flatten", "1-D output of extent W*H (flattened 2-D input)", {'W': (1, 300), 'H': (1, 200)},
      outs=lambda v: [(F32, [v['W'] * v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def flatten(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    i, = V("i")
    w = inp.width()
    out = F("flat")
    out[i] = inp[i % w, i / w] * 3.0 + 1.0
    est_in(inp, E['W'], E['H']); est_out(out, [i], E['W'] * E['H'])
    return [out], [inp]


@spec("multi_update_scatter", "output with 3 updates: pure, RDom scatter, pure again", {'N': (1, 500)},
      outs=lambda v: [(F32, [v['N'], 16])],
      data=lambda v, r: [rimg(r, (v['N'], 16)), fa(r.integers(0, 16, size=(37,)).astype(np.int32))])
def multi_update(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); sidx = hl.ImageParam(I32, 1, "sidx")
    x, y = V("x", "y")
    r = hl.RDom([hl.Range(0, 37)], "r")
    out = F("mu_out")
    out[x, y] = inp[x, y]
    out[x, y] = out[x, y] * 2.0 + 1.0
    out[x, hl.clamp(sidx[r], 0, 15)] += 0.5
    out[x, y] = hl.sqrt(hl.abs(out[x, y]))
    est_in(inp, E['N'], 16); est_in(sidx, 37); est_out(out, [x, y], E['N'], 16)
    return [out], [inp, sidx]


@spec("five_d", "5-D elementwise and a reduction over a middle dim", {'A': (1, 20), 'B': (1, 6)},
      outs=lambda v: [(F32, [v['A'], 5, v['B'], 3, 2])],
      data=lambda v, r: [rimg(r, (v['A'], 5, v['B'], 3, 2))])
def five_d(S, E):
    inp = hl.ImageParam(F32, 5, "inp")
    a, b, c, d, e = V("a", "b", "c", "d", "e")
    r = hl.RDom([hl.Range(0, 5)], "r")
    s, out = F("s5"), F("out5")
    s[a, c, d, e] = hl.sum(inp[a, r, c, d, e])
    out[a, b, c, d, e] = inp[a, b, c, d, e] - s[a, c, d, e] / 5.0
    est_in(inp, E['A'], 5, E['B'], 3, 2); est_out(out, [a, b, c, d, e], E['A'], 5, E['B'], 3, 2)
    return [out], [inp]


@spec("output_feeds_output", "Pipeline([f, g]) where g consumes output f", WH,
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def out_feeds(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    f, g = F("of_f"), F("of_g")
    c = hl.BoundaryConditions.repeat_edge(inp)
    f[x, y] = c[x, y] + c[x + 1, y]
    g[x, y] = f[x, y] * f[x, hl.max(y - 1, 0)]
    est_in(inp, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H']); est_out(g, [x, y], E['W'], E['H'])
    return [f, g], [inp]


@spec("huge_range_1d", "1-D 3-tap stencil, W in 1..2,000,000", {'W': (1, 2000000)},
      outs=lambda v: [(F32, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'],))],
      tests=[dict(W=1), dict(W=5), dict(W=12345), dict(W=2000000), dict(W=2100001)], times=[dict(W=1000), dict(W=2000000)])
def huge_1d(S, E):
    inp = hl.ImageParam(F32, 1, "inp")
    x, = V("x")
    c = hl.BoundaryConditions.repeat_edge(inp)
    a, out = F("h_a"), F("h_out")
    a[x] = c[x] * c[x]
    out[x] = a[x - 1] + a[x] + a[x + 1]
    est_in(inp, E['W']); est_out(out, [x], E['W'])
    return [out], [inp]


@spec("float_and_unranged_params", "unranged float Param and int Param used as values", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def float_param(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    k = hl.Param(F32, "k", 1.5)
    sh = hl.Param(hl.Int(32), "sh", 2)
    out = F("fp_out")
    out[x, y] = inp[x, y] * k + inp[hl.clamp(x + sh, 0, inp.width() - 1), y]
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("mirror_image_down", "mirror_image / repeat_image boundaries with 2x downsample reads", WH,
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))])
def mirror_down(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    m = hl.BoundaryConditions.mirror_image(inp)
    rp = hl.BoundaryConditions.repeat_image(inp)
    d, out = F("md_d"), F("md_out")
    d[x, y] = m[2 * x - 1, y] + m[2 * x + 1, y] + rp[x + 3, 2 * y]
    out[x, y] = d[x, y] + d[x / 2, y / 2]
    est_in(inp, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out], [inp]


@spec("rdom_where_data", "sum of positive values: RDom.where on data; and minimum over where", {'N': (1, 700), 'T': (1, 128)},
      outs=lambda v: [(F32, [v['T']]), (F32, [v['T']])],
      data=lambda v, r: [rimg(r, (v['N'], v['T']))], tol=1e-3)
def where_data(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    t, = V("t")
    r = hl.RDom([hl.Range(0, inp.width())], "r")
    r.where(inp[r, t] > 0.0)
    a, b = F("possum"), F("posmin")
    a[t] = 0.0
    a[t] += inp[r, t]
    b[t] = 1e30
    b[t] = hl.min(b[t], inp[r, t])
    est_in(inp, E['N'], E['T']); est_out(a, [t], E['T']); est_out(b, [t], E['T'])
    return [a, b], [inp]
