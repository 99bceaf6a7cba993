"""Schedule one pipeline with Diet (or another) once, then check many asymmetric shapes against the reference.
usage: check_grid.py <pipeline> [sched]; GRID_IN_RANGE=1 leaves out the value above each range (for
pipelines that read their Params, where Halide's range assertion fires: round 5's check_grid5.py)."""
import sys, itertools, json, os
import numpy as np, halide as hl
import pipes, run_one

name = sys.argv[1]; sched = sys.argv[2] if len(sys.argv) > 2 else "Diet"
spec = pipes.SPECS[name]
hl.load_plugin(run_one.PLUGINS[sched.split("@")[0]])
S, outs, ins, p = run_one.build(spec, sched)
p.auto_schedule(sched.split("@")[0], run_one.TARGET, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(run_one.TARGET)
rS, routs, rins, rp = run_one.build(spec, "ref")
rp.compile_jit(run_one.TARGET)
cands = {}
for n, (lo, hi) in spec['ranges'].items():
    above = [] if os.environ.get("GRID_IN_RANGE") == "1" else [hi + 7]
    vals = sorted(set(v for v in [lo, lo + 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, hi // 2 + 1, hi - 1, hi] + above if v >= lo and v >= 1))
    cands[n] = vals
names = list(cands)
combos = list(itertools.product(*[cands[n] for n in names]))
rng = np.random.default_rng(3)
if len(combos) > 150:
    idx = rng.choice(len(combos), 150, replace=False)
    combos = [combos[i] for i in sorted(idx)]
bad = 0
for c in combos:
    v = dict(zip(names, c))
    try:
        _, want = run_one.run_pipeline(rp, rS, rins, spec, v); rp.realize(want, run_one.TARGET)
        _, got = run_one.run_pipeline(p, S, ins, spec, v); p.realize(got, run_one.TARGET)
        oks = [run_one.compare(g, w, spec['tol']) for g, w in zip(got, want)]
        if not all(o for o, _ in oks):
            bad += 1; print("WRONG", v, [m for _, m in oks], flush=True)
    except Exception as e:
        bad += 1; print("EXC", v, str(e)[:300], flush=True)
print("GRID %s %s: %d shapes, %d bad" % (name, sched, len(combos), bad))
