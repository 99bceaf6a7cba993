import sys, halide as hl, numpy as np, time
which = sys.argv[1]
plug = {"Diet": "/work/main/build/libautoschedule_diet.so", "Adams2019": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so"}[which]
hl.load_plugin(plug)
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
F32 = hl.Float(32)
inp = hl.ImageParam(F32, 3, "inp")
W = hl.Param(hl.Int(32), "W", 100); W.set_range(1, 100); H = hl.Param(hl.Int(32), "H", 100); H.set_range(1, 100); C = hl.Param(hl.Int(32), "C", 64); C.set_range(1, 64)
x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
out = hl.Func("maxpool")
out[x, y, c] = hl.maximum(inp[2 * x + r.x, 2 * y + r.y, c])
E = (W, H, C) if which == "Diet" else (100, 100, 64)
inp.dim(0).set_estimate(0, 2 * E[0] + 1); inp.dim(1).set_estimate(0, 2 * E[1] + 1); inp.dim(2).set_estimate(0, E[2])
out.set_estimate(x, 0, E[0]); out.set_estimate(y, 0, E[1]); out.set_estimate(c, 0, E[2])
pl = hl.Pipeline(out)
res = pl.auto_schedule(which, target, hl.MachineParams(2, 1 << 20, 40))
print(res.schedule_source)
pl.compile_jit(target)
a = hl.Buffer(F32, [201, 201, 64]); np.asarray(a)[...] = np.random.default_rng(0).standard_normal((201, 201, 64), dtype=np.float32)
inp.set(a); W.set(100); H.set(100); C.set(64)
o = hl.Buffer(F32, [100, 100, 64])
ts = []
for i in range(30):
    t0 = time.perf_counter(); pl.realize(o, target); ts.append(time.perf_counter() - t0)
print(which, "median ms", 1e3 * sorted(ts)[15])
