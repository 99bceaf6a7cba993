"""Round 19 repro (slow): min-plus (tropical) product d2[i, j] = hl.minimum over k of d[i, k] + d[k, j] (i32, i innermost)
against the same loop nest written as a plus-times product hl.sum(d[i, k] * d[k, j]) (which Diet sends to its matmul
micro-kernels). One product, N a Param in [1, 256]. Times Diet vs the serial reference (ms, median of 10) at N = 33 and
256. Standalone: DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_minplus19.py"""
import os, time
import numpy as np, halide as hl
from repro_util19 import noest
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")


def build(variant, sched):
    N = hl.Param(hl.Int(32), "N", 256); N.set_range(1, 256)
    d = hl.ImageParam(hl.Int(32), 2, "d")
    i, j = hl.Var("i"), hl.Var("j")
    k = hl.RDom([hl.Range(0, N)], "k")
    f = hl.Func("prod")
    if variant == "minplus":
        f[i, j] = hl.minimum(d[i, k] + d[k, j])
    elif variant == "minplus_f32":
        f[i, j] = hl.i32(hl.minimum(hl.f32(d[i, k]) + hl.f32(d[k, j])))
    else:
        f[i, j] = hl.sum(d[i, k] * d[k, j])
    d.dim(0).set_estimate(0, N); d.dim(1).set_estimate(0, N); f.set_estimate(i, 0, N).set_estimate(j, 0, N)
    p = hl.Pipeline([f])
    src = ""
    if sched == "Diet":
        src = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)).schedule_source
    p.compile_jit(T)
    return p, N, d, src


for variant in ["minplus", "minplus_f32", "plustimes"]:
    built = {"Diet": build(variant, "Diet")}
    with noest():
        built["ref"] = build(variant, "ref")
    notes = [l for l in built["Diet"][3].splitlines() if l.startswith("// Func")]
    print(variant, "Diet notes:", " | ".join(n[3:] for n in notes)[:400])
    for n in (33, 256):
        ms = {}
        for s, (p, N, d, _) in built.items():
            b = hl.Buffer(hl.Int(32), [n, n]); np.asarray(b)[...] = np.random.default_rng(1).integers(0, 100, (n, n)); d.set(b); N.set(n)
            o = hl.Buffer(hl.Int(32), [n, n]); p.realize(o, T)
            ts = []
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
            ms[s] = float(np.median(ts)) * 1e3
        print("  %-12s N=%-4d Diet %.4f ms  ref %.4f ms  Diet/ref %.2f" % (variant, n, ms["Diet"], ms["ref"], ms["Diet"] / ms["ref"]), flush=True)

# the same single products against Adams2019 at the constant shape (repro_util19.time_all; Diet / best other)
from repro_util19 import time_all, TA


def util_build(variant):
    def build(S, sched):
        d = hl.ImageParam(hl.Int(32), 2, "d")
        i, j = hl.Var("i"), hl.Var("j")
        k = hl.RDom([hl.Range(0, S['N'])], "k")
        f = hl.Func("prod")
        if variant == "minplus":
            f[i, j] = hl.minimum(d[i, k] + d[k, j])
        else:
            f[i, j] = hl.sum(d[i, k] * d[k, j])
        d.dim(0).set_estimate(0, S['N']); d.dim(1).set_estimate(0, S['N']); f.set_estimate(i, 0, S['N']).set_estimate(j, 0, S['N'])
        return [f], [d], [f]
    return build


for variant in ("minplus", "plustimes"):
    for n in (33, 256):
        dd = np.asfortranarray(np.random.default_rng(1).integers(0, 100, (n, n)).astype(np.int32))
        time_all("%s N=%d" % (variant, n), util_build(variant), {'N': (1, 256)}, {'N': n}, [dd], [(hl.Int(32), [n, n])], TA)
