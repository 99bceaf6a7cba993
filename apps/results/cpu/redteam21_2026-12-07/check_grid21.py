"""(round 21 copy of round 6's check_grid6.py: samples the candidate shapes when the full product is too large)
Schedule one pipeline once (Diet by default), then check many asymmetric IN-RANGE shapes (always including
every Param at lo and at hi) against the compute_root reference. usage: check_grid6.py <pipeline> [sched] [max_shapes]"""
import os, sys, itertools
here = os.path.dirname(os.path.abspath(__file__))
sys.argv += [] 
import run6  # sets up pipes6 / run_one (run via: rt21.py r11 ../redteam21_2026-12-07/check_grid21.py NAME Diet N)
import numpy as np, halide as hl
run_one, pipes6 = run6.run_one, run6.pipes6

name = sys.argv[1]; sched = sys.argv[2] if len(sys.argv) > 2 else "Diet"
maxn = int(sys.argv[3]) if len(sys.argv) > 3 else 80
spec = pipes6.SPECS[name]
hl.load_plugin(run_one.PLUGINS[sched.split("@")[0]])
S, outs, ins, p = run_one.build(spec, sched)
p.auto_schedule(sched.split("@")[0], run6.TARGET, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(run6.TARGET)
rS, routs, rins, rp = run_one.build(spec, "ref")
rp.compile_jit(run6.TARGET)
cands = {}
for n, (lo, hi) in spec['ranges'].items():
    vals = [lo, lo + 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, hi // 3, hi // 2 + 1, hi - 1, hi]
    cands[n] = sorted(set(v for v in vals if lo <= v <= hi))
names = list(cands)
ncomb = 1
for n in names:
    ncomb *= len(cands[n])
if ncomb <= 200000:
    combos = list(itertools.product(*[cands[n] for n in names]))
else:  # round 21: too many Params for the full product (8 Params: ~1e10 tuples, the process was killed); sample instead
    _r = np.random.default_rng(11)
    combos = list(dict.fromkeys(tuple(cands[n][_r.integers(len(cands[n]))] for n in names) for _ in range(400)))
must = [tuple(spec['ranges'][n][0] for n in names), tuple(spec['ranges'][n][1] for n in names)]
for k in range(len(names)):  # one Param at lo, others at hi and vice versa
    must.append(tuple(spec['ranges'][n][0] if j == k else spec['ranges'][n][1] for j, n in enumerate(names)))
    must.append(tuple(spec['ranges'][n][1] if j == k else spec['ranges'][n][0] for j, n in enumerate(names)))
rng = np.random.default_rng(11)
rest = [c for c in combos if c not in must]
if len(rest) + len(must) > maxn:
    idx = rng.choice(len(rest), max(0, maxn - len(must)), replace=False)
    rest = [rest[i] for i in sorted(idx)]
combos = list(dict.fromkeys(must + rest))
bad = 0
for c in combos:
    v = dict(zip(names, c))
    try:
        want = run6.realize(rp, rS, rins, spec, v)
    except Exception as e:
        print("REFEXC", v, str(e)[:200], flush=True); continue
    try:
        got = run6.realize(p, S, ins, spec, v)
        oks = [run6.compare(g, w, spec['tol']) for g, w in zip(got, want)]
        if not all(o for o, _ in oks):
            bad += 1; print("WRONG", v, [m for _, m in oks], flush=True)
    except Exception as e:
        bad += 1; print("EXC", v, str(e)[:300], flush=True)
print("GRID %s %s: %d shapes, %d bad" % (name, sched, len(combos), bad))
