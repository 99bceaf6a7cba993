import halide as hl, time, sys, numpy as np
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
W, H, D = 256, 256, 64
def build(variant, op):
    vol = hl.ImageParam(hl.UInt(16), 3, "vol")
    x, y = hl.Var("x"), hl.Var("y")
    rz = hl.RDom([(0, D)], "rz")
    m = hl.Func("m")
    if op == "max":
        m[x, y] = hl.u16(0); m[x, y] = hl.max(m[x, y], vol[x, y, rz])
    else:
        m = hl.Func("s"); m[x, y] = hl.u32(0); m[x, y] += hl.u32(vol[x, y, rz])
    xo, xi, yo, yi, t, xio, xii = [hl.Var(n) for n in ["xo", "xi", "yo", "yi", "t", "xio", "xii"]]
    u = m.update(0)
    m.vectorize(x, 16)
    if variant == "diet":   # 4 vectors per step, z inside, tasks of 8 rows
        u.split(x, xo, xi, 64).vectorize(xi).reorder(xi, rz.x, xo, y).split(y, yo, yi, 8).parallel(yo)
    elif variant == "adams":  # one vector per z scan
        u.split(x, xo, xi, 64).split(y, yo, yi, 32).split(xi, xio, xii, 16).vectorize(xii).reorder(xii, rz.x, xio, yi, xo, yo).fuse(xo, yo, t).parallel(t)
    elif variant.startswith("plane"):  # z outside a tile of accumulators in memory
        ty = int(variant[5:])
        u.split(x, xo, xi, 64).split(y, yo, yi, ty).split(xi, xio, xii, 16).vectorize(xii).unroll(xio).reorder(xii, xio, yi, rz.x, xo, yo).fuse(xo, yo, t).parallel(t)
    m.compute_root()
    p = hl.Pipeline(m)
    p.compile_jit(T)
    return p, vol
a = np.random.randint(0, 65535, size=(D, H, W)).astype(np.uint16)
buf = hl.Buffer(a.T)
res = {}
variants = ["diet", "adams", "plane4", "plane8", "plane16"]
for op in ["max", "sum"]:
    ps = {}
    for v in variants:
        p, vol = build(v, op); vol.set(buf); ps[v] = p
    ts = {v: [] for v in variants}
    for rnd in range(15):
        for v in variants:
            out = hl.Buffer(hl.UInt(16) if op == "max" else hl.UInt(32), [W, H])
            t0 = time.perf_counter(); ps[v].realize(out); ts[v].append(time.perf_counter() - t0)
    print(op, " ".join("%s %.3f" % (v, 1000 * sorted(ts[v])[7]) for v in variants), flush=True)
