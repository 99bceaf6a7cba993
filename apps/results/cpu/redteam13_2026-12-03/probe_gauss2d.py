"""probe: gauss_2d_rdom_outer_weights_func_clamp_index_radius_param at W=1024, H=768, R=5 (target A, 2 threads).
Diet's schedule of the spec pipeline vs hand schedules of the SAME algorithm rewritten with an explicit update Func
acc (instead of the anonymous hl.sum Func, so that it can be scheduled), all with run-time W, H, R Params. Interleaved
timing, 3 rounds x median of 10. usage: rt13.py r11 ../redteam13_2026-12-03/probe_gauss2d.py gauss_2d_rdom_outer_weights_func_clamp_index_radius_param"""
import os, time, sys, numpy as np, halide as hl
import run11
ro, run6 = run11.run_one, run11.run9.run6
T = run11.TARGET
name = "gauss_2d_rdom_outer_weights_func_clamp_index_radius_param"
spec = run11.pipes11.SPECS[name]
hl.load_plugin(ro.PLUGINS["Diet"])
v = dict(W=1024, H=768, R=5)
built = {}
S, outs, ins, p = ro.build(spec, "Diet"); p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)); p.compile_jit(T); built["Diet"] = (S, ins, p)
S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T); built["ref"] = (S, ins, p)

def hand(kind):
    Wp, Hp, Rp = [hl.Param(hl.Int(32), n, hi) for n, hi in (("W", 1024), ("H", 768), ("R", 5))]
    for q, (lo, hi) in zip((Wp, Hp, Rp), ((16, 1024), (16, 768), (1, 5))):
        q.set_range(lo, hi)
    im = hl.ImageParam(hl.Float(32), 2, "im")
    x, y, i, xi, yi, yii, xo, yo = [hl.Var(n) for n in ("x", "y", "i", "xi", "yi", "yii", "xo", "yo")]
    sg = hl.f32(Rp) * 0.5 + 0.5
    g = hl.Func("g"); g[i] = hl.exp(-hl.f32((i - Rp) * (i - Rp)) / (2.0 * sg * sg))
    r1 = hl.RDom([hl.Range(0, 2 * Rp + 1)], "r1")
    nz = hl.Func("nz"); nz[()] = 0.0; nz[()] += g[r1.x]
    r = hl.RDom([hl.Range(0, 2 * Rp + 1), hl.Range(0, 2 * Rp + 1)], "r")
    acc = hl.Func("acc"); acc[x, y] = 0.0
    acc[x, y] += g[r.x] * g[r.y] * im[hl.clamp(x + r.x - Rp, 0, Wp - 1), hl.clamp(y + r.y - Rp, 0, Hp - 1)]
    o = hl.Func("o"); o[x, y] = acc[x, y] / (nz[()] * nz[()])
    g.compute_root(); nz.compute_root()
    if kind == "adams_like":  # Adams2019c's structure (16-wide vectors, 4 unrolled rows, acc per 16x4 block), run-time-safe tails
        o.split(y, yo, yi, 24, hl.TailStrategy.GuardWithIf).split(x, xo, xi, 16, hl.TailStrategy.ShiftInwards).split(yi, yi, yii, 4, hl.TailStrategy.GuardWithIf) \
         .unroll(yii).vectorize(xi).reorder(xi, yii, xo, yi, yo).parallel(yo)
        acc.compute_at(o, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16).unroll(y)
        acc.update(0).vectorize(x, 16).unroll(y).reorder(x, y, r.x, r.y)
    elif kind == "rows8_vec16":  # 8 rows x 16 lanes of accumulators per block, r outside
        o.split(y, yo, yi, 32, hl.TailStrategy.GuardWithIf).split(x, xo, xi, 16, hl.TailStrategy.ShiftInwards).split(yi, yi, yii, 8, hl.TailStrategy.GuardWithIf) \
         .unroll(yii).vectorize(xi).reorder(xi, yii, xo, yi, yo).parallel(yo)
        acc.compute_at(o, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16).unroll(y)
        acc.update(0).vectorize(x, 16).unroll(y).reorder(x, y, r.x, r.y)
    elif kind == "diet_geometry":  # Diet's leaf-2 block: 32 columns (2 x 16 lanes) x 6 rows of accumulators per r step
        o.split(y, yo, yi, 48, hl.TailStrategy.GuardWithIf).split(x, xo, xi, 32, hl.TailStrategy.ShiftInwards).split(yi, yi, yii, 6, hl.TailStrategy.GuardWithIf) \
         .reorder(xi, yii, xo, yi, yo).parallel(yo).vectorize(xi, 16)
        acc.compute_at(o, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16).unroll(y)
        acc.update(0).split(x, xo, xi, 16).vectorize(xi).unroll(xo).unroll(y).reorder(xi, xo, y, r.x, r.y)
    elif kind == "diet_colstrip":  # Diet's leaf at 1024 x 768: tasks of 4 tiles of 32 columns over the whole height, 6-row tiles
        xt, xp = hl.Var("xt"), hl.Var("xp")
        o.split(x, xo, xi, 32, hl.TailStrategy.ShiftInwards).split(y, yo, yi, 6, hl.TailStrategy.ShiftInwards) \
         .split(xo, xt, xp, 4, hl.TailStrategy.GuardWithIf).reorder(xi, yi, xp, yo, xt).parallel(xt).vectorize(xi, 16)
        acc.compute_at(o, xp).store_in(hl.MemoryType.Stack).vectorize(x, 16).unroll(y)
        acc.update(0).split(x, xo, xi, 16).vectorize(xi).unroll(xo).unroll(y).reorder(xi, xo, y, r.x, r.y)
    elif kind == "diet_rowstrip":  # the same 32 x 6 tiles, tasks of 8 tile rows over the whole width
        o.split(x, xo, xi, 32, hl.TailStrategy.ShiftInwards).split(y, yo, yi, 6, hl.TailStrategy.ShiftInwards) \
         .split(yo, yo, hl.Var("yt"), 8, hl.TailStrategy.GuardWithIf)
        o.reorder(xi, yi, xo, hl.Var("yt"), yo).parallel(yo).vectorize(xi, 16)
        acc.compute_at(o, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16).unroll(y)
        acc.update(0).split(x, xo, xi, 16).vectorize(xi).unroll(xo).unroll(y).reorder(xi, xo, y, r.x, r.y)
    o.compile_jit(T)
    return o, im, (Wp, Hp, Rp)

rng = np.random.default_rng(7)
data = spec['data'](v, rng)
for kind in (os.environ.get("G2_KINDS", "adams_like,rows8_vec16,diet_geometry").split(",")):
    built[kind] = hand(kind)
want = None
res = {}
for rnd in range(3):
    for label, b in built.items():
        if label in ("Diet", "ref"):
            S, ins, p = b
            got = run6.realize(p, S, ins, spec, v)[0]
            f = lambda: p.realize(got, T)
        else:
            o, im, (Wp, Hp, Rp) = b
            hb = hl.Buffer(hl.Float(32), [1024, 768]); np.asarray(hb)[...] = data[0]; im.set(hb)
            Wp.set(1024); Hp.set(768); Rp.set(5)
            got = hl.Buffer(hl.Float(32), [1024, 768]); o.realize(got, T)
            f = lambda: o.realize(got, T)
        if label == "ref":
            want = np.asarray(got).copy()
        f(); ts = []
        for _ in range(10):
            t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
        res.setdefault(label, []).append(float(np.median(ts)) * 1e3)
        res.setdefault(label + "_out", np.asarray(got).copy())
for label in built:
    err = float(np.abs(res[label + "_out"] - want).max())
    print("%-12s median %.3f ms  rounds %s  max|err| vs ref %.2e" % (label, float(np.median(res[label])), ["%.3f" % t for t in res[label]], err), flush=True)
