import sys, time, numpy as np, halide as hl, os
hl.load_plugin(sys.argv[1])
target = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
T = hl.Param(hl.Int(32), "T", 64); T.set_range(1, 128)
K, N = 768, 2304
x = hl.ImageParam(hl.Float(32), 2, "x"); w = hl.ImageParam(hl.Float(32), 2, "w")
n, m = hl.Var("n"), hl.Var("m"); k = hl.RDom([(0, K)], "k")
acc = hl.Func("acc"); acc[n, m] = 0.0; acc[n, m] += x[k, m] * w[k, n]
y = hl.Func("y"); y[n, m] = acc[n, m]
x.dim(0).set_estimate(0, K); x.dim(1).set_estimate(0, 16 * T); w.dim(0).set_estimate(0, K); w.dim(1).set_estimate(0, N)
y.set_estimate(n, 0, N).set_estimate(m, 0, 16 * T)
p = hl.Pipeline(y)
src = p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40)).schedule_source
t0 = time.time(); p.compile_jit(target); ct = time.time() - t0
wa = np.random.rand(N, K).astype(np.float32); w.set(hl.Buffer(wa.T))
res = []
for t in [1, 4, 16, 64, 128]:
    xa = np.random.rand(16 * t, K).astype(np.float32); x.set(hl.Buffer(xa.T)); T.set(t)
    o = hl.Buffer(hl.Float(32), [N, 16 * t])
    ts = []
    for i in range(15):
        t1 = time.perf_counter(); p.realize(o); ts.append(time.perf_counter() - t1)
    ok = np.allclose(np.asarray(o), (xa @ wa.T).T, rtol=1e-3, atol=1e-2)
    res.append("T=%d %.3f ms%s" % (t, 1000 * sorted(ts)[7], "" if ok else " WRONG"))
print(sys.argv[1].split("/")[-1], os.environ.get("HL_DIET_MODEL", "default"), "compile %.1f s |" % ct, " | ".join(res), "| staged" if "stage=1" in src else "", flush=True)
