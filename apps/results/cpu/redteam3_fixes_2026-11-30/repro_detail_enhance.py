"""Diet failure: two-scale detail enhancement. compile_jit rejects Diet's schedule:
'Func "de_detail" is computed at the following invalid location ...'.
de_detail = src - box(src) is read pointwise by the output and by a 7x7 box of itself.
Run: /usr/bin/python3 repro_detail_enhance.py"""
import halide as hl
hl.load_plugin("/work/main/build/libautoschedule_diet.so")
W = hl.Param(hl.Int(32), "W", 1000); W.set_range(1, 1000)
H = hl.Param(hl.Int(32), "H", 800); H.set_range(1, 800)
inp = hl.ImageParam(hl.Float(32), 2, "inp")
x, y = hl.Var("x"), hl.Var("y")
rr = hl.RDom([hl.Range(-3, 7)], "rr")


def box(f, n):
    bx, by = hl.Func(n + "_bx"), hl.Func(n + "_by")
    bx[x, y] = hl.sum(f[x + rr, y])
    by[x, y] = hl.sum(bx[x, y + rr]) / 49.0
    return by


src = hl.Func("de_src"); src[x, y] = hl.BoundaryConditions.repeat_edge(inp)[x, y]
base = box(src, "de_base")
det = hl.Func("de_detail"); det[x, y] = src[x, y] - base[x, y]
o = hl.Func("detail_enh"); o[x, y] = box(base, "de_b2")[x, y] + 2.0 * det[x, y] + box(det, "de_d2")[x, y]
inp.dim(0).set_estimate(0, W); inp.dim(1).set_estimate(0, H)
o.set_estimate(x, 0, W).set_estimate(y, 0, H)
pl = hl.Pipeline([o]); T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
pl.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
print("scheduled")
pl.compile_jit(T)   # raises
print("compiled OK")
