"""Round 19 repro: Diet emits an invalid schedule (auto_schedule raises 'can't create var k_vi using a split or tile,
because k_vi is already used in this Func's schedule elsewhere') for a limb convolution written as an inline hl.sum of a
select-guarded u64 product with a clamped index, k - r. Variants narrow the trigger. Standalone:
DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_bignum19.py"""
import os, sys, traceback
import numpy as np, halide as hl
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt19/libautoschedule_diet.so"))
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")


def build(variant):
    NA = hl.Param(hl.Int(32), "NA", 128); NA.set_range(1, 128)
    NN = hl.Param(hl.Int(32), "NN", 512); NN.set_range(1, 512)
    a = hl.ImageParam(hl.UInt(16), 2, "a"); b = hl.ImageParam(hl.UInt(16), 2, "b")
    k, n = hl.Var("k"), hl.Var("n")
    r = hl.RDom([hl.Range(0, NA)], "ri")
    j = k - r
    ok = (j >= 0) & (j < NA)
    wide = (lambda e: hl.u64(e)) if "u32" not in variant else (lambda e: hl.u32(e))
    prod = wide(a[r, n]) * wide(b[hl.clamp(j, 0, NA - 1), n])
    conv = hl.Func("conv")
    conv[k, n] = hl.sum(hl.select(ok, prod, wide(0)) if "noselect" not in variant else prod)
    outs = []
    if variant.startswith("conv_only"):
        out = conv
    else:
        acc = hl.Func("acc"); acc[k, n] = conv[k, n]
        rc = hl.RDom([hl.Range(1, 2 * NA - 1)], "rc")
        acc[rc, n] = acc[rc, n] + (acc[rc - 1, n] >> 16)
        out = hl.Func("limb"); out[k, n] = hl.u16(acc[k, n] & wide(0xFFFF))
    a.dim(0).set_estimate(0, NA); a.dim(1).set_estimate(0, NN); b.dim(0).set_estimate(0, NA); b.dim(1).set_estimate(0, NN)
    out.set_estimate(k, 0, 2 * NA).set_estimate(n, 0, NN)
    return hl.Pipeline([out]), out


for variant in ["as_specified", "conv_only", "conv_only_noselect", "conv_only_u32", "as_specified_u32"]:
    p, out = build(variant)
    try:
        r = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
        p.compile_jit(T)
        print("%-22s OK" % variant, flush=True)
    except Exception as e:
        print("%-22s FAIL: %s" % (variant, str(e).strip().replace("\n", " | ")[:300]), flush=True)
