import halide as hl, time, sys, numpy as np
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
hl.load_plugin(sys.argv[1])
W, H = int(sys.argv[2]), int(sys.argv[3])
in1 = hl.ImageParam(hl.UInt(8), 3, "in1")
x, y, z = hl.Var("x"), hl.Var("y"), hl.Var("z")
upd0 = hl.Func("upd0"); red1 = hl.Func("red1")
upd0[x, y, z] = in1[x, y, z]
upd0[x, 0, z] = hl.u8(7)
r = hl.RDom([(0, 8)])
red1[x, y] = hl.u8(0)
red1[x, y] = hl.max(red1[x, y], upd0[r.x, x, y])
in1.set_estimates([(0, 8), (0, W), (0, H)])
upd0.set_estimates([(0, 8), (0, W), (0, H)])
red1.set_estimates([(0, W), (0, H)])
p = hl.Pipeline([red1, upd0])
p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
t = time.time(); p.compile_jit(T); ct = time.time() - t
a = np.random.randint(0, 255, size=(H, W, 8)).astype(np.uint8)
inb = hl.Buffer(a.T); in1.set(inb)
o1 = hl.Buffer(hl.UInt(8), [W, H]); o0 = hl.Buffer(hl.UInt(8), [8, W, H])
ts = []
for i in range(30):
    t = time.perf_counter(); p.realize([o1, o0]); ts.append(time.perf_counter() - t)
ref = np.maximum(a.max(axis=2), 0); ref[:, 0] = np.maximum(a[:, 1:, :].max(axis=2)[:, 0] if False else ref[:, 0], 0)
print("%s W=%d H=%d compile %.2f s median %.4f ms" % (sys.argv[1].split('/')[-1], W, H, ct, 1000 * sorted(ts)[15]))
