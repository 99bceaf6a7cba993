import sys, time, numpy as np, halide as hl
hl.load_plugin(sys.argv[1])
import os; target = hl.Target(os.environ.get("TGT", "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"))
M, N, K = (hl.Param(hl.Int(32), s, 64) for s in "MNK")
for p, hi in ((M, 192), (N, 192), (K, 160)): p.set_range(1, hi)
X = hl.ImageParam(hl.Float(32), 2, "X"); W = hl.ImageParam(hl.Float(32), 2, "W")
n, m = hl.Var("n"), hl.Var("m")
r = hl.RDom([hl.Range(0, K)], "r")
C = hl.Func("C"); C[n, m] = 0.0; C[n, m] += X[r, m] * W[r, n]
X.dim(0).set_estimate(0, K); X.dim(1).set_estimate(0, M); W.dim(0).set_estimate(0, K); W.dim(1).set_estimate(0, N)
C.set_estimate(n, 0, N).set_estimate(m, 0, M)
p = hl.Pipeline(C)
p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
t0 = time.time(); p.compile_jit(target); ct = time.time() - t0
out = []
for (m_, n_, k_) in [(192, 192, 160), (64, 64, 64), (7, 150, 33), (150, 7, 100)]:
    xa = np.random.rand(m_, k_).astype(np.float32); wa = np.random.rand(n_, k_).astype(np.float32)
    X.set(hl.Buffer(xa.T)); W.set(hl.Buffer(wa.T)); M.set(m_); N.set(n_); K.set(k_)
    o = hl.Buffer(hl.Float(32), [n_, m_])
    ts = []
    for i in range(31):
        t = time.perf_counter(); p.realize(o); ts.append(time.perf_counter() - t)
    ok = np.allclose(np.asarray(o), (xa @ wa.T).T, rtol=1e-4, atol=1e-3)
    out.append("%dx%dx%d %.4f ms %s" % (m_, n_, k_, 1000 * sorted(ts)[15], "ok" if ok else "WRONG"))
print("compile %.1f s | " % ct + " | ".join(out), flush=True)
