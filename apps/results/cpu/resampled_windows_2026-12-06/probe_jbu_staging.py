import halide as hl, numpy as np, time, sys
BF = hl.BoundaryConditions
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
import os
W, H, SR = int(os.environ.get("W", 320)), int(os.environ.get("H", 240)), 64
def build(mode):
    L = hl.ImageParam(hl.Float(32), 2, "L"); G = hl.ImageParam(hl.UInt(8), 2, "G")
    x, y, i, j, dv = [hl.Var(n) for n in "x y i j dv".split()]
    Le = BF.repeat_edge(L); Ge = BF.repeat_edge(G)
    ws = hl.Func("ws"); ws[i, j] = hl.exp(-hl.f32(i * i + j * j) * (1.0 / 4.5))
    lut = hl.Func("lut"); lut[dv] = hl.exp(-hl.f32(dv * dv) / (2.0 * SR * SR))
    r = hl.RDom([(-2, 5), (-2, 5)], "r")
    lx = x / 2 + r.x; ly = y / 2 + r.y
    wgt = ws[r.x, r.y] * lut[hl.i32(hl.absd(Ge[x, y], Ge[2 * lx, 2 * ly]))]
    num = hl.Func("num"); num[x, y] = 0.0; num[x, y] += wgt * Le[lx, ly]
    den = hl.Func("den"); den[x, y] = 0.0; den[x, y] += wgt
    o = hl.Func("o"); o[x, y] = num[x, y] / den[x, y]
    lut.compute_root(); ws.compute_root()
    if "rootbc" in mode:
        Le.compute_root(); Ge.compute_root().vectorize(Ge.args()[0], 32).parallel(Ge.args()[1])
        Le.vectorize(Le.args()[0], 8).parallel(Le.args()[1])
    yo, yi, xo, xi = hl.Var("yo"), hl.Var("yi"), hl.Var("xo"), hl.Var("xi")
    if mode.startswith("mull"):
      if "inl" not in mode:
        Le.compute_root(); Ge.compute_root().vectorize(Ge.args()[0], 32).parallel(Ge.args()[1])
        Le.vectorize(Le.args()[0], 8).parallel(Le.args()[1])
      if True:
        xio, xii = hl.Var("xio"), hl.Var("xii")
        o.compute_root().split(x, xo, xi, 64).reorder(xi, xo, y).split(xi, xio, xii, 8).vectorize(xii).parallel(y)
        for f in (num, den):
            f.compute_at(o, xo).vectorize(x, 8)
            if "dorder" in mode: f.update().split(x, xio, xii, 8, hl.TailStrategy.GuardWithIf).vectorize(xii).reorder(xii, r.x, r.y, xio, y).unroll(r.x)
            else: f.update().reorder(r.x, x, r.y, y).split(x, xio, xii, 8, hl.TailStrategy.GuardWithIf).vectorize(xii)
        p = hl.Pipeline(o); p.compile_to_lowered_stmt("/tmp/jbu/%s.stmt" % mode, [L, G], hl.StmtOutputFormat.Text, T); p.compile_to_assembly("/tmp/jbu/%s.s" % mode, [L, G], "f", T); p.compile_jit(T); return p, L, G, o
    o.split(y, yo, yi, 16).vectorize(x, 8).parallel(yo)
    if not mode.startswith("d2"):
      for f in (num, den):
        f.compute_at(o, yo).vectorize(x, 8)
        f.update().reorder(x, r.x, r.y, y).vectorize(x, 8).unroll(r.x)
        # Diet's: reorder(x_vi, r_x, r_y, x_vo, y)
    if mode.startswith("d2"):
        if "rG" in mode: Ge.compute_root().vectorize(Ge.args()[0], 32).parallel(Ge.args()[1])
        if "rL" in mode: Le.compute_root().vectorize(Le.args()[0], 8).parallel(Le.args()[1])
        if "rbc" in mode:
            Le.compute_root(); Ge.compute_root().vectorize(Ge.args()[0], 32).parallel(Ge.args()[1])
            Le.vectorize(Le.args()[0], 8).parallel(Le.args()[1])
        for f in (num, den):
            f.compute_at(o, yo).vectorize(x, 8, hl.TailStrategy.RoundUp)
            if "mo" in mode: f.update().split(x, xo, xi, 8, hl.TailStrategy.RoundUp).vectorize(xi).reorder(r.x, xi, xo, r.y, y)
            elif "mrow" in mode: f.update().split(x, xo, xi, 8, hl.TailStrategy.RoundUp).vectorize(xi).reorder(xi, r.x, xo, r.y, y).unroll(r.x)
            else: f.update().split(x, xo, xi, 8, hl.TailStrategy.RoundUp).vectorize(xi).reorder(xi, r.x, r.y, xo, y).unroll(r.x)
        p = hl.Pipeline(o); p.compile_to_lowered_stmt("/tmp/jbu/%s.stmt" % mode, [L, G], hl.StmtOutputFormat.Text, T); p.compile_to_assembly("/tmp/jbu/%s.s" % mode, [L, G], "f", T); p.compile_jit(T); return p, L, G, o
    if mode.startswith("diet"):
        for f in (num, den):
            f.update().split(x, xo, xi, 8).vectorize(xi).reorder(xi, r.x, r.y, xo, y).unroll(r.x)
    if mode == "cw":
        for f in (num, den):
            f.update().split(x, xo, xi, 8).vectorize(xi).reorder(xi, r.x, r.y, xo, y).unroll(r.x)
        den.update().compute_with(num.update(), r.x)
    if mode == "cw_y":
        for f in (num, den):
            f.update().split(x, xo, xi, 8).vectorize(xi).reorder(xi, r.x, r.y, xo, y).unroll(r.x)
        den.update().compute_with(num.update(), xo)
    p = hl.Pipeline(o)
    p.compile_to_lowered_stmt("/tmp/jbu/%s.stmt" % mode, [L, G], hl.StmtOutputFormat.Text, T)
    p.compile_jit(T)
    return p, L, G, o
rng = np.random.default_rng(0)
Ld = np.asfortranarray(rng.random((W, H), dtype=np.float32)); Gd = np.asfortranarray(rng.integers(0, 256, (2 * W, 2 * H), dtype=np.uint8))
res = {}
for mode in sys.argv[1:]:
    p, L, G, o = build(mode)
    L.set(hl.Buffer(Ld)); G.set(hl.Buffer(Gd))
    out = hl.Buffer(hl.Float(32), [2 * W, 2 * H])
    p.realize(out)
    ts = []
    for k in range(15):
        t0 = time.perf_counter(); p.realize(out); ts.append(time.perf_counter() - t0)
    res[mode] = np.array(out)
    print(mode, "%.3f ms" % (1000 * np.median(ts)))
ks = list(res)
for k in ks[1:]: print(k, "maxdiff", np.abs(res[k] - res[ks[0]]).max())
