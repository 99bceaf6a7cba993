"""Round 21: the sRGB-downscale harness 5th shape (OW=403, OH=303, outside the Param ranges 1..320 / 1..240, which the
algorithm never reads, so no range check fires) had 1 of 488436 u8 values off by 1 between Diet and ref. Is it float
contraction (avg * 4095 + 0.5 -> fma) in the LUT index? Builds ref and Diet at the given shape, with and without the
target feature strict_float, and prints the number of differing elements and the max difference.
usage: rt21.py r11 ../redteam21_2026-12-07/repro_srgb21.py [OW OH]"""
import sys
import numpy as np, halide as hl
import run11
ro = run11.run_one
P = run11.pipes11
name = [n for n in P.SPECS if n.startswith("srgb_correct")][0]
spec = P.SPECS[name]
a = [int(s) for s in sys.argv[1:]] or [403, 303]
v = dict(OW=a[0], OH=a[1])
hl.load_plugin(ro.PLUGINS["Diet"])
res = {}
for strict in (False, True):
    T = hl.Target(P.TARGETS[spec['target']] + ("-strict_float" if strict else ""))
    for sch in ("ref", "Diet"):
        S, outs, ins, p = ro.build(spec, sch)
        if sch == "Diet":
            p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
        p.compile_jit(T)
        _, bufs = ro.run_pipeline(p, S, ins, spec, v)
        p.realize(bufs, T)
        res[(sch, strict)] = np.asarray(bufs[0]).astype(np.int64).copy()
    d = np.abs(res[("Diet", strict)] - res[("ref", strict)])
    print("%s strict_float=%s: Diet vs ref: %d / %d elements differ, max diff %d" % (v, strict, int((d > 0).sum()), d.size, d.max()))
