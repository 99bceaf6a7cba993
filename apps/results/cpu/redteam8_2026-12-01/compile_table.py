"""ab_results.jsonl -> compile_times.md: median JIT compile seconds per pipeline and scheduler (from the timing runs,
which ran at the spec's target), sorted by Diet's; plus ct_sweep (both targets, Diet vs the compute_root reference)."""
import json, collections, statistics
import pipes8
C = collections.defaultdict(lambda: collections.defaultdict(list))
for l in open("ab_results.jsonl"):
    d = json.loads(l)
    if isinstance(d.get('compile_s'), (int, float)):
        C[d['pipeline']][d['sched']].append(d['compile_s'])
S = ["Diet", "Adams2019", "Adams2019c", "Adams2019c@small", "Mullapudi2016"]
rows = sorted(C.items(), key=lambda kv: -statistics.median(kv[1].get("Diet", [0])))
out = ["| pipeline | target | " + " | ".join(S) + " |", "|---" * (len(S) + 2) + "|"]
for p, byS in rows:
    out.append("| %s | %s | %s |" % (p, pipes8.SPECS[p].get('target', 'B'), " | ".join(
        ("%.2f" % statistics.median(byS[s]) + (" (n=%d)" % len(byS[s]))) if byS.get(s) else "-" for s in S)))
ct = collections.defaultdict(dict)
for fn in ("ct_sweep.jsonl",):
    for l in open(fn):
        r = json.loads(l); ct[(r['pipeline'], 'A' if 'avx512' in r.get('target', '') else 'B')][r['sched']] = r.get('compile_s')
out += ["", "## ct_sweep: Diet vs reference JIT seconds on both targets (single runs, sorted by Diet)", "",
        "| pipeline | target | Diet | ref | Diet/ref |", "|---|---|---|---|---|"]
for (p, t), v in sorted(ct.items(), key=lambda kv: -(kv[1].get('Diet') or 0)):
    if v.get('Diet') and v.get('ref'):
        out.append("| %s | %s | %.2f | %.2f | %.1f |" % (p, t, v['Diet'], v['ref'], v['Diet'] / v['ref']))
open("compile_times.md", "w").write("\n".join(out) + "\n")
print("\n".join(out[:14]))
