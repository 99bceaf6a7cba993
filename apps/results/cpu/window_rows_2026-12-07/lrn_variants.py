"""Round 20's LRN repro variants (../redteam20_2026-12-07/repro_lrn20.py) at 64 x 64 x 64 x 4, R = 3, target A:
Diet from $DIET_PLUGIN, Adams2019 at the constant shape, the serial reference (median of 10 realizes, outputs
checked against the reference). Run from ../redteam20_2026-12-07 (it imports that folder's helpers)."""
import os, sys
sys.path.insert(0, os.getcwd())
exec(open("repro_lrn20.py").read().split("for v in (dict")[0])
import numpy as np
v = dict(W=64, H=64, C=64, NB=4, R=3)
data = [fa((np.random.default_rng(1).standard_normal((v['W'], v['H'], v['C'], v['NB'])) * 20).astype(np.float32))]
for variant in ("as specified", "window sum only"):
    time_all("%s %s" % (variant, ",".join("%s=%d" % kv for kv in v.items())), mk(variant), RANGES, v, data,
             [(hl.Float(32), [v['W'], v['H'], v['C'], v['NB']])], TA)
