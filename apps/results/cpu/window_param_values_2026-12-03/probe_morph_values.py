"""probe (window_param_values): per-value specializations of the run-time radius, windows unrolled. Based on redteam13 probe_morph.py: morph_gradient_diamond_where_dilate_minus_erode_u16 at W=1024, H=768, R=4 (target B, 2 threads). Diet's schedule of
the spec pipeline vs hand schedules of the SAME algorithm with the hl.maximum / hl.minimum written as explicit update
Funcs (so that they can be scheduled), run-time W, H, R. usage: rt13.py r11 ../redteam13_2026-12-03/probe_morph.py morph_gradient_diamond_where_dilate_minus_erode_u16"""
import os, time, numpy as np, halide as hl
import run11
ro, run6 = run11.run_one, run11.run9.run6
T = run11.TARGET
name = "morph_gradient_diamond_where_dilate_minus_erode_u16"
spec = run11.pipes11.SPECS[name]
hl.load_plugin(ro.PLUGINS["Diet"])
v = dict(W=1024, H=768, R=int(os.environ.get('PROBE_R', '4')))
U16 = hl.UInt(16)
built = {}
S, outs, ins, p = ro.build(spec, "Diet"); p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)); p.compile_jit(T); built["Diet"] = ("spec", S, ins, p)
S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T); built["ref"] = ("spec", S, ins, p)

def hand(kind):
    Wp, Hp, Rp = [hl.Param(hl.Int(32), n, hi) for n, hi in (("W", 1024), ("H", 768), ("R", 4))]
    for q, (lo, hi) in zip((Wp, Hp, Rp), ((16, 1024), (16, 768), (1, 4))):
        q.set_range(lo, hi)
    im = hl.ImageParam(U16, 2, "im")
    x, y, xi, yi, xo, yo = [hl.Var(n) for n in ("x", "y", "xi", "yi", "xo", "yo")]
    e = hl.BoundaryConditions.repeat_edge(im, [(0, Wp), (0, Hp)])
    r = hl.RDom([hl.Range(-Rp, 2 * Rp + 1), hl.Range(-Rp, 2 * Rp + 1)], "r"); r.where(hl.abs(r.x) + hl.abs(r.y) <= Rp)
    dl = hl.Func("dl"); dl[x, y] = hl.u16(0); dl[x, y] = hl.max(dl[x, y], e[x + r.x, y + r.y])
    er = hl.Func("er"); er[x, y] = hl.u16(65535); er[x, y] = hl.min(er[x, y], e[x + r.x, y + r.y])
    g = hl.Func("g"); g[x, y] = dl[x, y] - er[x, y]
    m = hl.Func("m"); m[x, y] = hl.select(g[x, y] > 512, hl.u8(255), hl.u8(0))
    for f in (g, m):
        f.compute_root().split(y, yo, yi, 8, hl.TailStrategy.GuardWithIf).split(x, xo, xi, 32, hl.TailStrategy.ShiftInwards).vectorize(xi).reorder(xi, xo, yi, yo).parallel(yo)
    if kind == "fused_tiles":  # dil / ero per 32x8 tile of g, in registers / stack, RVars outside
        for f in (dl, er):
            f.compute_at(g, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16)
            f.update(0).vectorize(x, 16).reorder(x, y, r.y, r.x)
    elif kind == "fused_rows_unrolled":
        for f in (dl, er):
            f.compute_at(g, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16).unroll(y, 4)
            f.update(0).split(y, yo, yi, 4).vectorize(x, 16).unroll(yi).reorder(x, yi, r.x, r.y, yo)
    elif kind == "per_R_unrolled":  # fused_tiles, then one specialization per value of R with the window unrolled
        for f in (dl, er):
            f.compute_at(g, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16)
            u = f.update(0)
            for val in range(1, 5):  # (specialize() copies the schedule so far: specializations first)
                u.specialize(Rp == val).vectorize(x, 16).reorder(r.x, r.y, x, y).unroll(r.x).unroll(r.y)
            u.vectorize(x, 16).reorder(x, y, r.y, r.x)
    elif kind == "per_R_unrolled_rows":  # the same with 4 rows per window pass
        for f in (dl, er):
            f.compute_at(g, xo).store_in(hl.MemoryType.Stack).vectorize(x, 16)
            u = f.update(0)
            for val in range(1, 5):
                u.specialize(Rp == val).split(y, yo, yi, 4).vectorize(x, 16).unroll(yi).reorder(r.x, r.y, x, yi, yo).unroll(r.x).unroll(r.y)
            u.vectorize(x, 16).reorder(x, y, r.y, r.x)
    return ("hand", (Wp, Hp, Rp), im, hl.Pipeline([g, m]))

import os
for kind in ("fused_tiles", "per_R_unrolled", "per_R_unrolled_rows"):
    built[kind] = hand(kind)
    built[kind][3].compile_jit(T)
data = spec['data'](v, np.random.default_rng(7))
res, outsd = {}, {}
for rnd in range(3):
    for label, b in built.items():
        if b[0] == "spec":
            _, S, ins, p = b
            got = run6.realize(p, S, ins, spec, v)
        else:
            _, (Wp, Hp, Rp), im, p = b
            hb = hl.Buffer(U16, [1024, 768]); np.asarray(hb)[...] = data[0]; im.set(hb); Wp.set(1024); Hp.set(768); Rp.set(v['R'])
            got = [hl.Buffer(U16, [1024, 768]), hl.Buffer(hl.UInt(8), [1024, 768])]; p.realize(got, T)
        f = lambda: p.realize(got, T)
        f(); ts = []
        for _ in range(10):
            t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
        res.setdefault(label, []).append(float(np.median(ts)) * 1e3)
        outsd[label] = [np.asarray(o).copy() for o in got]
for label in built:
    same = all(np.array_equal(a, b) for a, b in zip(outsd[label], outsd["ref"]))
    print("%-20s median %.3f ms  rounds %s  equal to ref: %s" % (label, float(np.median(res[label])), ["%.3f" % t for t in res[label]], same), flush=True)
