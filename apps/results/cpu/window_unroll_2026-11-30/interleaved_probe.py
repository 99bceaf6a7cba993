# Probe (not a change): an interleaved RGB 3-tap filter declared through strides (x stride 3, c stride 1,
# the red-team pipeline interleaved_rgb) under hand schedules: "diet" is the shape of Diet's schedule
# today (x vectorized, c a loop outside x, strided stores), "interleave" puts c innermost, unrolled,
# inside the vectorized x (Halide then stores whole interleaved vectors), the boundary condition per
# tile the same way; "interleave_inl" inlines the boundary condition; "plugin" is Diet. usage: interleaved_probe.py plugin diet interleave interleave_inl
import sys, halide as hl, numpy as np, time
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
F32 = hl.Float(32)
def build(v):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    inp.dim(0).set_stride(3); inp.dim(2).set_stride(1); inp.dim(2).set_bounds(0, 3)
    e = hl.BoundaryConditions.repeat_edge(inp)
    out = hl.Func("il_out")
    out[x, y, c] = e[x - 1, y, c] + e[x, y, c] * 2 + e[x + 1, y, c] + hl.f32(c)
    out.output_buffer().dim(0).set_stride(3); out.output_buffer().dim(2).set_stride(1); out.output_buffer().dim(2).set_bounds(0, 3)
    xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
    if v == "diet":  # Diet's current shape of schedule
        out.split(x, xo, xi, 8, hl.TailStrategy.ShiftInwards).vectorize(xi).split(y, yo, yi, 4, hl.TailStrategy.GuardWithIf).reorder(xi, xo, yi, c, yo).parallel(yo)
        e.compute_at(out, yo).vectorize(e.args()[0], 8, hl.TailStrategy.RoundUp)
    elif v == "interleave":  # c innermost, unrolled, x vectorized outside it: interleaved stores
        out.bound(c, 0, 3).reorder(c, x, y).split(x, xo, xi, 8, hl.TailStrategy.ShiftInwards).vectorize(xi).unroll(c).split(y, yo, yi, 4, hl.TailStrategy.GuardWithIf).parallel(yo)
        e.compute_at(out, yo).reorder(e.args()[2], e.args()[0], e.args()[1]).bound(e.args()[2], 0, 3).unroll(e.args()[2]).vectorize(e.args()[0], 8, hl.TailStrategy.RoundUp)
    elif v == "interleave_inl":
        out.bound(c, 0, 3).reorder(c, x, y).split(x, xo, xi, 8, hl.TailStrategy.ShiftInwards).vectorize(xi).unroll(c).split(y, yo, yi, 4, hl.TailStrategy.GuardWithIf).parallel(yo)
    elif v == "plugin":  # Diet itself, W and H in [1, 1024]
        import os
        hl.load_plugin(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "build", "libautoschedule_diet.so"))
        Wp = hl.Param(hl.Int(32), "W", 700); Wp.set_range(1, 1024); Hp = hl.Param(hl.Int(32), "H", 500); Hp.set_range(1, 1024)
        inp.dim(0).set_estimate(0, Wp); inp.dim(1).set_estimate(0, Hp); inp.dim(2).set_estimate(0, 3)
        out.set_estimate(x, 0, Wp); out.set_estimate(y, 0, Hp); out.set_estimate(c, 0, 3)
        pl = hl.Pipeline(out); pl.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40)); pl.compile_jit(target); return pl, inp
    pl = hl.Pipeline(out); pl.compile_jit(target); return pl, inp
vs = sys.argv[1:]
W, H = 700, 500
a = hl.Buffer(F32, [3, W, H]).transposed([2, 0, 1]) if False else None
arr = np.random.default_rng(0).random((H, W, 3), dtype=np.float32)
a = hl.Buffer(arr, [2, 1, 0]) if False else None
# interleaved buffer: dims (x, y, c) with strides (3, 3W, 1)
base = hl.Buffer(F32, [3, W, H]); np.asarray(base)[...] = 1.0
a = base.transposed([2, 0, 1])
ob = hl.Buffer(F32, [3, W, H]); o = ob.transposed([2, 0, 1])
bl = {}
for v in vs:
    pl, inp = build(v); inp.set(a); bl[v] = pl
res = {v: [] for v in vs}
for rnd in range(int(__import__("os").environ.get("ROUNDS", "5"))):
    for v in vs:
        for i in range(30):
            t0 = time.perf_counter(); bl[v].realize(o, target); res[v].append(time.perf_counter() - t0)
for v in vs: print(v, "median ms %.3f" % (1e3 * np.median(res[v])))
