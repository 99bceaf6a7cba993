"""Round 19 repro (slow): ESPCN conv3x3 -> PixelShuffle(R). Diet vectorizes the conv's inline sum along its CHANNEL dim k
(dim 2 of [x, y, k, n], extent CO R^2 <= 72) by 64 lanes (strided stores, strided weight loads), because 'the region of
ps_conv it would be tiled over is not known before the pipeline runs' (the consumer reads it at x / R, y / R,
c R^2 + (y % R) R + x % R with R a Param). Variants: as specified (R a Param); R a compile-time constant 3; the conv
alone as the output (no shuffle). Times Diet vs the serial compute_root reference (ms, median of 10) at a small and the
large shape. Standalone: DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_pshuffle19.py"""
import os, time
import numpy as np, halide as hl
from repro_util19 import noest
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
RANGES = dict(W=(1, 64), H=(1, 64), CI=(1, 16), CO=(1, 8), N=(1, 2))


def build(variant, sched, Rc):
    P = {}
    for n, (lo, hi) in RANGES.items():
        P[n] = hl.Param(hl.Int(32), n, hi); P[n].set_range(lo, hi)
    if variant == "R_param":
        Rp = hl.Param(hl.Int(32), "R", 3); Rp.set_range(1, 3); R = Rp
    else:
        Rp = None; R = Rc
    W, H, CI, CO, N = P['W'], P['H'], P['CI'], P['CO'], P['N']
    inp = hl.ImageParam(hl.Float(32), 4, "inp"); w = hl.ImageParam(hl.Float(32), 4, "w"); bias = hl.ImageParam(hl.Float(32), 1, "bias")
    x, y, k, n, c = [hl.Var(s) for s in "xyknc"]
    e = hl.BoundaryConditions.constant_exterior(inp, hl.f32(0), [(0, W), (0, H), (0, CI), (0, N)])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3), hl.Range(0, CI)], "r3")
    cv = hl.Func("ps_conv"); cv[x, y, k, n] = bias[k] + hl.sum(w[r.x, r.y, r.z, k] * e[x + r.x - 1, y + r.y - 1, r.z, n])
    if variant == "conv_only":
        out = cv
        out.set_estimate(x, 0, W).set_estimate(y, 0, H).set_estimate(k, 0, CO * R * R).set_estimate(n, 0, N)
    else:
        out = hl.Func("ps_out"); out[x, y, c, n] = hl.max(cv[x / R, y / R, c * R * R + (y % R) * R + x % R, n], 0.0)
        out.set_estimate(x, 0, W * R).set_estimate(y, 0, H * R).set_estimate(c, 0, CO).set_estimate(n, 0, N)
    for d, ex in enumerate([W, H, CI, N]):
        inp.dim(d).set_estimate(0, ex)
    for d, ex in enumerate([3, 3, CI, CO * R * R]):
        w.dim(d).set_estimate(0, ex)
    bias.dim(0).set_estimate(0, CO * R * R)
    p = hl.Pipeline([out])
    if sched == "Diet":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    else:
        cv.compute_root()
    p.compile_jit(T)
    return p, P, Rp, inp, w, bias


def run(p, P, Rp, inp, w, bias, v, Rv, variant):
    rng = np.random.default_rng(1)
    KK = v['CO'] * Rv * Rv
    bufs = []
    for ip, shp in ((inp, (v['W'], v['H'], v['CI'], v['N'])), (w, (3, 3, v['CI'], KK)), (bias, (KK,))):
        b = hl.Buffer(hl.Float(32), list(shp)); np.asarray(b)[...] = rng.standard_normal(shp); ip.set(b); bufs.append(b)
    for n in RANGES:
        P[n].set(v[n])
    if Rp is not None:
        Rp.set(Rv)
    oshape = [v['W'], v['H'], KK, v['N']] if variant == "conv_only" else [v['W'] * Rv, v['H'] * Rv, v['CO'], v['N']]
    o = hl.Buffer(hl.Float(32), oshape)
    p.realize(o, T)
    ts = []
    for _ in range(10):
        t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
    return float(np.median(ts)) * 1e3, np.asarray(o).copy()


for variant in ["R_param", "R_const3", "conv_only"]:
    built = {"Diet": build(variant, "Diet", 3)}
    with noest():
        built["ref"] = build(variant, "ref", 3)
    for name, v in (("small", dict(W=9, H=9, CI=3, CO=2, N=1)), ("large", dict(W=64, H=64, CI=16, CO=8, N=2))):
        res = {s: run(*built[s], v, 3, variant) for s in built}
        ok = np.allclose(res["Diet"][1], res["ref"][1], rtol=1e-4, atol=1e-4)
        print("%-10s %-5s R=3  Diet %.4f ms  ref %.4f ms  Diet/ref %.2f  match=%s" % (variant, name, res["Diet"][0], res["ref"][0], res["Diet"][0] / res["ref"][0], ok), flush=True)
