"""Probe for canny_f32_atan2_bins_nms_hysteresis1_u8 (AVX2): Diet inlines cf_bin (atan2 of the Sobel gradients, a
scalarized libm call per lane) and cf_nms into BOTH consumers (the cf_thr output and cf_strong, computed per tile of
cf_hyst). Here: Diet's schedule as is, then the same schedule with ONLY cf_bin (or cf_nms) additionally
compute_root()ed (parallel over rows), and the serial reference; median of 10 realizes at 1024x768."""
import sys, time
import numpy as np
import halide as hl
import run11
ro = run11.run_one
name = "canny_f32_atan2_bins_nms_hysteresis1_u8"
spec = run11.pipes11.SPECS[name]
T = run11.TARGET
hl.load_plugin(ro.PLUGINS["Diet"])
v = ro.default_times(spec)[1]
for variant in ("Diet", "Diet+cf_bin_root", "Diet+cf_nms_root", "ref"):
    S, outs, ins, p = ro.build(spec, "ref" if variant == "ref" else "Diet")
    if variant != "ref":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
        for f in run11.pipes11.CREATED:
            if variant.endswith(f.name().split("$")[0] + "_root"):
                f.compute_root().parallel(f.args()[1]).vectorize(f.args()[0], 8)
    t0 = time.time(); p.compile_jit(T); ct = time.time() - t0
    _, bufs = ro.run_pipeline(p, S, ins, spec, v)
    p.realize(bufs, T)
    ts = []
    for _ in range(10):
        t0 = time.perf_counter(); p.realize(bufs, T); ts.append(time.perf_counter() - t0)
    if variant != "ref":
        print([f.name() for f in run11.pipes11.CREATED if variant.endswith(f.name().split("$")[0] + "_root")], end=" ")
    print("%-18s %s  %.2f ms  (JIT %.1f s)" % (variant, v, np.median(ts) * 1e3, ct), flush=True)
