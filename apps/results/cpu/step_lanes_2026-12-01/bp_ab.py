# Interleaved A/B of schedules of the bit-plane pipeline (both outputs). usage: bp_ab.py TARGET W H variant...
import sys, time, numpy as np, halide as hl
target = hl.Target(sys.argv[1]); Wv, Hv = int(sys.argv[2]), int(sys.argv[3])
U8, U16 = hl.UInt(8), hl.UInt(16)
def build(v):
    W = hl.Param(hl.Int(32), "W", 800); W.set_range(1, 800)
    H = hl.Param(hl.Int(32), "H", 600); H.set_range(1, 600)
    inp = hl.ImageParam(U16, 2, "inp")
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    pl = hl.Func("pl"); pl[x, y, b] = hl.u8((inp[x, y] >> hl.u16(b)) & 1)
    r = hl.RDom([hl.Range(0, 16)], "r")
    pk = hl.Func("pk"); pk[x, y] = hl.u16(0); pk[x, y] = pk[x, y] | (hl.u16(pl[x, y, r]) << hl.u16(15 - r))
    p = hl.Pipeline([pl, pk])
    if v.startswith("diet:"):
        hl.load_plugin(v[5:])
        inp.dim(0).set_estimate(0, W); inp.dim(1).set_estimate(0, H)
        pl.set_estimate(x, 0, W).set_estimate(y, 0, H).set_estimate(b, 0, 16)
        pk.set_estimate(x, 0, W).set_estimate(y, 0, H)
        p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    elif v.startswith("rep"):
        G = hl.TailStrategy.GuardWithIf
        pl.compute_root().vectorize(x, 32).parallel(b)
        xo, xi, yo, yi, t, tt, ti = [hl.Var(n) for n in ("xo", "xi", "yo", "yi", "t", "tt", "ti")]
        if "pure" in v: pk.split(x, xo, xi, 16, G).vectorize(xi).split(y, yo, yi, 8, G).parallel(yo)
        u = pk.update(0)
        u.split(x, xo, xi, 32, G).vectorize(xi).split(y, yo, yi, 8, G).reorder(xi, yi, r.x, xo, yo)
        if v.startswith("rep_g"): u.fuse(xo, yo, t).split(t, tt, ti, int(v[5:]), G).parallel(tt)
        elif "fuse1" in v: u.fuse(xo, yo, t).parallel(t)
        elif "fuse" in v: u.fuse(xo, yo, t).split(t, tt, ti, 256, G).parallel(tt)
        else: u.parallel(yo)
    elif v != "none":
        lanes, vecs, inside = v.split(",")
        lanes, vecs = int(lanes), int(vecs)
        pl.compute_root().vectorize(x, 32).parallel(b)
        pk.compute_root()
        u = pk.update(0)
        xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
        u.split(x, xo, xi, lanes * vecs, hl.TailStrategy.GuardWithIf).vectorize(xi)
        if inside == "in": u.split(y, yo, yi, 8, hl.TailStrategy.GuardWithIf).reorder(xi, yi, r.x, xo, yo).parallel(yo)
        else: u.reorder(xi, r.x, xo, y).parallel(y, 8, hl.TailStrategy.GuardWithIf)
    p.compile_jit(target); return p, inp, W, H
ib = hl.Buffer(U16, [Wv, Hv]); np.asarray(ib)[...] = np.random.randint(0, 65535, size=(Wv, Hv))
vs = sys.argv[4:]
built = [build(v) for v in vs]
res = {v: [] for v in vs}
ref = None
for rnd in range(5):
    for v, (p, inp, W, H) in zip(vs, built):
        inp.set(ib); W.set(Wv); H.set(Hv)
        outs = [hl.Buffer(U8, [Wv, Hv, 16]), hl.Buffer(U16, [Wv, Hv])]
        p.realize(outs)
        if ref is None: ref = [np.asarray(o).copy() for o in outs]
        else: assert all(np.array_equal(a, np.asarray(o)) for a, o in zip(ref, outs)), v
        ts = []
        for i in range(11):
            t0 = time.perf_counter(); p.realize(outs); ts.append(time.perf_counter() - t0)
        res[v].append(sorted(ts)[5])
for v in vs:
    print("%-40s median %.4f ms  rounds %s" % (v, 1000 * np.median(res[v]), " ".join("%.3f" % (1000 * t) for t in res[v])), flush=True)
