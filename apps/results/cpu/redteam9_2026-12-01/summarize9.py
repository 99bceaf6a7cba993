"""results.jsonl + grid.txt + grid_x.txt + grid_mp.txt -> correctness.md: per pipeline, target, the harness's in-range
checks (lo, odd, mid, hi; the above-range 5th shape is excluded: Halide's Param range assertion), Diet compile s, and the
grid results (shapes, bad) at the own target, the other target and under the two other MachineParams."""
import json, re, sys
sys.path.insert(0, ".")
import pipes9
res = {}
for l in open("results.jsonl"):
    d = json.loads(l); res[d['pipeline']] = d
def grids(fn):
    g = {}
    try:
        for l in open(fn):
            m = re.search(r"GRID (\S+) Diet: (\d+) shapes, (\d+) bad", l)
            mp = re.match(r"MP\((\d+),\d+\) (\S+)", l)
            name = mp.group(2) if mp else l.split()[0]
            key = (name, mp.group(1)) if mp else name
            g[key] = "%s/%s bad" % (m.group(3), m.group(2)) if m else "FAILED (%s)" % l.split(" ", 2)[1 + bool(mp)].strip()
    except FileNotFoundError:
        pass
    return g
G, GX, GM = grids("grid.txt"), grids("grid_x.txt"), grids("grid_mp.txt")
out = ["| # | pipeline | target | harness checks in range | Diet compile s | grid own target | grid other target | grid MP(1,256K) | grid MP(64,32M) |", "|---" * 9 + "|"]
for i, (n, s) in enumerate(pipes9.SPECS.items(), 1):
    d = res.get(n, {})
    chk = [c for c in d.get('checks', []) if 'must be at most' not in c['msg']]
    st = d.get('status', '-')
    cs = ("%d/%d ok" % (sum(c['ok'] for c in chk), len(chk))) if chk else ("**" + st[:140].replace("\n", " ").replace("|", "/") + "**")
    out.append("| %d | `%s` | %s | %s | %s | %s | %s | %s | %s |" % (i, n, s['target'], cs, d.get('compile_s', '-'), G.get(n, '-'), GX.get(n, '-'), GM.get((n, '1'), '-'), GM.get((n, '64'), '-')))
open("correctness.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
