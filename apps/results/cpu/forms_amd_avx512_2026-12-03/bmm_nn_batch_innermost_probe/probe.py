import halide as hl, numpy as np, time, sys
T = int(sys.argv[1]) if len(sys.argv) > 1 else 128
B, D = 192, 64
tgt = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
rng = np.random.default_rng(1)
pn = rng.standard_normal((T, T, B), dtype=np.float32)   # numpy order p[r? ...] -> halide p(b, i, r) means np [r, i, b]
vn = rng.standard_normal((D, T, B), dtype=np.float32)   # v(b, r, j) -> np [j, r, b]
pb = hl.Buffer(pn.T); vb = hl.Buffer(vn.T)
def build(kind):
    p = hl.ImageParam(hl.Float(32), 3, "p"); v = hl.ImageParam(hl.Float(32), 3, "v")
    b, i, j = hl.Var("b"), hl.Var("i"), hl.Var("j")
    r = hl.RDom([(0, T)], "r")
    acc = hl.Func("acc"); out = hl.Func("out")
    acc[b, i, j] = 0.0
    acc[b, i, j] += p[b, i, r.x] * v[b, r.x, j]
    out[b, i, j] = acc[b, i, j]
    bo, bi, io, ii, jo, ji, t = [hl.Var(n) for n in ["bo", "bi", "io", "ii", "jo", "ji", "t"]]
    RI, RJ = 5, 5
    if kind == "inplace_bi":   # tasks over (b vector, i block of 10), no staging
        out.split(b, bo, bi, 16).split(i, io, ii, 10, hl.TailStrategy.ShiftInwards).split(j, jo, ji, RJ, hl.TailStrategy.ShiftInwards)
        io2, ii2 = hl.Var("io2"), hl.Var("ii2")
        out.split(ii, io2, ii2, RI).reorder(bi, ii2, ji, io2, jo, io, bo).fuse(io, bo, t).parallel(t).vectorize(bi)
        acc.compute_at(out, jo).vectorize(b).unroll(i).unroll(j)
        acc.update().reorder(b, i, j, r.x).vectorize(b).unroll(i).unroll(j)
    elif kind == "stage_v":    # per b-vector task: v staged (16 x T x 64), p in place
        out.split(b, bo, bi, 16).split(i, io, ii, RI, hl.TailStrategy.ShiftInwards).split(j, jo, ji, RJ, hl.TailStrategy.ShiftInwards)
        out.reorder(bi, ii, ji, jo, io, bo).parallel(bo).vectorize(bi)
        acc.compute_at(out, jo).vectorize(b).unroll(i).unroll(j)
        acc.update().reorder(b, i, j, r.x).vectorize(b).unroll(i).unroll(j)
        vs = getattr(v, "in")(acc); vs.compute_at(out, bo).vectorize(vs.args()[0])
    elif kind == "kblock":     # acc per (b vector, i block 10, all j) in memory; r blocked by KB
        KB = int(sys.argv[2]) if len(sys.argv) > 2 else 32
        out.split(b, bo, bi, 16).split(i, io, ii, 10, hl.TailStrategy.ShiftInwards)
        out.reorder(bi, ii, j, io, bo).fuse(io, bo, t).parallel(t).vectorize(bi)
        acc.compute_at(out, t).vectorize(b)
        ro, ri = hl.RVar("ro"), hl.RVar("ri")
        u = acc.update()
        u.split(r.x, ro, ri, KB, hl.TailStrategy.GuardWithIf)
        u.split(i, io, ii, RI, hl.TailStrategy.GuardWithIf).split(j, jo, ji, 4, hl.TailStrategy.GuardWithIf)
        u.reorder(b, ii, ji, ri, jo, io, ro).vectorize(b).unroll(ii).unroll(ji)
    elif kind == "canon_like_stage":  # Diet-like: stage p and v per b-vector
        out.split(b, bo, bi, 16).split(i, io, ii, RI, hl.TailStrategy.ShiftInwards).split(j, jo, ji, RJ, hl.TailStrategy.ShiftInwards)
        out.reorder(bi, ii, ji, jo, io, bo).parallel(bo).vectorize(bi)
        acc.compute_at(out, jo).vectorize(b).unroll(i).unroll(j)
        acc.update().reorder(b, i, j, r.x).vectorize(b).unroll(i).unroll(j)
        ps = getattr(p, "in")(acc); ps.compute_at(out, bo).reorder_storage(ps.args()[0], ps.args()[2], ps.args()[1]).vectorize(ps.args()[0])
        vs = getattr(v, "in")(acc); vs.compute_at(out, bo).vectorize(vs.args()[0])
    p.set(pb); v.set(vb)
    out.compile_jit(tgt)
    return out
ref = np.einsum('rib,jrb->jib', pn, vn)
for kind in sys.argv[3:] if len(sys.argv) > 3 else ["canon_like_stage", "inplace_bi", "stage_v", "kblock"]:
    f = build(kind)
    o = f.realize([B, T, D])
    err = np.abs(np.asarray(o) - ref.T).max()
    ts = []
    for rep in range(7):
        t0 = time.perf_counter()
        for _ in range(5): f.realize(o)
        ts.append((time.perf_counter() - t0) / 5)
    print(f"T={T} {kind}: {min(ts)*1e3:.3f} ms (median {sorted(ts)[3]*1e3:.3f}) err {err:.2e}", flush=True)
