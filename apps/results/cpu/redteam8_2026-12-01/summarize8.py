"""results.jsonl + grid.txt + grid_x.txt + ct_sweep.jsonl + ref_compile.jsonl -> correctness.md (one row per pipeline).
The harness's above-range test (hi + hi/4 + 3) failing with Halide's own 'Parameter X is N but must be at most hi' is
counted as expected, not as a failure."""
import json, re, collections
import pipes8
last = {}
for l in open("results.jsonl"):
    d = json.loads(l)
    if d['sched'] == 'Diet':
        last[d['pipeline']] = d
grid, gridx = {}, {}
for fn, dst in (("grid.txt", grid), ("grid_x.txt", gridx)):
    for l in open(fn):
        m = re.search(r"GRID (\S+) Diet: (\d+) shapes, (\d+) bad", l)
        if m:
            dst[m.group(1)] = "%s/%s bad" % (m.group(3), m.group(2))
        else:
            dst.setdefault(l.split()[0], l.strip()[-80:])
ct = collections.defaultdict(dict)
for fn in ("ct_sweep.jsonl", "ct_sweep2.jsonl"):
    try:
        for l in open(fn):
            r = json.loads(l); ct[(r['pipeline'], 'A' if 'avx512' in r.get('target', '') else 'B')][r['sched']] = r.get('compile_s', 'err')
    except FileNotFoundError:
        pass
out = ["| # | pipeline | target | harness (5 shapes) | grid (own target) | grid (other target) | Diet JIT s A / ref | Diet JIT s B / ref |",
       "|---|---|---|---|---|---|---|---|"]
for i, (name, sp) in enumerate(pipes8.SPECS.items(), 1):
    d = last.get(name)
    if d is None:
        h = "not run"
    else:
        bad = [c for c in d['checks'] if not c['ok'] and 'but must be at most' not in c['msg'] and 'but must be at least' not in c['msg']]
        h = ("ok" if not bad else "FAIL: " + "; ".join(c['msg'][:80] for c in bad)) if not d['status'].startswith('error') else d['status'][:80]
    def c(t):
        x = ct.get((name, t), {})
        return "%s / %s" % (x.get('Diet', '-'), x.get('ref', '-'))
    out.append("| %d | `%s` | %s | %s | %s | %s | %s | %s |" % (i, name, sp.get('target', 'B'), h, grid.get(name, '-'), gridx.get(name, '-'), c('A'), c('B')))
open("correctness.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
