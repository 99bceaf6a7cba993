"""Round 19 repro (slow): Horn-Schunck, 3 Jacobi iterations of a Tuple (u, v) Func, two outputs u and v. Diet inlines the
derivative Funcs Ix, Iy, It (each 8 clamped loads of the two frames) into every iteration, and the last Tuple iteration
into BOTH outputs. Variants: as specified; the derivatives given as input buffers (nothing to inline); one output
(u only). Times Diet vs the serial compute_root reference (ms, median of 10) at 65x65 and 512x512 (AVX2 target).
Standalone: DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_hs19.py"""
import os, time
import numpy as np, halide as hl
from repro_util19 import noest
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")


def build(variant, sched):
    W = hl.Param(hl.Int(32), "W", 512); W.set_range(1, 512)
    H = hl.Param(hl.Int(32), "H", 512); H.set_range(1, 512)
    x, y = hl.Var("x"), hl.Var("y")
    cx = lambda e: hl.clamp(e, 0, W - 1)
    cy = lambda e: hl.clamp(e, 0, H - 1)
    funcs = []
    if variant == "derivs_as_inputs":
        ins = [hl.ImageParam(hl.Float(32), 2, n) for n in ("Ix", "Iy", "It")]
        Ix, Iy, It = ins
    else:
        f0 = hl.ImageParam(hl.Float(32), 2, "f0"); f1 = hl.ImageParam(hl.Float(32), 2, "f1"); ins = [f0, f1]
        g = lambda f, dx, dy: f[cx(x + dx), cy(y + dy)]
        Ix = hl.Func("Ix"); Ix[x, y] = 0.25 * ((g(f0, 1, 0) - g(f0, 0, 0)) + (g(f0, 1, 1) - g(f0, 0, 1)) + (g(f1, 1, 0) - g(f1, 0, 0)) + (g(f1, 1, 1) - g(f1, 0, 1)))
        Iy = hl.Func("Iy"); Iy[x, y] = 0.25 * ((g(f0, 0, 1) - g(f0, 0, 0)) + (g(f0, 1, 1) - g(f0, 1, 0)) + (g(f1, 0, 1) - g(f1, 0, 0)) + (g(f1, 1, 1) - g(f1, 1, 0)))
        It = hl.Func("It"); It[x, y] = 0.25 * ((g(f1, 0, 0) - g(f0, 0, 0)) + (g(f1, 1, 0) - g(f0, 1, 0)) + (g(f1, 0, 1) - g(f0, 0, 1)) + (g(f1, 1, 1) - g(f0, 1, 1)))
        funcs += [Ix, Iy, It]
    uv = hl.Func("uv0"); uv[x, y] = (hl.f32(0), hl.f32(0)); funcs.append(uv)
    for it in range(3):
        m = lambda k: 0.25 * (uv[cx(x - 1), y][k] + uv[cx(x + 1), y][k] + uv[x, cy(y - 1)][k] + uv[x, cy(y + 1)][k])
        ub, vb = m(0), m(1)
        t = (Ix[x, y] * ub + Iy[x, y] * vb + It[x, y]) / (1.0 + Ix[x, y] * Ix[x, y] + Iy[x, y] * Iy[x, y])
        nuv = hl.Func("uv%d" % (it + 1)); nuv[x, y] = (ub - Ix[x, y] * t, vb - Iy[x, y] * t)
        uv = nuv; funcs.append(uv)
    u = hl.Func("u"); u[x, y] = uv[x, y][0]
    v = hl.Func("v"); v[x, y] = uv[x, y][1]
    outs = [u] if variant == "u_only" else [u, v]
    for ip in ins:
        ip.dim(0).set_estimate(0, W); ip.dim(1).set_estimate(0, H)
    for o in outs:
        o.set_estimate(x, 0, W).set_estimate(y, 0, H)
    p = hl.Pipeline(outs)
    if sched == "Diet":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    else:
        for f in funcs:
            f.compute_root()
    p.compile_jit(T)
    return p, W, H, ins, len(outs)


for variant in ["as_specified", "derivs_as_inputs", "u_only"]:
    built = {"Diet": build(variant, "Diet")}
    with noest():
        built["ref"] = build(variant, "ref")
    for n in (65, 512):
        ms, res = {}, {}
        for s, (p, W, H, ins, no) in built.items():
            rng = np.random.default_rng(1)
            for ip in ins:
                b = hl.Buffer(hl.Float(32), [n, n]); np.asarray(b)[...] = rng.random((n, n)); ip.set(b)
            W.set(n); H.set(n)
            o = [hl.Buffer(hl.Float(32), [n, n]) for _ in range(no)]
            p.realize(o, T)
            ts = []
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
            ms[s] = float(np.median(ts)) * 1e3; res[s] = np.asarray(o[0]).copy()
        print("%-17s %dx%d  Diet %.4f ms  ref %.4f ms  Diet/ref %.2f  match=%s" % (variant, n, n, ms["Diet"], ms["ref"], ms["Diet"] / ms["ref"],
              np.allclose(res["Diet"], res["ref"], rtol=1e-4, atol=1e-5)), flush=True)
