"""Time one red-team pipeline of any round with Diet (DIET_PLUGIN): schedule, compile, then the median
and minimum of 20 runs at the spec's small and large timing shapes. Prints one JSON line 'TIME {...}'.
usage: time_any.py ROUND_DIR PIPELINE"""
import sys, os, json, time
import numpy as np
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(sys.argv[1]))
import pipes  # noqa: E402
sys.path.append(os.path.join(here, "..", "redteam3_fixes_2026-11-30"))
import halide as hl  # noqa: E402
import run_one  # noqa: E402

name = sys.argv[2]
spec = pipes.SPECS[name]
hl.load_plugin(run_one.PLUGINS["Diet"])
S, outs, ins, p = run_one.build(spec, "Diet")
p.auto_schedule("Diet", run_one.TARGET, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(run_one.TARGET)
res = {"pipeline": name, "plugin": os.environ.get("DIET_PLUGIN", ""), "times": {}}
for v in run_one.default_times(spec):
    key = ",".join("%s=%d" % kv for kv in v.items())
    _, got = run_one.run_pipeline(p, S, ins, spec, v)
    p.realize(got, run_one.TARGET)
    ts = []
    for _ in range(20):
        t0 = time.perf_counter(); p.realize(got, run_one.TARGET); ts.append(time.perf_counter() - t0)
    res["times"][key] = {"median_ms": float(np.median(ts)) * 1e3, "min_ms": float(np.min(ts)) * 1e3}
print("TIME " + json.dumps(res))
