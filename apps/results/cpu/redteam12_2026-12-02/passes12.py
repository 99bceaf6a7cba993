"""All ab passes of this round -> passes.md: per (pipeline, shape) and pass, the median ms (over that pass's rounds) of
Diet, Mullapudi2016, Adams2019c, ref, and two paired ratios: Diet / best dynamic alternative (min of Mullapudi2016 and
the serial ref) and Diet / Adams2019c (constant shape, an upper bound). Rows where either ratio is >= 1.5 in any pass
are listed first ('flag'). usage: passes12.py (reads ab_results, ab_rerun, ab_1thread, ab_pass2, ab_malloc .jsonl)"""
import json, os, collections, statistics as st
PASSES = [("pass1 (2T, 2 rounds)", "ab_results.jsonl"), ("rerun (2T, 3 rounds)", "ab_rerun.jsonl"), ("1 thread (3 rounds)", "ab_1thread.jsonl"),
          ("pass2 (2T, 3 rounds)", "ab_pass2.jsonl"), ("glibc no-trim (2T, 3 rounds)", "ab_malloc.jsonl")]
R = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(dict)))
KEY = {}
for pn, f in PASSES:
    if not os.path.exists(f):
        continue
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
            rs = []
            for rnd, dm in S.get("Diet", {}).items():
                c = [S[o][rnd] for o in others if rnd in S.get(o, {})]
                if c:
                    rs.append(dm / min(c))
            return st.median(rs) if rs else None
        rd, ra = paired(["Mullapudi2016", "ref"]), paired(["Adams2019c"])
        flag |= (rd or 0) >= 1.5 or (ra or 0) >= 1.5
        f = lambda s: "%.4g" % med[s] if s in med else "err/-"
        g = lambda x: "-" if x is None else ("**%.2f**" % x if x >= 1.5 else "%.2f" % x)
        lines.append("| `%s` | %s %s | %s | %s | %s | %s | %s | %s | %s |" % (k[0], k[1], KEY[k], pn, f("Diet"), f("Mullapudi2016"), f("Adams2019c"), f("ref"), g(rd), g(ra)))
    rows.append((not flag, k, lines))
rows.sort()
out = ["| pipeline | shape | pass | Diet ms | Mull ms | Adams2019c ms | ref ms | Diet / min(Mull, ref) | Diet / Adams2019c |", "|---" * 9 + "|"]
for nf, k, lines in rows:
    out += lines
open("passes.md", "w").write("# Round 12: every timing pass, per (pipeline, shape); flagged rows (a ratio >= 1.5 in some pass) first\n\n" + "\n".join(out) + "\n")
print("\n".join(l for nf, k, lines in rows if not nf for l in lines))
