"""per_pipeline.md (per pipeline and shape: each scheduler's per-pass medians as a range over pass 1 and pass 2, and the
paired ratio ranges) and compile_times.md (Diet schedule / JIT seconds over every ab process, ref JIT alongside).
usage: table13.py"""
import json, collections, statistics as st, os
FILES = [f for f in ["ab_results.jsonl", "ab_pass2.jsonl"] if __import__("os").path.exists(f)]
R = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(dict)))
KEY, TGT = {}, {}
import pipes21
for f in FILES:
    for l in open(f):
        d = json.loads(l)
        if 'ms' in d:
            R[(d['pipeline'], d['shape'])][f][d['sched'].replace("@small", "")][d['round']] = d['ms']; KEY[(d['pipeline'], d['shape'])] = d['key']
rng = lambda xs: "-" if not xs else ("%.3g" % min(xs) if len(set("%.3g" % x for x in xs)) == 1 else "%.3g–%.3g" % (min(xs), max(xs)))
out = ["| # | pipeline (tgt) | shape | Diet ms | Mull ms | Adams2019c ms | ref ms | Diet/min(Mull,ref) | Diet/Adams |", "|---" * 9 + "|"]
names = list(pipes21.SPECS)
for k in sorted(R, key=lambda k: (names.index(k[0]), k[1] != "small")):
    meds = collections.defaultdict(list); rd, ra = [], []
    for f, S in R[k].items():
        for s, v in S.items():
            meds[s].append(st.median(v.values()))
        for rnd, dm in S.get("Diet", {}).items():
            c = [S[o][rnd] for o in ("Mullapudi2016", "ref") if rnd in S.get(o, {})]
            if c: rd.append(dm / min(c))
            if rnd in S.get("Adams2019c", {}): ra.append(dm / S["Adams2019c"][rnd])
    b = lambda xs: rng(xs) if not xs or max(xs) < 1.3 else "**%s**" % rng(xs)
    out.append("| %d | `%s` (%s) | %s %s | %s | %s | %s | %s | %s | %s |" % (names.index(k[0]) + 1, k[0], pipes21.SPECS[k[0]]['target'], k[1], KEY[k],
               rng(meds["Diet"]), rng(meds["Mullapudi2016"]) if meds["Mullapudi2016"] else "err", rng(meds["Adams2019c"]) if meds["Adams2019c"] else "err",
               rng(meds["ref"]), b(rd), b(ra)))
open("per_pipeline.md", "w").write("# Round 21 timings: ranges of per-pass medians over pass 1 (2 rounds) and pass 2 (3 rounds); ratios paired per round, range over all rounds of both passes\n\n" + "\n".join(out) + "\n")
C = collections.defaultdict(lambda: collections.defaultdict(list))
for f in ("ab_compile.jsonl", "ab_pass2_compile.jsonl"):
    for l in open(f):
        d = json.loads(l)
        C[d['pipeline']][d['sched']].append((d.get('schedule_s'), d.get('compile_s'), d.get('error', '')[-160:]))
out = ["| pipeline | Diet auto_schedule s | Diet JIT s | ref JIT s | Mullapudi JIT s | Adams2019c sched+JIT s |", "|---" * 6 + "|"]
for p in names:
    c = C[p]
    f = lambda s, i: rng([x[i] for x in c.get(s, []) if x[i] is not None]) if any(x[i] is not None for x in c.get(s, [])) else "err"
    dj = [x[1] for x in c["Diet"] if x[1] is not None]
    flag = "**" if dj and max(dj) > 10 else ""
    ad = [x[0] + x[1] for x in c.get("Adams2019c", []) if x[0] is not None]
    out.append("| `%s` | %s | %s%s%s | %s | %s | %s |" % (p, f("Diet", 0), flag, f("Diet", 1), flag, f("ref", 1), f("Mullapudi2016", 1), rng(ad) if ad else "err: " + (c.get("Adams2019c") or [("", "", "")])[0][2][:90]))
open("compile_times.md", "w").write("# Round 21 compile times (seconds; range over pass 1 and pass 2 ab processes); Diet JIT > 10 s in bold\n\n" + "\n".join(out) + "\n")
