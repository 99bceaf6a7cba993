"""Round 21 step 5 for the small-shape cases: times one spec of pipes21 (the pipeline exactly as in the grid / ab) for
Diet, Adams2019 (constant shape) and the compute_root ref at several shapes (repro_util21.time_all: median of 10
realizes, outputs checked against ref), to show how the Diet / Adams ratio moves with the size. Run it once as is and
once with HL_NUM_THREADS=1 to see whether the gap is parallel overhead.
usage: rt21.py r11 ../redteam21_2026-12-07/repro_shapes21.py NAME_PREFIX 'P=v,P=v,...' ['P=v,...' ...]"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np, halide as hl
import repro_util21 as ru
import pipes21 as P

name = [n for n in P.SPECS if n.startswith(sys.argv[1])][0]
spec = P.SPECS[name]


def build(S, sched):
    P.CREATED.clear()
    outs, ins = spec['build'](S, S)
    return outs, ins, list(P.CREATED)


print(name, "threads:", os.environ.get("HL_NUM_THREADS", "default"), flush=True)
for arg in sys.argv[2:]:
    v = {k: int(x) for k, x in (kv.split("=") for kv in arg.split(","))}
    data = spec['data'](v, np.random.default_rng(7))
    outs = [(o[0], o[1]) for o in spec['outs'](v)]
    ru.time_all(arg, build, spec['ranges'], v, data, outs, P.TARGETS[spec['target']])
