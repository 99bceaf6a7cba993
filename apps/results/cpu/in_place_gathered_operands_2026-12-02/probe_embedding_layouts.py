import sys, time, numpy as np, halide as hl
plugin = sys.argv[1]; layout = sys.argv[2]
hl.load_plugin(plugin)
tgt = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
T = hl.Param(hl.Int(32), "T", 512); T.set_range(1, 512)
V = hl.Param(hl.Int(32), "V", 5000); V.set_range(1, 5000)
E = hl.ImageParam(hl.Float(32), 2, "E"); ids = hl.ImageParam(hl.Int(32), 1, "ids"); W = hl.ImageParam(hl.Float(32), 2, "W")
n, t = hl.Var("n"), hl.Var("t")
ce = hl.BoundaryConditions.constant_exterior(E, 0.0, [(0, 128), (0, hl.Expr(V))])
k = hl.RDom([(0, 128)], "k")
o = hl.Func("out")
if layout == "tn":   # tokens innermost: the gathered operand moves with the vectors
    o[t, n] = 0.0
    o[t, n] += ce[k.x, ids[t]] * W[k.x, n]
    o.set_estimates([(0, hl.Expr(T)), (0, 128)])
    W.set_estimates([(0, 128), (0, 128)])
else:
    o[n, t] = 0.0
    o[n, t] += W[n, k.x] * ce[k.x, ids[t]]
    o.set_estimates([(0, 128), (0, hl.Expr(T))])
    W.set_estimates([(0, 128), (0, 128)])
E.set_estimates([(0, 128), (0, hl.Expr(V))]); ids.set_estimates([(0, T)])
p = hl.Pipeline(o)
if plugin != "none":
    p.auto_schedule("Diet", tgt)
p.compile_jit(tgt)
rng = np.random.default_rng(1)
for Tv, Vv in [(512, 5000), (65, 626), (3, 10)]:
    e = rng.random((Vv, 128), dtype=np.float32); e_b = hl.Buffer(np.asfortranarray(e.T))  # Halide E(k, v)
    iv = rng.integers(-3, Vv + 2, Tv).astype(np.int32); w = (rng.random((128, 128), dtype=np.float32) - .5)
    E.set(e_b); ids.set(hl.Buffer(iv)); W.set(hl.Buffer(np.asfortranarray(w.T)))  # Halide W(a, b) = w[b, a]; T.set(Tv); V.set(Vv)
    shape = [Tv, 128] if layout == "tn" else [128, Tv]
    out = p.realize(shape, tgt); ts = []
    for i in range(15):
        t0 = time.perf_counter(); p.realize(out, tgt); ts.append(time.perf_counter() - t0)
    got = np.asarray(out)  # numpy view in Halide's dim order
    emb = np.where(((iv >= 0) & (iv < Vv))[:, None], e[np.clip(iv, 0, Vv - 1)], 0)  # [T,128]
    # tn: out(t, n) = sum_k emb[t, k] W(k, n) = emb @ w.T[...]: W(k, n) = w[n, k]
    # nt: out(n, t) = sum_k W(n, k) emb[t, k], W(n, k) = w[k, n]
    want = (emb @ w.T) if layout == "tn" else (emb @ w).T
    print(layout, Tv, Vv, "median %.4f ms" % (1e3 * sorted(ts)[7]), "maxerr %.2e" % np.abs(got - want).max())
