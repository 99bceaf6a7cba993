"""results.jsonl + grid.txt -> correctness.md (per pipeline: target, harness checks in range (lo, odd, mid, hi; the 5th,
above-range shape is excluded: Halide's Param range assertion), Diet schedule s and JIT s, grid result) and
pipelines_table.md (#, name, target, ranges, style)."""
import json, re, sys
sys.path.insert(0, ".")
import pipes11
res = {}
for l in open("results.jsonl"):
    d = json.loads(l); res[d['pipeline']] = d
G = {}
for l in open("grid.txt"):
    m = re.search(r"GRID (\S+) Diet: (\d+) shapes, (\d+) bad", l)
    G[l.split()[0]] = ("%s/%s bad" % (m.group(3), m.group(2))) if m else "**FAILED (%s)**" % l.split(" ", 2)[1]
out = ["| # | pipeline | target | harness checks in range | Diet schedule s | Diet JIT s | grid own target |", "|---" * 7 + "|"]
tab = ["| # | pipeline | target | ranges | style |", "|---|---|---|---|---|"]
for i, (n, s) in enumerate(pipes11.SPECS.items(), 1):
    d = res.get(n, {})
    chk = [c for c in d.get('checks', []) if 'must be at most' not in c['msg'] and 'must be at least' not in c['msg']]
    st = d.get('status', '-')
    cs = ("%d/%d ok" % (sum(c['ok'] for c in chk), len(chk))) if chk else ("**" + st[:140].replace("\n", " ").replace("|", "/") + "**")
    out.append("| %d | `%s` | %s | %s | %s | %s | %s |" % (i, n, s['target'], cs, d.get('schedule_s', '-'), d.get('compile_s', '-'), G.get(n, '-')))
    rg = ", ".join("%s %d..%d" % (k, lo, hi) for k, (lo, hi) in s['ranges'].items())
    tab.append("| %d | `%s` | %s | %s | %s |" % (i, n, s['target'], rg, s['style'].replace("|", "/")))
open("correctness.md", "w").write("\n".join(out) + "\n")
open("pipelines_table.md", "w").write("# Round 11 pipelines (pipes11.py)\n\nTargets: A = `%s`, B = `%s`.\n\n" % (pipes11.TARGETS['A'], pipes11.TARGETS['B']) + "\n".join(tab) + "\n")
print("\n".join(out))
