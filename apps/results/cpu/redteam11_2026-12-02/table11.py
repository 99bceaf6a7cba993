"""usage: table11.py [ab_results.jsonl ab_compile.jsonl per_pipeline.md]. correctness.md-style rows + ab_results.jsonl (+ ab_compile.jsonl) -> per_pipeline.md: per pipeline its target, harness
checks, grid, Diet JIT s (ab11 same-process) vs ref JIT s, and per shape the medians (over rounds) of Diet / Mullapudi2016 /
Adams2019c / ref in ms and Diet / best other (paired per round where both ran)."""
import json, re, sys, collections, statistics as st
sys.path.insert(0, ".")
import pipes11
ABF, CTF, OUTF = sys.argv[1:4] if len(sys.argv) > 3 else ("ab_results.jsonl", "ab_compile.jsonl", "per_pipeline.md")
res = {json.loads(l)['pipeline']: json.loads(l) for l in open("results.jsonl")}
G = {}
for l in open("grid.txt"):
    m = re.search(r"GRID (\S+) Diet: (\d+) shapes, (\d+) bad", l)
    G[l.split()[0]] = ("%s/%s" % (m.group(3), m.group(2))) if m else "FAILED"
R = collections.defaultdict(lambda: collections.defaultdict(dict)); KEY = {}
for l in open(ABF):
    d = json.loads(l)
    if 'ms' in d:
        R[(d['pipeline'], d['shape'])][d['sched'].replace("@small", "")][d['round']] = d['ms']; KEY[(d['pipeline'], d['shape'])] = d['key']
CT = collections.defaultdict(dict)
for l in open(CTF):
    d = json.loads(l); CT[d['pipeline']][d['sched']] = d.get('compile_s')
out = ["| # | pipeline | tgt | harness (in range) | grid bad/shapes | Diet JIT s (ref) | shape | Diet ms | Mull ms | Adams2019c ms | ref ms | Diet / best other |", "|---" * 12 + "|"]
for i, (n, s) in enumerate(pipes11.SPECS.items(), 1):
    d = res.get(n, {})
    chk = [c for c in d.get('checks', []) if 'must be at most' not in c['msg']]
    cs = "%d/%d" % (sum(c['ok'] for c in chk), len(chk)) if chk else d.get('status', '-')[:60]
    first = True
    for shape in ("small", "large"):
        byS = R.get((n, shape), {})
        med = {k: st.median(v.values()) for k, v in byS.items()}
        others = [k for k in med if k != "Diet"]
        best = min(others, key=lambda k: med[k]) if others else None
        ratio = "-"
        if best and "Diet" in byS:
            pr = [byS["Diet"][r] / byS[best][r] for r in byS["Diet"] if r in byS[best]]
            ratio = "%.2f (%s)%s" % (st.median(pr), best.replace("Mullapudi2016", "Mull"), " **>1.5**" if st.median(pr) > 1.5 else "")
        f = lambda k: ("%.4g" % med[k]) if k in med else "err/-"
        head = ("| %d | `%s` | %s | %s | %s | %s (%s) " % (i, n, s['target'], cs, G.get(n, '-'), CT[n].get("Diet"), CT[n].get("ref"))) if first else "| | | | | | "
        out.append(head + "| %s %s | %s | %s | %s | %s | %s |" % (shape, KEY.get((n, shape), ""), f("Diet"), f("Mullapudi2016"), f("Adams2019c"), f("ref"), ratio))
        first = False
open(OUTF, "w").write("\n".join(out) + "\n")
print("\n".join(out))
