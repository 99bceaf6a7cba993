"""ab_results.jsonl + ab_compile.jsonl -> ab_summary.md: per (pipeline, shape) the median [min-max] ms over the rounds of
Diet, Mullapudi2016, Adams2019c (constant shape: @small at the small shape), ref (serial compute_root); paired ratios =
median over rounds of Diet / X measured in the SAME round (same process, back to back). A row is 'noisy' when any
scheduler's per-round times, or the Diet/X paired ratios, spread by more than 1.5x. Then the compile-time table
(Diet JIT s vs ref / Mullapudi / Adams JIT s; flagged when Diet > 10 s or > 10x ref)."""
import json, collections, statistics as st, sys
# usage: ab_summary9.py [results.jsonl compile.jsonl out.md]
RES, CTF, OUTF = sys.argv[1:4] if len(sys.argv) > 3 else ("ab_results.jsonl", "ab_compile.jsonl", "ab_summary.md")
R = collections.defaultdict(dict)   # (p, shape) -> sched -> {round: ms}
ERR = collections.defaultdict(set); KEY = {}; order = []
for l in open(RES):
    d = json.loads(l)
    s = d['sched'].replace("@small", "")
    if d['pipeline'] not in order:
        order.append(d['pipeline'])
    KEY[(d['pipeline'], d['shape'])] = d['key']
    if 'ms' in d:
        R[(d['pipeline'], d['shape'])].setdefault(s, {})[d['round']] = d['ms']
    else:
        ERR[(d['pipeline'], s)].add(d.get('error', '?')[:160].replace("\n", " "))
S = ("Diet", "Mullapudi2016", "Adams2019c", "ref")
out = ["| pipeline | shape | " + " | ".join(S) + " | Diet/Mull | Diet/Adams2019c | Diet/ref | noisy |", "|---" * 10 + "|"]
rows = []
for p in order:
    for shape in ("small", "large"):
        byS = R.get((p, shape))
        if not byS:
            continue
        cells, ratios, noisy = [], {}, False
        for s in S:
            v = byS.get(s)
            if v:
                vals = list(v.values())
                cells.append("%.4g [%.3g-%.3g]" % (st.median(vals), min(vals), max(vals)))
                noisy |= max(vals) / min(vals) > 1.5
            else:
                cells.append("-")
        for s in S[1:]:
            if "Diet" in byS and s in byS:
                pr = [byS["Diet"][r] / byS[s][r] for r in byS["Diet"] if r in byS[s]]
                if pr:
                    ratios[s] = st.median(pr)
                    noisy |= max(pr) / min(pr) > 1.5
        rows.append((p, shape, ratios, noisy))
        out.append("| %s | %s | %s | %s | %s |" % (p, shape + " " + KEY[(p, shape)], " | ".join(cells),
                   " | ".join(("%.2f" % ratios[s]) if s in ratios else "-" for s in S[1:]), "NOISY" if noisy else ""))
out.append("\n## Diet slower than 1.5x the best dynamic-shape alternative (Mullapudi2016, ref) or than ref\n")
for p, shape, ratios, noisy in rows:
    dyn = [ratios[s] for s in ("Mullapudi2016", "ref") if s in ratios]
    if dyn and max(dyn) > 1.5:
        out.append("- %s %s (%s): Diet/Mull %s, Diet/Adams2019c %s, Diet/ref %s%s" % (p, shape, KEY[(p, shape)], *(("%.2f" % ratios[s]) if s in ratios else "-" for s in S[1:]), " NOISY" if noisy else ""))
out.append("\n## Diet slower than 1.5x Adams2019c (constant-shape upper bound)\n")
for p, shape, ratios, noisy in sorted(rows, key=lambda r: -r[2].get("Adams2019c", 0)):
    if ratios.get("Adams2019c", 0) > 1.5:
        out.append("- %s %s: %.2f (Diet/Mull %s, Diet/ref %s)" % (p, shape, ratios["Adams2019c"], *(("%.2f" % ratios[s]) if s in ratios else "-" for s in ("Mullapudi2016", "ref"))))
out.append("\n## Errors of the schedulers (not timed)\n")
for (p, s), m in sorted(ERR.items()):
    out.append("- %s / %s: %s" % (p, s, " || ".join(sorted(m))))
out.append("\n## JIT compile seconds (same process, ab9.py)\n")
out.append("| pipeline | target | Diet | ref | Mullapudi2016 | Adams2019c | Diet/ref | flag |\n|---|---|---|---|---|---|---|---|")
CT = collections.defaultdict(dict)
for l in open(CTF):
    d = json.loads(l)
    CT[d['pipeline']][d['sched']] = d
for p, byS in CT.items():
    g = lambda s: byS.get(s, {}).get('compile_s')
    dt, rt = g("Diet"), g("ref")
    flag = "FLAG" if dt and rt and (dt > 10 or dt / rt > 10) else ""
    errs = "; ".join("%s error: %s" % (s, d['error'][:120].replace("\n", " ")) for s, d in byS.items() if 'error' in d)
    out.append("| %s | %s | %s | %s | %s | %s | %s | %s %s |" % (p, "AVX-512" if "avx512" in byS.get("ref", {}).get("target", "") else "AVX2",
               dt, rt, g("Mullapudi2016"), g("Adams2019c"), ("%.1f" % (dt / rt)) if dt and rt else "-", flag, errs))
open(OUTF, "w").write("\n".join(out) + "\n")
print("\n".join(out))
