"""Hand tiles of round 7's decayed accumulation C = 0.75 C + A(k, m) B(n, k) (non-associative, no
micro-kernel) at M = 160, N = 192, K = 128: each tile W x R (W points of n in vectors, R rows of m) with
the RVar inside the tile, vectors and rows unrolled, parallel over row tiles; both targets.
How many accumulator registers the rows-inside-steps tile may take.  Usage: probe_decayed.py A|B"""
import sys, time, numpy as np, halide as hl
TS = dict(A="x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41", B="x86-64-linux-avx-avx2-f16c-fma-sse41")
T = hl.Target(TS[sys.argv[1]])
lanes = 16 if sys.argv[1] == "A" else 8
M, K, N = 160, 128, 192  # N a multiple of 64: the unrolled guarded 64-wide splits read past a 160-wide B
rng = np.random.default_rng(7)
a = np.asfortranarray(rng.standard_normal((K, M)).astype(np.float32))   # halide A(k, m), B(n, k): Fortran order
b = np.asfortranarray(rng.standard_normal((N, K)).astype(np.float32))
def build(wn, wm):
    A = hl.ImageParam(hl.Float(32), 2, "A"); B = hl.ImageParam(hl.Float(32), 2, "B")
    n, m, no, mo, ni, mi = [hl.Var(s) for s in ("n", "m", "no", "mo", "ni", "mi")]
    r = hl.RDom([hl.Range(0, K)], "r")
    C = hl.Func("da_C"); C[n, m] = 0.0; C[n, m] = hl.f32(0.75) * C[n, m] + A[r.x, m] * B[n, r.x]
    C.vectorize(n, lanes).parallel(m)
    u = C.update(0)
    if wn == 0:  # one row per step (the schedule before the rule)
        u.split(n, no, ni, 4 * lanes).reorder(ni, r.x, no, m).vectorize(ni, lanes).parallel(m)
    else:
        u.split(n, no, ni, wn).split(m, mo, mi, wm).reorder(ni, mi, r.x, no, mo).vectorize(ni, lanes).unroll(ni).unroll(mi).parallel(mo)
    p = hl.Pipeline(C); p.compile_jit(T)
    A.set(hl.Buffer(a)); B.set(hl.Buffer(b))
    return p, hl.Buffer(hl.Float(32), [N, M])
tiles = [(4 * lanes, 8), (4 * lanes, 4), (4 * lanes, 2), (2 * lanes, 8), (2 * lanes, 4), (lanes, 8), (0, 1)]
vs = {"%dx%d" % t: build(*t) for t in tiles}
ref = None
for k, (p, o) in vs.items():
    p.realize(o, T); x = np.asarray(o).copy()
    ref = x if ref is None else ref
    print(k, "maxdiff vs first", float(np.abs(x - ref).max()), flush=True)
res = {k: [] for k in vs}
for rnd in range(3):
    for k, (p, o) in vs.items():
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
        res[k].append(np.median(ts) * 1e3)
for k, v in res.items(): print("%s %-8s median %.4f ms rounds %s" % (sys.argv[1], k, np.median(v), ["%.4f" % x for x in v]))
