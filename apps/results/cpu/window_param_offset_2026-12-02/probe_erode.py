import os, sys, time
import numpy as np, halide as hl
TG = hl.Target({'A': "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
                'B': "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[1]])
W, H, R = [int(v) for v in os.environ.get("WHR", "640,480,3").split(",")]
modes = sys.argv[2].split(',')
def build(mode):
    im = hl.ImageParam(hl.UInt(8), 2, "img"); se = hl.ImageParam(hl.UInt(8), 2, "se")
    if mode.startswith('adams'):
        pW, pH, pR = W, H, R
    else:
        pW, pH, pR = hl.Param(hl.Int(32), "W", W), hl.Param(hl.Int(32), "H", H), hl.Param(hl.Int(32), "R", R)
        pW.set_range(1, 640); pH.set_range(1, 480); pR.set_range(1, 3)
    x, y = hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.constant_exterior(im, hl.u8(255), [(0, pW), (0, pH)])
    r = hl.RDom([hl.Range(0, 2 * pR + 1), hl.Range(0, 2 * pR + 1)], "r")
    o = hl.Func("er_out"); o[x, y] = hl.u8(255)
    o[x, y] = hl.min(o[x, y], hl.select(se[r.x, r.y] != 0, e[x + r.x - pR, y + r.y - pR], hl.u8(255)))
    eW, eH, eS = (pW, pH, 2 * pR + 1) if mode == "diet" else (640, 480, 7)
    im.dim(0).set_estimate(0, eW); im.dim(1).set_estimate(0, eH); se.dim(0).set_estimate(0, eS); se.dim(1).set_estimate(0, eS)
    o.set_estimate(x, 0, eW).set_estimate(y, 0, eH)
    p = hl.Pipeline(o)
    if mode == "diet":
        hl.load_plugin(os.environ.get("DIET_PLUGIN"))
        res = p.auto_schedule("Diet", TG, hl.MachineParams(2, 1 << 20, 40))
        if os.environ.get("SHOW"): print("\n".join(l for l in res.schedule_source.splitlines() if l.startswith(("er_out", "constant", "::Halide::Stage", "stage"))))
    elif mode == "adams":
        hl.load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so")
        res = p.auto_schedule("Adams2019", TG, hl.MachineParams(2, 1 << 20, 40))
        print(res.schedule_source)
    elif mode.startswith("pad"):
        # boundary wrapper computed per strip of rows, read without selects by a vectorized update
        n = int(mode[3:]); xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
        ef = e
        o.split(y, yo, yi, 16, hl.TailStrategy.GuardWithIf).parallel(yo).vectorize(x, n, hl.TailStrategy.GuardWithIf)
        o.update(0).split(y, yo, yi, 16, hl.TailStrategy.GuardWithIf).split(x, xo, xi, n, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, r.y, xo, yi, yo).parallel(yo)
        ef.compute_at(o, yo).vectorize(ef.args()[0], n, hl.TailStrategy.GuardWithIf)
    elif mode.startswith("h"):
        n = int(mode[1:]); xo, xi, t = hl.Var("xo"), hl.Var("xi"), hl.Var("t")
        o.update(0).split(x, xo, xi, n, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, r.y, xo, y).fuse(xo, y, t).parallel(t)
    t0 = time.time(); p.compile_jit(TG); ct = time.time() - t0
    ib = hl.Buffer(hl.UInt(8), [W, H]); np.asarray(ib)[...] = np.random.default_rng(1).integers(0, 256, (W, H)).astype(np.uint8); im.set(ib)
    sb = hl.Buffer(hl.UInt(8), [7, 7]); np.asarray(sb)[...] = 1; se.set(sb)
    out = hl.Buffer(hl.UInt(8), [W, H]); p.realize(out, TG)
    ts = []
    for _ in range(10):
        t0 = time.perf_counter(); p.realize(out, TG); ts.append(time.perf_counter() - t0)
    return ct, 1e3 * float(np.median(ts)), np.asarray(out).copy()
ref = None
for mode in modes:
    ct, ms, out = build(mode)
    ok = '' if ref is None else ('ok' if (out == ref).all() else 'MISMATCH')
    if ref is None: ref = out
    print("%-6s JIT %.2f s, realize %.3f ms %s" % (mode, ct, ms, ok), flush=True)
