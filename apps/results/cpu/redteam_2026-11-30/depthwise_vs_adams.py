import sys, halide as hl, numpy as np, time
which = sys.argv[1]
plug = {"Diet": "/work/main/build/libautoschedule_diet.so", "Adams2019": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so"}[which]
hl.load_plugin(plug)
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
F32 = hl.Float(32)
inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 3, "w")
W = hl.Param(hl.Int(32), "W", 128); W.set_range(1, 128); H = hl.Param(hl.Int(32), "H", 128); H.set_range(1, 128)
c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
p = hl.BoundaryConditions.constant_exterior(inp, 0.0)
r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
out = hl.Func("dwconv")
out[c, x, y] = 0.0
out[c, x, y] += p[c, x + r.x - 1, y + r.y - 1] * w[c, r.x, r.y]
E = (W, H) if which == "Diet" else (128, 128)
inp.dim(0).set_estimate(0, 32); inp.dim(1).set_estimate(0, E[0]); inp.dim(2).set_estimate(0, E[1])
w.dim(0).set_estimate(0, 32); w.dim(1).set_estimate(0, 3); w.dim(2).set_estimate(0, 3)
out.set_estimate(c, 0, 32); out.set_estimate(x, 0, E[0]); out.set_estimate(y, 0, E[1])
pl = hl.Pipeline(out)
res = pl.auto_schedule(which, target, hl.MachineParams(2, 1 << 20, 40))
print(res.schedule_source)
pl.compile_jit(target)
a = hl.Buffer(F32, [32, 128, 128]); np.asarray(a)[...] = 1.0
b = hl.Buffer(F32, [32, 3, 3]); np.asarray(b)[...] = 0.5
inp.set(a); w.set(b); W.set(128); H.set(128)
o = hl.Buffer(F32, [32, 128, 128])
ts = []
for i in range(30):
    t0 = time.perf_counter(); pl.realize(o, target); ts.append(time.perf_counter() - t0)
print(which, "median ms", 1e3 * sorted(ts)[15])
