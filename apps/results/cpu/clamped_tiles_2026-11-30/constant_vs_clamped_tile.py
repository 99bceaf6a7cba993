"""A red-team pipeline scheduled with its W range starting at argv[3] (1: clamped tiles possible; 128: the same
tile with a constant factor), timed at 700 x 500. usage: DIET_PLUGIN=... constant_vs_clamped_tile.py ROUND_DIR PIPELINE W_LO"""
import sys, os, json, time
import numpy as np
R = "/work/main/apps/results/cpu/"
sys.path.insert(0, R + sys.argv[1]); import pipes
sys.path.append(R + "redteam3_fixes_2026-11-30")
import halide as hl, run_one
s = dict(pipes.SPECS[sys.argv[2]])
s['ranges'] = dict(s['ranges']); s['ranges']['W'] = (int(sys.argv[3]), s['ranges']['W'][1])
hl.load_plugin(os.environ["DIET_PLUGIN"])
S, outs, ins, p = run_one.build(s, "Diet")
r = p.auto_schedule("Diet", run_one.TARGET, hl.MachineParams(2, 1 << 20, 40))
print([l for l in r.schedule_source.split("\n") if "tiled group" in l])
p.compile_jit(run_one.TARGET)
v = {"W": 700, "H": 500}
_, got = run_one.run_pipeline(p, S, ins, s, v)
ts = []
for _ in range(40):
    t0 = time.perf_counter(); p.realize(got, run_one.TARGET); ts.append(time.perf_counter() - t0)
print(sys.argv[2:], "median %.3f min %.3f" % (np.median(ts) * 1e3, min(ts) * 1e3))
