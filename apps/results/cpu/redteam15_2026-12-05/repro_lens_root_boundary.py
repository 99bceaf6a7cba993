"""Standalone repro (round 15): Diet computes a constant_exterior boundary Func at root when its only consumer gathers it
at data-dependent float coordinates (Brown lens distortion + bilinear). Bounds inference then gives that root Func a
region far larger than the image, which it fills every call. Times Diet, a hand schedule (boundary inlined, output vectorized 16 along x, parallel y) and the
unscheduled pipeline (boundary inlined, output serial), at W x H = 1024 x 768 (interleaved RGB u8, c innermost).
usage: DIET_PLUGIN=/tmp/rt15/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_lens_root_boundary.py [k2]   (k2: add the k2 r^4 term, as in the round-15 spec)"""
import os, time
import numpy as np
import halide as hl

T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt15/libautoschedule_diet.so"))


def build():
    W = hl.Param(hl.Int(32), "W", 1024); W.set_range(1, 1024)
    H = hl.Param(hl.Int(32), "H", 768); H.set_range(1, 768)
    K1 = hl.Param(hl.Int(32), "K1", 400); K1.set_range(0, 400)
    K2 = hl.Param(hl.Int(32), "K2", 200); K2.set_range(0, 200)
    im = hl.ImageParam(hl.UInt(8), 3, "im")
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.constant_exterior(im, 0, [(0, 3), (0, W), (0, H)])
    cx = hl.f32(W) * 0.5; cy = hl.f32(H) * 0.5; nrm = 1.0 / hl.max(cx, cy)
    ux = (hl.f32(x) + 0.5 - cx) * nrm; uy = (hl.f32(y) + 0.5 - cy) * nrm
    r2 = ux * ux + uy * uy
    s = 1.0 + hl.f32(K1) * 0.001 * r2 + (hl.f32(K2) * 0.001 * r2 * r2 if USE_K2 else 0.0)
    sx = ux * s / nrm + cx - 0.5; sy = uy * s / nrm + cy - 0.5
    fx = hl.floor(sx); fy = hl.floor(sy); ix = hl.i32(fx); iy = hl.i32(fy); ax = sx - fx; ay = sy - fy
    g = lambda dx, dy: hl.f32(e[c, ix + dx, iy + dy])
    v = (g(0, 0) * (1 - ax) + g(1, 0) * ax) * (1 - ay) + (g(0, 1) * (1 - ax) + g(1, 1) * ax) * ay
    o = hl.Func("out"); o[c, x, y] = hl.u8(hl.clamp(v + 0.5, 0.0, 255.0))
    im.dim(0).set_estimate(0, 3); im.dim(1).set_estimate(0, W); im.dim(2).set_estimate(0, H)
    o.set_estimate(c, 0, 3).set_estimate(x, 0, W).set_estimate(y, 0, H)
    return W, H, K1, K2, im, e, o


inp = hl.Buffer(hl.UInt(8), [3, 1024, 768]); np.asarray(inp)[...] = np.random.default_rng(1).integers(0, 256, (3, 1024, 768), dtype=np.uint8)
res = {}
import sys
USE_K2 = len(sys.argv) > 1 and sys.argv[1] == "k2"
print("with K2 term" if USE_K2 else "K1 term only", flush=True)
for label in ("Diet", "hand_vec16_par_y", "unscheduled"):
    W, H, K1, K2, im, e, o = build()
    p = hl.Pipeline(o)
    if label.startswith("Diet"):
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    if label == "hand_vec16_par_y":
        c, x, y = o.args(); o.reorder(c, x, y).vectorize(x, 16).parallel(y)
    t0 = time.time(); p.compile_jit(T); jit = time.time() - t0
    W.set(1024); H.set(768); K1.set(int(os.environ.get("K1", 400))); K2.set(int(os.environ.get("K2", 200))); im.set(inp)
    out = hl.Buffer(hl.UInt(8), [3, 1024, 768])
    ts = []
    for _ in range(5):
        t0 = time.perf_counter(); p.realize(out, T); ts.append((time.perf_counter() - t0) * 1e3)
    res[label] = np.asarray(out).copy()
    print("%-22s jit %.2f s  realize median %.2f ms (min %.2f)" % (label, jit, sorted(ts)[2], min(ts)), flush=True)
print("Diet vs unscheduled max |diff|:", int(np.abs(res["Diet"].astype(int) - res["unscheduled"].astype(int)).max()))
