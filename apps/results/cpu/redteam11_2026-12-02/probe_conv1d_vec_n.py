"""Probe for conv1d_groups_param_same_pad_batch_innermost (AVX-512): Diet vectorizes the update across co (16 lanes,
RVars outside the scalar n loop) so each reduction step gathers/scatters the accumulator with stride N. Compared here
at the large shape (N=8, G=4, CPG=8, L=256) and the small one (N=2, G=1, CPG=2, L=33): Diet's schedule; a hand
schedule that vectorizes the batch dim n (contiguous in memory, 8 lanes, GuardWithIf) with both RVars inside co and
parallel over l, the boundary Func left inline; and the serial reference. Median of 20 realizes."""
import time
import numpy as np
import halide as hl
import sys
name = "conv1d_groups_param_same_pad_batch_innermost"
sys.argv.insert(1, name)  # so that run11 picks the spec's target (A) unless RT9_TARGET is set
import run11
ro = run11.run_one
name = "conv1d_groups_param_same_pad_batch_innermost"
spec = run11.pipes11.SPECS[name]
T = run11.TARGET
hl.load_plugin(ro.PLUGINS["Diet"])
for variant in ("Diet", "hand_vec_n", "ref"):
    S, outs, ins, p = ro.build(spec, "Diet" if variant == "Diet" else "none")
    if variant == "Diet":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    elif variant == "hand_vec_n":
        o = outs[0]
        n, co, l = o.args()
        rv = o.rvars(0)
        o.vectorize(n, 8, hl.TailStrategy.GuardWithIf).parallel(l)
        o.update(0).reorder(n, rv[0], rv[1], co, l).vectorize(n, 8, hl.TailStrategy.GuardWithIf).parallel(l)
    else:
        for f in run11.pipes11.CREATED:
            if f.name() not in set(x.name() for x in outs):
                f.compute_root()
    p.compile_jit(T)
    for v in ro.default_times(spec):
        _, bufs = ro.run_pipeline(p, S, ins, spec, v)
        p.realize(bufs, T)
        ts = []
        for _ in range(20):
            t0 = time.perf_counter(); p.realize(bufs, T); ts.append(time.perf_counter() - t0)
        print("%-11s %s %-40s %.4f ms" % (variant, "AVX512" if T.has_feature(hl.TargetFeature.AVX512) else "AVX2", v, np.median(ts) * 1e3), flush=True)
