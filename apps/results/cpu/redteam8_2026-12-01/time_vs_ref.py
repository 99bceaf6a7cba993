"""usage: time_vs_ref.py <pipeline> [rounds]: alternating same-process timing of Diet's schedule vs the unscheduled
compute_root reference ("ref", serial, default vectorization) at the spec's large and small timing shapes."""
import sys, time
import numpy as np
import run8, halide as hl
ro = run8.run_one
name = sys.argv[1]; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
spec = run8.run6.pipes6.SPECS[name]
hl.load_plugin(ro.PLUGINS["Diet"])
Sd, _, insd, pd = ro.build(spec, "Diet"); pd.auto_schedule("Diet", run8.TARGET, hl.MachineParams(2, 1 << 20, 40)); pd.compile_jit(run8.TARGET)
Sr, _, insr, pr = ro.build(spec, "ref"); pr.compile_jit(run8.TARGET)
for v in ro.default_times(spec)[::-1]:
    bd = run8.realize(pd, Sd, insd, spec, v); br = run8.realize(pr, Sr, insr, spec, v)
    for rnd in range(rounds):
        res = []
        for p, b in ((pd, bd), (pr, br)):
            ts = []
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(b, run8.TARGET); ts.append(time.perf_counter() - t0)
            res.append(np.median(ts) * 1e3)
        print("%s %s round %d: Diet %.4f ms, ref %.4f ms, Diet/ref %.2f" % (name, v, rnd, res[0], res[1], res[0] / res[1]), flush=True)
