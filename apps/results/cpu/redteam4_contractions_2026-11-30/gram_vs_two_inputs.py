import sys, time, numpy as np, halide as hl
hl.load_plugin(sys.argv[1]); T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
K = 256
def syrk(two):
    N = hl.Param(hl.Int(32), "N", 64); N.set_range(1, 256)
    a = hl.ImageParam(hl.Float(32), 2, "a"); b = hl.ImageParam(hl.Float(32), 2, "b") if two else a
    j, i = hl.Var("j"), hl.Var("i"); k = hl.RDom([hl.Range(0, K)], "k")
    c = hl.Func("c"); c[j, i] = 0.0; c[j, i] += a[k, i] * b[k, j]
    a.dim(0).set_estimate(0, K); a.dim(1).set_estimate(0, N)
    if two: b.dim(0).set_estimate(0, K); b.dim(1).set_estimate(0, N)
    c.set_estimate(j, 0, N).set_estimate(i, 0, N)
    p = hl.Pipeline(c); r = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    if len(sys.argv) > 2: open("/tmp/syrk_%d.txt" % two, "w").write(r.schedule_source)
    p.compile_jit(T); return p, a, b, N
P = [syrk(False), syrk(True)]
rng = np.random.default_rng(0)
for n in (64, 256):
    ab = hl.Buffer(hl.Float(32), [K, n]); np.asarray(ab)[...] = rng.standard_normal((K, n))
    res = {0: [], 1: []}
    for rep in range(7):
        for w, (p, a, b, N) in enumerate(P):
            a.set(ab); b.set(ab); N.set(n); out = hl.Buffer(hl.Float(32), [n, n]); p.realize(out)
            t0 = time.perf_counter(); c = 0
            while time.perf_counter() - t0 < 0.03: p.realize(out); c += 1
            res[w].append((time.perf_counter() - t0) / c * 1e3)
    print("N=%d same-input %.3f ms, two inputs %.3f ms" % (n, np.median(res[0]), np.median(res[1])))
