"""Minimal Diet failure (from the guided_filter pipeline): compile_jit rejects Diet's schedule with
'Func "g_a" is computed at the following invalid location: g_a.compute_at(mb_bx, y_o)'.
g_a is read by g_b (grouped under mb_bx) and by the box filter of g_a (grouped under the output).
Works with radius 1 (7 taps -> 3 taps). Run: /usr/bin/python3 repro_guided_filter_min.py"""
import halide as hl
hl.load_plugin("/work/main/build/libautoschedule_diet.so")
W = hl.Param(hl.Int(32), "W", 1000); W.set_range(1, 1000)
H = hl.Param(hl.Int(32), "H", 800); H.set_range(1, 800)
I = hl.ImageParam(hl.Float(32), 2, "I"); P = hl.ImageParam(hl.Float(32), 2, "P")
x, y = hl.Var("x"), hl.Var("y")
Ie, Pe = hl.BoundaryConditions.repeat_edge(I), hl.BoundaryConditions.repeat_edge(P)
rr = hl.RDom([hl.Range(-3, 7)], "rr")


def box(f, n):
    bx, by = hl.Func(n + "_bx"), hl.Func(n + "_by")
    bx[x, y] = hl.sum(f[x + rr, y])
    by[x, y] = hl.sum(bx[x, y + rr])
    return by


iw = hl.Func("g_I"); iw[x, y] = Ie[x, y]
pw = hl.Func("g_P"); pw[x, y] = Pe[x, y]
mI, mP = box(iw, "mI"), box(pw, "mP")
a = hl.Func("g_a"); a[x, y] = mP[x, y] / (mI[x, y] + 1.0)
b = hl.Func("g_b"); b[x, y] = mP[x, y] - a[x, y] * mI[x, y]
ma, mb = box(a, "ma"), box(b, "mb")
o = hl.Func("guided"); o[x, y] = ma[x, y] * I[x, y] + mb[x, y]
for p in (I, P):
    p.dim(0).set_estimate(0, W); p.dim(1).set_estimate(0, H)
o.set_estimate(x, 0, W).set_estimate(y, 0, H)
pl = hl.Pipeline([o]); T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
pl.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
print("scheduled")
pl.compile_jit(T)   # raises
print("compiled OK")
