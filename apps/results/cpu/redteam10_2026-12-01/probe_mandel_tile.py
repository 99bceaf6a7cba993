"""(Note: the spec's update never reads r, so Halide drops the RDom: the update runs once, not IT times; see REPORT.md.)
Why is Diet 5.5x slower than Mullapudi2016 on mandelbrot_rdom_iter_tuple_escape_count (AVX2, 512x384, IT=64)?
Hand schedules of the same algorithm (no autoscheduler), realize ms (median of 20), HL_NUM_THREADS as set:
  diet_like : count tiled by 16 rows (parallel), state compute_at count y_o, state and update split x by 8 RoundUp, vectorized
  mull_like : count split x by 64, parallel y, state compute_at count x_o, split x by 8 (GuardWithIf on the update)
  mull_like_yo16 : mull_like with y split by 16 and parallel over the 16-row tiles
  diet_like_guard : diet_like with GuardWithIf instead of RoundUp on the state
  diet_like_xo  : diet_like but state compute_at an extra x split by 64 inside the row tile"""
import sys, time
import numpy as np, halide as hl
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
W, H, IT = 512, 384, 64


def build(mode):
    x, y = hl.Var("x"), hl.Var("y")
    pIT = hl.Param(hl.Int(32), "IT", IT); pIT.set_range(1, 64)
    x0 = hl.Param(hl.Float(32), "x0", -2.0); sc = hl.Param(hl.Float(32), "scale", 1.0 / 150.0)
    cr = x0 + hl.f32(x) * sc; ci = -1.2 + hl.f32(y) * sc
    m = hl.Func("mb_state"); m[x, y] = hl.Tuple([hl.f32(0), hl.f32(0), 0])
    r = hl.RDom([hl.Range(0, pIT)], "r")
    zr, zi, n = m[x, y][0], m[x, y][1], m[x, y][2]
    inside = zr * zr + zi * zi < 4.0
    m[x, y] = hl.Tuple([hl.select(inside, zr * zr - zi * zi + cr, zr), hl.select(inside, 2.0 * zr * zi + ci, zi), n + hl.select(inside, 1, 0)])
    o = hl.Func("mb_count"); o[x, y] = m[x, y][2]
    xo, xi, yo, yi, xvo, xvi = [hl.Var(s) for s in ("x_o", "x_i", "y_o", "y_i", "x_vo", "x_vi")]
    if mode.startswith("diet_like"):
        o.split(x, xvo, xvi, 8, hl.TailStrategy.ShiftInwards).vectorize(xvi).split(y, yo, yi, 16, hl.TailStrategy.GuardWithIf).reorder(xvi, xvo, yi, yo).parallel(yo)
        at = yo
        if mode == "diet_like_xo":
            o.split(xvo, xo, xi, 8).reorder(xvi, xi, yi, xo, yo); at = xo
        ts_ = hl.TailStrategy.GuardWithIf if mode == "diet_like_guard" else hl.TailStrategy.RoundUp
        m.compute_at(o, at).split(x, xvo, xvi, 8, ts_).vectorize(xvi)
        u = m.update(0).split(x, xvo, xvi, 8, ts_).vectorize(xvi)
        if mode == "diet_like_rin":
            u.reorder(r.x, xvi, xvo, y)
        else:
            u.reorder(xvi, xvo, y)
    elif mode == "mull_like_yo16":
        o.split(x, xo, xi, 64).reorder(xi, xo, y).split(xi, xvo, xvi, 8).vectorize(xvi).split(y, yo, yi, 16).parallel(yo)
        m.compute_at(o, xo).split(x, xvo, xvi, 8).vectorize(xvi)
        m.update(0).split(x, xvo, xvi, 8, hl.TailStrategy.GuardWithIf).vectorize(xvi)
    else:
        o.split(x, xo, xi, 64).reorder(xi, xo, y).split(xi, xvo, xvi, 8).vectorize(xvi).parallel(y)
        m.compute_at(o, xo).split(x, xvo, xvi, 8).vectorize(xvi)
        m.update(0).split(x, xvo, xvi, 8, hl.TailStrategy.GuardWithIf).vectorize(xvi)
    p = hl.Pipeline(o); p.compile_jit(T)
    b = hl.Buffer(hl.Int(32), [W, H]); p.realize(b, T)
    ts = []
    for _ in range(20):
        t0 = time.perf_counter(); p.realize(b, T); ts.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(ts)), np.asarray(b).copy()


ref = None
for mode in ("mull_like", "mull_like_yo16", "diet_like", "diet_like_xo", "diet_like_guard"):
    ms, out = build(mode)
    ref = out if ref is None else ref
    print("%-14s %.4f ms  same result as mull_like: %s" % (mode, ms, bool((out == ref).all())), flush=True)
