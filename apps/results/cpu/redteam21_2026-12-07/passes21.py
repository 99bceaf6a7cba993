"""All ab passes of Round 21 (round 14's passes14.py plus a third ratio, Diet / best of all others) -> passes.md: per (pipeline, shape) and pass, the median ms over that pass's rounds of Diet,
Mullapudi2016, Adams2019c (@small at the small shape), ref, and two paired-per-round ratios: Diet / min(Mullapudi2016,
ref) ('dyn') and Diet / Adams2019c. Rows where a ratio is >= 1.3 in any pass come first. usage: passes13.py"""
import json, os, collections, statistics as st
PASSES = [("pass1 (2 rounds)", "ab_results.jsonl"), ("pass1 census Diet+ref only (2 rounds)", "ab_none.jsonl"), ("rerun (3 rounds)", "ab_rerun.jsonl"), ("pass2 (3 rounds)", "ab_pass2.jsonl"),
          ("1 thread (3 rounds)", "ab_1thread.jsonl")]
R = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(dict)))
KEY = {}
for pn, f in PASSES:
    if os.path.exists(f):
        for l in open(f):
            d = json.loads(l)
            if 'ms' in d:
                R[(d['pipeline'], d['shape'])][pn][d['sched'].replace("@small", "")][d['round']] = d['ms']; KEY[(d['pipeline'], d['shape'])] = d['key']
rows = []
for k, byp in R.items():
    lines, flag = [], False
    for pn, _ in PASSES:
        if pn not in byp:
            continue
        S = byp[pn]
        med = {s: st.median(v.values()) for s, v in S.items()}
        def paired(others):
            rs = [dm / min(S[o][r] for o in others if r in S.get(o, {})) for r, dm in S.get("Diet", {}).items()
                  if any(r in S.get(o, {}) for o in others)]
            return st.median(rs) if rs else None
        rd, ra, rb = paired(["Mullapudi2016", "ref"]), paired(["Adams2019c"]), paired(["Mullapudi2016", "Adams2019c", "ref"])
        flag |= (rb or 0) >= 1.3
        f = lambda s: "%.4g" % med[s] if s in med else "err/-"
        g = lambda x: "-" if x is None else ("**%.2f**" % x if x >= 1.3 else "%.2f" % x)
        lines.append("| `%s` | %s %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (k[0], k[1], KEY[k], pn, f("Diet"), f("Mullapudi2016"), f("Adams2019c"), f("ref"), g(rd), g(ra), g(rb)))
    rows.append((not flag, k, lines))
rows.sort()
out = ["| pipeline | shape | pass | Diet ms | Mull ms | Adams2019c ms | ref ms | Diet / min(Mull, ref) | Diet / Adams2019c | Diet / best other |", "|---" * 10 + "|"]
for nf, k, lines in rows:
    out += lines
open("passes.md", "w").write("# Round 21: every timing pass, per (pipeline, shape); flagged rows (Diet / best other >= 1.3 in some pass) first\n\n" + "\n".join(out) + "\n")
print("\n".join(l for nf, k, lines in rows if not nf for l in lines))
