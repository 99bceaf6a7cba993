"""quick per-pipeline view of an ab jsonl: median per (pipeline, shape, sched) and the paired ratios. usage: quick14.py [file]"""
import json, sys, collections, statistics as st
f = sys.argv[1] if len(sys.argv) > 1 else "ab_results.jsonl"
R = collections.defaultdict(lambda: collections.defaultdict(dict)); ERR = collections.defaultdict(dict)
for l in open(f):
    d = json.loads(l)
    k = (d['pipeline'], d['shape'])
    s = d['sched'].replace("@small", "")
    if 'ms' in d: R[k][s][d['round']] = d['ms']
    else: ERR[k][s] = d.get('error', '')[:60]
for k, S in R.items():
    med = {s: st.median(v.values()) for s, v in S.items()}
    def paired(others):
        rs = [dm / min(S[o][r] for o in others if r in S.get(o, {})) for r, dm in S.get("Diet", {}).items() if any(r in S.get(o, {}) for o in others)]
        return "%.2f-%.2f" % (min(rs), max(rs)) if rs else "-"
    flag = "!!" if any(float(x.split("-")[-1]) >= 1.5 for x in (paired(["Mullapudi2016", "ref"]), paired(["Adams2019c"])) if x != "-") else "  "
    print(flag, k[0][:60], k[1], " ".join("%s=%.4g" % (s[:5], m) for s, m in med.items()), "dyn", paired(["Mullapudi2016", "ref"]), "adams", paired(["Adams2019c"]), ERR.get(k, ""))
