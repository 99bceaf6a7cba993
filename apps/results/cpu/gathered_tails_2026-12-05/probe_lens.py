import halide as hl, numpy as np, sys, time
hl.load_plugin(sys.argv[1])
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
P = {n: hl.Param(hl.Int(32), n, v) for n, v in dict(W=1024, H=768, K1=400, K2=200).items()}
for n, (lo, hi) in dict(W=(1, 1024), H=(1, 768), K1=(0, 400), K2=(0, 200)).items(): P[n].set_range(lo, hi)
fE = lambda p: hl.f32(p)
im = hl.ImageParam(hl.UInt(8), 3, "im")
c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
e = hl.BoundaryConditions.constant_exterior(im, 0, [(0, 3), (0, P['W']), (0, P['H'])])
cx = fE(P['W']) * 0.5; cy = fE(P['H']) * 0.5; nrm = 1.0 / hl.max(cx, cy)
ux = (hl.f32(x) + 0.5 - cx) * nrm; uy = (hl.f32(y) + 0.5 - cy) * nrm
r2 = ux * ux + uy * uy
k1 = fE(P['K1']) * 0.001; k2 = fE(P['K2']) * 0.001
s = 1.0 + k1 * r2 + k2 * r2 * r2
src = hl.Func("lb_src"); src[x, y] = (ux * s / nrm + cx - 0.5, uy * s / nrm + cy - 0.5)
sx = src[x, y][0]; sy = src[x, y][1]
fx = hl.floor(sx); fy = hl.floor(sy); ix = hl.i32(fx); iy = hl.i32(fy); ax = sx - fx; ay = sy - fy
g = lambda dx, dy: hl.f32(e[c, ix + dx, iy + dy])
v = (g(0, 0) * (1 - ax) + g(1, 0) * ax) * (1 - ay) + (g(0, 1) * (1 - ax) + g(1, 1) * ax) * ay
o = hl.Func("lb_out"); o[c, x, y] = hl.u8(hl.clamp(v + 0.5, 0.0, 255.0))
im.dim(0).set_estimate(0, 3).dim(1).set_estimate(0, P['W']).dim(2).set_estimate(0, P['H'])
o.set_estimate(c, 0, 3).set_estimate(x, 0, P['W']).set_estimate(y, 0, P['H'])
p = hl.Pipeline(o)
p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
if len(sys.argv) > 2: p.compile_to_lowered_stmt(sys.argv[2], p.infer_arguments(), hl.StmtOutputFormat.Text, T)

p.compile_jit(T)
for (w, h, a, b) in [(1024, 768, 400, 200), (1024, 768, 0, 0), (129, 97, 51, 26)]:
    a_ = np.asfortranarray(np.random.randint(0, 255, (3, w, h)).astype(np.uint8))
    im.set(hl.Buffer(a_)); P['W'].set(w); P['H'].set(h); P['K1'].set(a); P['K2'].set(b)
    out = hl.Buffer(hl.UInt(8), [3, w, h])
    ts = []
    for i in range(5):
        t0 = time.perf_counter(); p.realize(out, T); ts.append(time.perf_counter() - t0)
    print(w, h, a, b, "ms", sorted(ts)[2] * 1e3)
