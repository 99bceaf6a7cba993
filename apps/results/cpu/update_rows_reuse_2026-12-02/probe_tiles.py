"""Hand schedules of round 12's three-K-chunk-updates contraction: each update tiled in place with the
reduction inside the tile, several tile shapes (derived from ../kchunk_updates_probe_2026-12-02/probe_kchunk_hand.py)."""
import time, numpy as np, halide as hl
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
M, KK, N = 256, 128, 256
rng = np.random.default_rng(7)
a = np.asfortranarray(rng.standard_normal((3 * KK, M)).astype(np.float32))
b = np.asfortranarray(rng.standard_normal((N, 3 * KK)).astype(np.float32))
bias = rng.standard_normal(N).astype(np.float32)
want = (b @ a).T + bias[None, :]  # [m, n] -> compare against out in numpy [n, m]? out(n, m): np index [n, m]
def build(how):
    A = hl.ImageParam(hl.Float(32), 2, "A"); B = hl.ImageParam(hl.Float(32), 2, "B"); bb = hl.ImageParam(hl.Float(32), 1, "bias")
    K1 = hl.Param(hl.Int(32), "K1", KK); K2 = hl.Param(hl.Int(32), "K2", KK); K3 = hl.Param(hl.Int(32), "K3", KK)
    n, m, no, mo, ni, mi, t = [hl.Var(s) for s in ("n", "m", "no", "mo", "ni", "mi", "t")]
    C = hl.Func("kc_out"); C[n, m] = bb[n]
    rs = []
    for nm, lo, ext in (("r1", 0, hl.Expr(K1)), ("r2", hl.Expr(K1), hl.Expr(K2)), ("r3", hl.Expr(K1) + K2, hl.Expr(K3))):
        r = hl.RDom([hl.Range(lo, ext)], nm); rs.append(r)
        C[n, m] += A[r.x, m] * B[n, r.x]
    C.vectorize(n, 16).parallel(m)
    if how.startswith("tile_"):
        # tile_<n width>x<m rows>[_nounroll]: each update tiled in place, the RVar inside the tile
        wn, wm = [int(v) for v in how.split("_")[1].split("x")]
        for i, r in enumerate(rs):
            u = C.update(i)
            u.split(n, no, ni, wn).split(m, mo, mi, wm).reorder(ni, mi, r.x, no, mo).vectorize(ni, 16)
            if not how.endswith("nounroll"):
                u.unroll(ni).unroll(mi)
            u.parallel(mo)
    elif how == "rfactor_per_tile":
        for i, r in enumerate(rs):
            I = C.update(i).rfactor([])
            u = C.update(i)
            u.split(n, no, ni, 32).split(m, mo, mi, 6).reorder(ni, mi, no, mo).vectorize(ni, 16).parallel(mo)
            I.compute_at(hl.LoopLevel(C, hl.VarOrRVar(no), i))
            I.vectorize(n, 16).unroll(n).unroll(m)
            I.update(0).reorder(n, m, r.x).vectorize(n, 16).unroll(n).unroll(m)
    p = hl.Pipeline(C)
    p.compile_jit(T)
    A.set(hl.Buffer(a)); B.set(hl.Buffer(b)); bb.set(hl.Buffer(bias))
    out = hl.Buffer(hl.Float(32), [N, M])
    return p, out
vs = {h: build(h) for h in ("tile_32x8", "tile_64x8", "tile_32x4", "tile_64x4", "tile_32x8_nounroll", "tile_64x8_nounroll", "tile_16x8")}
for k, (p, o) in vs.items():
    p.realize(o, T); print(k, "maxerr", float(np.abs(np.asarray(o) - want.T).max()))
res = {k: [] for k in vs}
for rnd in range(3):
    for k, (p, o) in vs.items():
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
        res[k].append(np.median(ts) * 1e3)
for k, v in res.items(): print("%-18s median %.3f ms rounds %s" % (k, np.median(v), ["%.3f" % x for x in v]))
