# The tail of multi-vector reduction steps over a row not divisible by the step. usage: TARGET W
import sys, time, numpy as np, halide as hl
target = hl.Target(sys.argv[1]); W, H = int(sys.argv[2]), 600
U8, U16 = hl.UInt(8), hl.UInt(16)
G = hl.TailStrategy.GuardWithIf
def build(v, lanes=16, vecs=4):
    inp = hl.ImageParam(U8, 3, "inp")
    x, y = hl.Var("x"), hl.Var("y")
    r = hl.RDom([hl.Range(0, 16)], "r")
    o = hl.Func("o"); o[x, y] = hl.u16(0); o[x, y] = o[x, y] | (hl.u16(inp[x, y, r]) << hl.u16(15 - r))
    o.vectorize(x, lanes).parallel(y, 8)
    u = o.update(0); xo, xi, xio, xii = hl.Var("xo"), hl.Var("xi"), hl.Var("xio"), hl.Var("xii")
    if v == "flat":
        u.split(x, xo, xi, lanes * vecs, G).vectorize(xi).reorder(xi, r.x, xo, y)
    elif v == "one":
        u.split(x, xo, xi, lanes, G).vectorize(xi).reorder(xi, r.x, xo, y)
    elif v in ("nested_loop", "nested_unroll"):
        u.split(x, xo, xi, lanes * vecs, G).split(xi, xio, xii, lanes, G).vectorize(xii).reorder(xii, xio, r.x, xo, y)
        if v == "nested_unroll": u.unroll(xio)
    u.parallel(y, 8, G)
    p = hl.Pipeline(o); p.compile_jit(target); return p, inp
cfgs = sys.argv[3:] or ["one", "flat", "nested_loop", "nested_unroll"]
built = [build(c) for c in cfgs]
ib = hl.Buffer(U8, [W, H, 16]); np.asarray(ib)[...] = np.random.randint(0, 2, size=(W, H, 16))
res = {c: [] for c in cfgs}; ref = None
for rnd in range(5):
    for c, (p, inp) in zip(cfgs, built):
        inp.set(ib); out = hl.Buffer(U16, [W, H]); p.realize(out)
        if ref is None: ref = np.asarray(out).copy()
        else: assert np.array_equal(ref, np.asarray(out)), c
        ts = []
        for i in range(11):
            t0 = time.perf_counter(); p.realize(out); ts.append(time.perf_counter() - t0)
        res[c].append(sorted(ts)[5])
print("W=%d " % W + "  ".join("%s: %.3f" % (c, 1000 * np.median(res[c])) for c in cfgs), flush=True)
