import halide as hl, numpy as np, time
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
U8, U16 = hl.UInt(8), hl.UInt(16)
def build(v):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    pl = hl.Func("pl"); pl[x, y, b] = hl.u8((inp[x, y] >> hl.u16(b)) & 1)
    r = hl.RDom([hl.Range(0, 16)], "r")
    pk = hl.Func("pk"); pk[x, y] = hl.u16(0); pk[x, y] = pk[x, y] | (hl.u16(pl[x, y, r]) << hl.u16(15 - r))
    pl.compute_root().vectorize(x, 32)
    if v != "pl_serial_vec64_par_y": pl.parallel(b)
    pk.compute_root()
    u = pk.update(0)
    xo, xi = hl.Var("xo"), hl.Var("xi")
    if v == "vec_r_inner":
        u.vectorize(x, 16, hl.TailStrategy.GuardWithIf)
    elif v == "vec16_par_y":
        u.vectorize(x, 16, hl.TailStrategy.GuardWithIf).parallel(y, 8)
    elif v == "vec64_serial":
        u.split(x, xo, xi, 64, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, xo, y)
    elif v == "vec64_par_y":
        u.split(x, xo, xi, 64, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, xo, y).parallel(y, 8)
    elif v == "pl_serial_vec64_par_y":
        u.split(x, xo, xi, 64, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, xo, y).parallel(y, 8)
    p = hl.Pipeline([pl, pk]); p.compile_jit(target); return p, inp
ib = hl.Buffer(U16, [800, 600]); np.asarray(ib)[...] = np.random.randint(0, 65535, size=(800, 600))
for v in ["none", "vec_r_inner", "vec16_par_y", "vec64_serial", "vec64_par_y", "pl_serial_vec64_par_y"]:
    p, inp = build(v); inp.set(ib)
    outs = [hl.Buffer(U8, [800, 600, 16]), hl.Buffer(U16, [800, 600])]
    ts = []
    for i in range(15):
        t0 = time.perf_counter(); p.realize(outs); ts.append(time.perf_counter() - t0)
    print(v, "%.3f ms" % (1000 * sorted(ts)[7]))
