"""A depthwise 3x3 convolution over channels-innermost activations with a batch (test_nn_styles' case:
out(c, x, y, n) = sum w(c, r.x, r.y) * ce(c, x + r.x - 1, y + r.y - 1, n), zero padding), scheduled by
the Diet plugin in $DIET_PLUGIN for C, W, H, N in [1, 64] x [1, 128] x [1, 128] x [1, 8], timed at
the shapes given ($SCHED=Adams2019 with its plugin in $DIET_PLUGIN: sizes fixed at the first shape, which alone is timed) (median of 20 realizes after one warm-up) on target A or B.
usage: DIET_PLUGIN=... dw_batch.py A|B C,W,H,N [C,W,H,N ...]"""
import os, sys, time
import numpy as np, halide as hl
T = {"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
     "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[1]]
hl.load_plugin(os.environ["DIET_PLUGIN"])
P = {}
ADAMS = os.environ.get("SCHED", "Diet") != "Diet"  # sizes fixed at the first shape (its estimates)
for k, (n, hi) in enumerate((("C", 64), ("W", 128), ("H", 128), ("N", 8))):
    if ADAMS:
        P[n] = hl.Expr(int(sys.argv[2].split(",")[k]))
    else:
        P[n] = hl.Param(hl.Int(32), n, hi); P[n].set_range(1, hi)
inp = hl.ImageParam(hl.Float(32), 4, "dwb_in"); w = hl.ImageParam(hl.Float(32), 3, "dwb_w")
c, x, y, n = hl.Var("c"), hl.Var("x"), hl.Var("y"), hl.Var("n")
ce = hl.BoundaryConditions.constant_exterior(inp, hl.f32(0), [(0, P["C"]), (0, P["W"]), (0, P["H"]), (0, P["N"])])
r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "dwb_r")
out = hl.Func("dwb_out")
out[c, x, y, n] = hl.sum(w[c, r.x, r.y] * ce[c, x + r.x - 1, y + r.y - 1, n])
E = dict(zip("CWHN", map(int, sys.argv[2].split(",")))) if ADAMS else P  # Diet: the ranged Params
for k, e in enumerate(("C", "W", "H", "N")):
    inp.dim(k).set_estimate(0, E[e])
w.dim(0).set_estimate(0, E["C"]); w.dim(1).set_estimate(0, 3); w.dim(2).set_estimate(0, 3)
out.set_estimate(c, 0, E["C"]).set_estimate(x, 0, E["W"]).set_estimate(y, 0, E["H"]).set_estimate(n, 0, E["N"])
p = hl.Pipeline(out)
p.auto_schedule(os.environ.get("SCHED", "Diet"), hl.Target(T), hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(hl.Target(T))
rng = np.random.default_rng(1)
for s in sys.argv[2:]:
    C, W, H, N = map(int, s.split(","))
    a = np.asfortranarray(rng.standard_normal((C, W, H, N)).astype(np.float32)); b = np.asfortranarray(rng.standard_normal((C, 3, 3)).astype(np.float32))
    inp.set(hl.Buffer(a)); w.set(hl.Buffer(b))
    if ADAMS and s != sys.argv[2]:
        continue
    for k, v in zip("CWHN", (C, W, H, N)):
        if not ADAMS: P[k].set(v)
    o = hl.Buffer(hl.Float(32), [C, W, H, N])
    p.realize(o)
    ts = []
    for _ in range(20):
        t0 = time.perf_counter(); p.realize(o); ts.append(time.perf_counter() - t0)
    pad = np.pad(a, ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = sum(pad[:, i:i + W, j:j + H, :] * b[:, i, j][:, None, None, None] for i in range(3) for j in range(3))
    ok = np.allclose(np.asarray(o), ref, rtol=1e-4, atol=1e-4)
    print("RESULT %s %s %.4f ms ok=%s" % (sys.argv[1], s, np.median(ts) * 1e3, ok), flush=True)
