"""Time one red-team pipeline (any round) with Diet (DIET_PLUGIN) at given shapes: median of 20 runs each.
usage: time_shapes.py ROUND_DIR PIPELINE 'W=500,H=384,R=5' ...   (DIET_AB_TARGET=A|B picks the target)"""
import json, os, sys, time
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clamped_tiles_2026-11-30"))
from load_round import scheduled

name = sys.argv[2]
run_one, spec, S, ins, p = scheduled(sys.argv[1], name)
res = {"pipeline": name, "plugin": os.environ.get("DIET_PLUGIN", ""), "times": {}}
for arg in sys.argv[3:]:
    v = {k: int(x) for k, x in (kv.split("=") for kv in arg.split(","))}
    _, got = run_one.run_pipeline(p, S, ins, spec, v)
    p.realize(got, run_one.TARGET)
    ts = []
    for _ in range(20):
        t0 = time.perf_counter(); p.realize(got, run_one.TARGET); ts.append(time.perf_counter() - t0)
    res["times"][arg] = {"median_ms": float(np.median(ts)) * 1e3, "min_ms": float(np.min(ts)) * 1e3}
print("TIME " + json.dumps(res))
