"""Scans along dimension 0 written the ways users write them, for Diet's scan lanes
(src/schedule/ScanLanes.cpp). Spec format of ../redteam9_2026-12-01/pipes9.py (its helpers, not copied).
S: ranged int Params, E: estimates."""
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
SPECS, spec, CREATED, F = _round3.registry()
F32, I32, U8, U16 = hl.Float(32), hl.Int(32), hl.UInt(8), hl.UInt(16)


@spec("iir_rows_f32", "first-order IIR along each row of an image [x, y]: f = in; f(r, y) = a * f(r - 1, y) + (1 - a) * in(r, y) over RDom(1, W - 1)",
      {'W': (2, 1920), 'H': (1, 1080)}, outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4)
def iir_rows(S, E):
    x = hl.ImageParam(F32, 2, "img")
    X, Y = V("x", "y")
    f = F("iir")
    f[X, Y] = x[X, Y]
    r = RD((1, S['W'] - 1))
    f[r.x, Y] = 0.7 * f[r.x - 1, Y] + 0.3 * x[r.x, Y]
    est_in(x, E['W'], E['H']); est_out(f, [X, Y], E['W'], E['H'])
    return [f], [x]


@spec("prefix_sum_rows_i32", "integral of each row, int32 from uint8 [x, y]: s = i32(in); s(r, y) += s(r - 1, y)",
      {'W': (2, 1920), 'H': (1, 1080)}, outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def prefix_rows(S, E):
    x = hl.ImageParam(U8, 2, "img")
    X, Y = V("x", "y")
    s = F("psum")
    s[X, Y] = hl.i32(x[X, Y])
    r = RD((1, S['W'] - 1))
    s[r.x, Y] += s[r.x - 1, Y]
    est_in(x, E['W'], E['H']); est_out(s, [X, Y], E['W'], E['H'])
    return [s], [x]


@spec("summed_area_f32", "summed-area table: scan along x then along y (two updates of one Func) [x, y]",
      {'W': (2, 1024), 'H': (2, 768)}, outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-2)
def sat(S, E):
    x = hl.ImageParam(F32, 2, "img")
    X, Y = V("x", "y")
    s = F("sat")
    s[X, Y] = x[X, Y]
    rx = RD((1, S['W'] - 1), name="rx")
    s[rx.x, Y] = s[rx.x, Y] + s[rx.x - 1, Y]
    ry = RD((1, S['H'] - 1), name="ry")
    s[X, ry.x] = s[X, ry.x] + s[X, ry.x - 1]
    est_in(x, E['W'], E['H']); est_out(s, [X, Y], E['W'], E['H'])
    return [s], [x]


@spec("cummax_rows_u8", "running maximum along each row, uint8 [x, y], then a pointwise consumer",
      {'W': (2, 1920), 'H': (1, 1080)}, outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def cummax(S, E):
    x = hl.ImageParam(U8, 2, "img")
    X, Y = V("x", "y")
    m = F("cmax")
    m[X, Y] = x[X, Y]
    r = RD((1, S['W'] - 1))
    m[r.x, Y] = hl.max(m[r.x, Y], m[r.x - 1, Y])
    o = F("cmax_out")
    o[X, Y] = m[X, Y] - x[X, Y]
    est_in(x, E['W'], E['H']); est_out(o, [X, Y], E['W'], E['H'])
    return [o], [x]


@spec("cumsum_last_axis_3d", "numpy-order cumsum over the last axis of x[b, h, n] (Halide c(n, h, b)), f32, then scaled by 1/(n+1)",
      {'N': (1, 512), 'H': (1, 12), 'B': (1, 8)}, outs=lambda v: [(F32, [v['N'], v['H'], v['B']])],
      data=lambda v, r: [rimg(r, (v['N'], v['H'], v['B']))], tol=1e-3)
def cumsum3(S, E):
    x = hl.ImageParam(F32, 3, "x")
    n, h, b = V("n", "h", "b")
    c = F("csum")
    c[n, h, b] = 0.0
    r = RD((0, S['N']))
    c[r.x, h, b] = hl.select(r.x > 0, c[hl.max(r.x - 1, 0), h, b], 0.0) + x[r.x, h, b]
    o = F("cmean")
    o[n, h, b] = c[n, h, b] / hl.f32(n + 1)
    est_in(x, E['N'], E['H'], E['B']); est_out(o, [n, h, b], E['N'], E['H'], E['B'])
    return [o], [x]


@spec("ema_channels_outer", "exponential moving average per channel, time innermost [t, c], smoothing as a Param-free constant, computed in an intermediate then gained",
      {'T': (1, 4000), 'C': (1, 16)}, outs=lambda v: [(F32, [v['T'], v['C']])],
      data=lambda v, r: [rimg(r, (v['T'], v['C']))], tol=1e-4)
def ema(S, E):
    x = hl.ImageParam(F32, 2, "x")
    t, c = V("t", "c")
    e = F("ema")
    e[t, c] = x[t, c]
    r = RD((1, S['T'] - 1))
    e[r.x, c] = e[r.x - 1, c] + 0.05 * (x[r.x, c] - e[r.x - 1, c])
    o = F("ema_out")
    o[t, c] = 2.0 * e[t, c] - x[t, c]
    est_in(x, E['T'], E['C']); est_out(o, [t, c], E['T'], E['C'])
    return [o], [x]
