# usage: probe.py PLUGIN TARGET form... ; env passes through (DIET_NOPACK_TMP)
import sys, time, numpy as np, halide as hl
plugin, tname = sys.argv[1], sys.argv[2]
hl.load_plugin(plugin)
T = hl.Target(tname)
K, N = 256, 256
def build(form):
    M = hl.Param(hl.Int(32), "M", 64); M.set_range(1, 256)
    j, i = hl.Var("j"), hl.Var("i")
    r = hl.RDom([hl.Range(0, K)], "r")
    ta, tb, acc = {"u8u8": (hl.UInt(8), hl.UInt(8), hl.UInt(32)), "u8i8": (hl.UInt(8), hl.Int(8), hl.Int(32)),
                   "i16": (hl.Int(16), hl.Int(16), hl.Int(32)), "f32": (hl.Float(32), hl.Float(32), hl.Float(32))}[form.split("_")[0]]
    lay = form.split("_")[1]
    A = hl.ImageParam(ta, 2, "A"); B = hl.ImageParam(tb, 2, "B")
    a = A[r, i] if lay[0] == "n" else A[i, r]
    b = B[j, r] if lay[1] == "n" else B[r, j]
    c = hl.Func("c")
    c[j, i] = hl.cast(acc, 0)
    c[j, i] += hl.cast(acc, a) * hl.cast(acc, b)
    # estimates: A, B sizes
    if lay[0] == "n": A.dim(0).set_estimate(0, K); A.dim(1).set_estimate(0, M)
    else: A.dim(0).set_estimate(0, M); A.dim(1).set_estimate(0, K)
    if lay[1] == "n": B.dim(0).set_estimate(0, N); B.dim(1).set_estimate(0, K)
    else: B.dim(0).set_estimate(0, K); B.dim(1).set_estimate(0, N)
    c.set_estimate(j, 0, N).set_estimate(i, 0, M)
    c.output_buffer().dim(0).set_bounds(0, N)
    return M, A, B, c, ta, tb, lay
def npt(t):
    return {str(hl.UInt(8)): np.uint8, str(hl.Int(8)): np.int8, str(hl.Int(16)): np.int16, str(hl.Float(32)): np.float32}[str(t)]
for form in sys.argv[3:]:
    M, A, B, c, ta, tb, lay = build(form)
    p = hl.Pipeline(c)
    r = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    import os
    if os.environ.get("SHOW"): print(r.schedule_source)
    p.compile_jit(T)
    rng = np.random.default_rng(1)
    res = []
    for m in (1, 4, 16, 64, 256):
        sa = (K, m) if lay[0] == "n" else (m, K)
        sb = (N, K) if lay[1] == "n" else (K, N)
        def rnd(shape, t):
            dt = npt(t)
            if dt == np.float32: return np.asfortranarray(rng.standard_normal(shape).astype(dt))
            info = np.iinfo(dt); return np.asfortranarray(rng.integers(info.min, info.max + 1, size=shape).astype(dt))
        an, bn = rnd(sa, ta), rnd(sb, tb)
        ha = hl.Buffer(ta, list(an.shape)); np.asarray(ha)[...] = an
        hb = hl.Buffer(tb, list(bn.shape)); np.asarray(hb)[...] = bn
        A.set(ha); B.set(hb); M.set(m)
        out = hl.Buffer(c.output_types()[0], [N, m])
        p.realize(out)
        # reference (numpy arrays are [dim1, dim0])
        a64 = an.astype(np.float64 if ta == hl.Float(32) else np.int64); b64 = bn.astype(np.float64 if ta == hl.Float(32) else np.int64)
        amk = a64.T if lay[0] == "n" else a64   # [m, k]
        bkn = b64.T if lay[1] == "n" else b64   # [k, n]
        if ta == hl.Float(32): ref = an.astype(np.float64) if False else None
        got = np.asarray(out).T
        refv = (amk.astype(np.float64) if ta == hl.Float(32) else amk) @ (bkn.astype(np.float64) if ta == hl.Float(32) else bkn)
        if ta == hl.UInt(8) and tb == hl.UInt(8): refv = refv % (1 << 32)
        elif ta != hl.Float(32): refv = ((refv + (1 << 31)) % (1 << 32)) - (1 << 31)
        ok = np.allclose(got, refv, rtol=1e-3, atol=1e-2) if ta == hl.Float(32) else np.array_equal(got.astype(np.int64), refv.astype(np.int64))
        for _ in range(3): p.realize(out)
        ts = []
        for _ in range(7):
            t0 = time.perf_counter(); n = 0
            while True:
                p.realize(out); n += 1
                if time.perf_counter() - t0 > 0.02: break
            ts.append((time.perf_counter() - t0) / n)
        res.append("M=%d %.4f%s" % (m, np.median(ts) * 1e3, "" if ok else " WRONG"))
    print(form, " | ".join(res), flush=True)
