"""Diet compile-time outlier: erode_structuring_element_buffer_u8 (a u8 min-update over a (2R+1)^2 RDom reading a
constant_exterior input, R a ranged Param). usage: repro_compile_erode_se.py [A|B] -> JIT seconds of
  ref    : unscheduled (everything inline/compute_root, serial),
  diet   : Diet's schedule (DIET_PLUGIN, default /tmp/rt10_diet.so),
  h128 / h32 : one hand-written copy of Diet's main update form (split x by 128 or 32, vectorize, RDom inside, fuse+parallel),
and realize ms at 640x480, R=3 for each."""
import os, sys, time
import numpy as np, halide as hl
TG = hl.Target({'A': "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
                'B': "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[1] if len(sys.argv) > 1 else 'B'])
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt10_diet.so"))
W, H, R = 640, 480, 3


def build(mode):
    im = hl.ImageParam(hl.UInt(8), 2, "img"); se = hl.ImageParam(hl.UInt(8), 2, "se")
    pW, pH, pR = hl.Param(hl.Int(32), "W", W), hl.Param(hl.Int(32), "H", H), hl.Param(hl.Int(32), "R", R)
    pW.set_range(1, 640); pH.set_range(1, 480); pR.set_range(1, 3)
    x, y = hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.constant_exterior(im, hl.u8(255), [(0, pW), (0, pH)])
    r = hl.RDom([hl.Range(0, 2 * pR + 1), hl.Range(0, 2 * pR + 1)], "r")
    o = hl.Func("er_out"); o[x, y] = hl.u8(255)
    o[x, y] = hl.min(o[x, y], hl.select(se[r.x, r.y] != 0, e[x + r.x - pR, y + r.y - pR], hl.u8(255)))
    eW, eH, eS = (pW, pH, 2 * pR + 1) if mode == "diet" else (640, 480, 7)  # Param estimates only for Diet
    im.dim(0).set_estimate(0, eW); im.dim(1).set_estimate(0, eH); se.dim(0).set_estimate(0, eS); se.dim(1).set_estimate(0, eS)
    o.set_estimate(x, 0, eW).set_estimate(y, 0, eH)
    p = hl.Pipeline(o)
    if mode == "diet":
        p.auto_schedule("Diet", TG, hl.MachineParams(2, 1 << 20, 40))
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
    return ct, 1e3 * float(np.median(ts))


for mode in ("ref", "diet", "h128", "h32"):
    ct, ms = build(mode)
    print("%-5s JIT %.2f s, realize %.3f ms" % (mode, ct, ms), flush=True)
