"""Schedule one red-team pipeline of any round with Diet once, then check GRID_N asymmetric shapes in
its ranges against the unscheduled reference (round 3's check_grid.py, for any round's pipes.py).
usage: grid_any.py ROUND_DIR PIPELINE   (DIET_PLUGIN picks the plugin; GRID_N, default 60)"""
import itertools, os, sys
import numpy as np
from load_round import scheduled

name = sys.argv[2]
run_one, spec, S, ins, p = scheduled(sys.argv[1], name)
rS, routs, rins, rp = run_one.build(spec, "ref")
rp.compile_jit(run_one.TARGET)
cands = {}
for n, (lo, hi) in spec['ranges'].items():
    cands[n] = sorted(set(v for v in [lo, lo + 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, 127, 129, 255, 257,
                                      hi // 2 + 1, hi - 1, hi] if lo <= v <= hi))
names = list(cands)
combos = list(itertools.product(*[cands[n] for n in names]))
rng = np.random.default_rng(5)
limit = int(os.environ.get("GRID_N", "60"))
if len(combos) > limit:
    keep = {0, len(combos) - 1}
    keep |= set(int(i) for i in rng.choice(len(combos), limit - 2, replace=False))
    combos = [combos[i] for i in sorted(keep)]
bad = 0
for c in combos:
    v = dict(zip(names, c))
    try:
        _, want = run_one.run_pipeline(rp, rS, rins, spec, v)
        rp.realize(want, run_one.TARGET)
        _, got = run_one.run_pipeline(p, S, ins, spec, v)
        p.realize(got, run_one.TARGET)
        oks = [run_one.compare(g, w, spec['tol']) for g, w in zip(got, want)]
        if not all(o for o, _ in oks):
            bad += 1
            print("BAD", v, "; ".join(m for _, m in oks))
    except Exception as e:
        bad += 1
        print("BAD", v, "exception:", str(e).strip()[-300:])
print("GRID %s: %d shapes, %d bad" % (name, len(combos), bad))
