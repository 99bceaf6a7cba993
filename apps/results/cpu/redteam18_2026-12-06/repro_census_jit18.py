"""Standalone repro: Diet's JIT time (and run time) for the census-transform stereo pipeline, and variants that pin the
trigger. usage: DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_census_jit18.py [variant ...]
variants: full (census of left+right, popcount cost, inline hl.argmin over ND), noargmin (cost at d = ND-1 only),
          leftonly (census of left only, cost against the raw right pixel), refjit (unscheduled compute_root build)"""
import os, sys, time
import numpy as np
import halide as hl

T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt18/libautoschedule_diet.so"))


def build(variant):
    W = hl.Param(hl.Int(32), "W", 640); W.set_range(1, 640)
    H = hl.Param(hl.Int(32), "H", 480); H.set_range(1, 480)
    ND = hl.Param(hl.Int(32), "ND", 64); ND.set_range(1, 64)
    L = hl.ImageParam(hl.UInt(8), 2, "left"); R = hl.ImageParam(hl.UInt(8), 2, "right")
    x, y = hl.Var("x"), hl.Var("y")
    funcs = []

    def cen(img, nm):
        e = hl.BoundaryConditions.mirror_interior(img, [(0, W), (0, H)])
        c = hl.u32(0)
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if dx or dy:
                    c = (c << 1) | hl.select(e[x + dx, y + dy] < e[x, y], hl.u32(1), hl.u32(0))
        f = hl.Func("cs_" + nm); f[x, y] = c; funcs.append(f)
        return f
    cl = cen(L, "left")
    cr = cen(R, "right") if variant != "leftonly" else None
    rd = hl.RDom([hl.Range(0, ND)], "rd")
    if variant == "noargmin":
        d = ND - 1
        cost = hl.popcount(cl[x, y] ^ cr[hl.clamp(x - d, 0, W - 1), y])
        disp = hl.Func("cs_disp"); disp[x, y] = hl.u8(cost)
    else:
        other = cr[hl.clamp(x - rd, 0, W - 1), y] if cr is not None else hl.u32(R[hl.clamp(x - rd, 0, W - 1), hl.clamp(y, 0, H - 1)])
        disp = hl.Func("cs_disp"); disp[x, y] = hl.u8(hl.argmin(hl.popcount(cl[x, y] ^ other))[0])
    out = hl.Func("cs_out"); out[x, y] = cl[x, y]
    EW, EH = (640, 480) if variant == "refjit" else (W, H)  # (Param estimates break a build that is not auto-scheduled)
    for ip in (L, R):
        ip.dim(0).set_estimate(0, EW); ip.dim(1).set_estimate(0, EH)
    for f in (disp, out):
        f.set_estimate(x, 0, EW).set_estimate(y, 0, EH)
    return hl.Pipeline([disp, out]), funcs, (W, H, ND, L, R), (disp, out)


def run(variant):
    p, funcs, (W, H, ND, L, R), outs = build(variant)
    t0 = time.time()
    if variant == "refjit":
        for f in funcs:
            f.compute_root()
    else:
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    t1 = time.time(); p.compile_jit(T); t2 = time.time()
    rng = np.random.default_rng(1)
    for ip in (L, R):
        b = hl.Buffer(hl.UInt(8), [640, 480]); np.asarray(b)[...] = rng.integers(0, 256, (640, 480)); ip.set(b)
    W.set(640); H.set(480); ND.set(64)
    bufs = [hl.Buffer(hl.UInt(8), [640, 480]), hl.Buffer(hl.UInt(32), [640, 480])]
    p.realize(bufs, T); ts = []
    for _ in range(5):
        a = time.perf_counter(); p.realize(bufs, T); ts.append(time.perf_counter() - a)
    print("%-9s schedule %.2f s  JIT %.1f s  run %.2f ms (640x480, ND=64)" % (variant, t1 - t0, t2 - t1, 1e3 * np.median(ts)), flush=True)


for v in (sys.argv[1:] or ["full", "noargmin", "leftonly", "refjit"]):
    run(v)
