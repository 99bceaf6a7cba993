"""Time one red-team pipeline of any round with Diet (DIET_PLUGIN): schedule, compile, then the median
and minimum of 20 runs at the spec's small and large timing shapes. Prints one JSON line 'TIME {...}'.
usage: time_any.py ROUND_DIR PIPELINE"""
import json, os, sys, time
import numpy as np
from load_round import scheduled

name = sys.argv[2]
run_one, spec, S, ins, p = scheduled(sys.argv[1], name)
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
