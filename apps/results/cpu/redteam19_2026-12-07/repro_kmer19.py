"""Round 19 repro: Diet vectorizes an OUTPUT whose extent is N - K + 1 (N in [16, 262144], K in [1, 8], so the extent can
be 9) by 16 lanes with TailStrategy::ShiftInwards: at N=16, K=8 the last vector is shifted to start at -7 and the
pipeline fails with 'Output buffer ... is accessed at -7, which is before the min (0)'. Variants: the window read as
an inline hl.sum over RDom(0, K) (as in the kmer pipeline) and as two plain taps. Standalone:
DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_kmer19.py"""
import os
import numpy as np, halide as hl
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt19/libautoschedule_diet.so"))
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")


def build(variant, sched):
    N = hl.Param(hl.Int(32), "N", 262144); N.set_range(16, 262144)
    K = hl.Param(hl.Int(32), "K", 8); K.set_range(1, 8)
    a = hl.ImageParam(hl.Int(32), 1, "a")
    i = hl.Var("i")
    f = hl.Func("f")
    if variant == "inline_sum":
        r = hl.RDom([hl.Range(0, K)], "r")
        f[i] = hl.sum(a[i + r])
    else:
        f[i] = a[i] + a[i + K - 1]
    a.dim(0).set_estimate(0, N)
    f.set_estimate(i, 0, N - K + 1)
    p = hl.Pipeline([f])
    src = ""
    if sched == "Diet":
        src = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)).schedule_source
    p.compile_jit(T)
    return p, N, K, a, src


for variant in ["inline_sum", "two_taps"]:
    p, N, K, a, src = build(variant, "Diet")
    print(variant, "schedule:", [l for l in src.splitlines() if ".split(" in l or ".vectorize(" in l])
    for n, k in [(16, 8), (16, 1), (24, 8), (1000, 8)]:
        buf = hl.Buffer(hl.Int(32), [n]); np.asarray(buf)[:] = np.arange(n)
        a.set(buf); N.set(n); K.set(k)
        out = hl.Buffer(hl.Int(32), [n - k + 1])
        try:
            p.realize(out, T)
            print("  N=%d K=%d (extent %d): ok" % (n, k, n - k + 1), flush=True)
        except Exception as e:
            print("  N=%d K=%d (extent %d): ERROR %s" % (n, k, n - k + 1, str(e).strip()[:150]), flush=True)
