"""quick view of ab_results.jsonl: per pipeline/shape the median ms per scheduler and Diet / best other (paired per round)"""
import json, collections, statistics as st, sys
f = sys.argv[1] if len(sys.argv) > 1 else "ab_results.jsonl"
R = collections.defaultdict(lambda: collections.defaultdict(dict)); E = {}
for l in open(f):
    d = json.loads(l)
    if 'ms' in d: R[(d['pipeline'], d['shape'])][d['sched'].replace('@small', '')][d['round']] = d['ms']
    else: E[(d['pipeline'], d['shape'], d['sched'])] = d.get('error', '')[:120]
for k, S in R.items():
    med = {s: st.median(v.values()) for s, v in S.items()}
    rs = [dm / min(S[o][r] for o in S if o != 'Diet' and r in S[o]) for r, dm in S.get('Diet', {}).items() if any(r in S[o] for o in S if o != 'Diet')]
    rb = st.median(rs) if rs else float('nan')
    print("%-28s %-5s %s  Diet/best=%.2f%s" % (k[0][:28], k[1], "  ".join("%s=%.4g" % (s[:5], m) for s, m in sorted(med.items())), rb, "  <<<" if rb >= 1.3 else ""))
for k, e in E.items(): print("ERR", k[0][:28], k[1], k[2], e)
