"""ab_results.jsonl -> ab_summary.md (paired = median over rounds of Diet/other measured in the SAME round): per pipeline and shape (small, large), median [min-max] ms over the
alternating rounds for Diet, Adams2019 (Params), Adams2019c (constant shape; @small at the small shape),
Mullapudi2016; ratio = Diet median / best other median. Non-float entries (errors) are listed separately."""
import json, collections, statistics
T = collections.defaultdict(lambda: collections.defaultdict(list))
RT = collections.defaultdict(dict)  # (pipeline, shape, sched) -> {round: ms}: for paired (same-round) ratios
ERR = collections.defaultdict(set)
order = []
for l in open("ab_results.jsonl"):
    d = json.loads(l)
    s = d['sched'].replace("@small", "")
    if d['pipeline'] not in order:
        order.append(d['pipeline'])
    if not d['times'] and d['status'] != 'ok':
        ERR[(d['pipeline'], s)].add(d['status'][:160])
    for k, v in d['times'].items():
        if isinstance(v, float):
            T[(d['pipeline'], k)][s].append(v)
            RT[(d['pipeline'], k, s)][d['round']] = v
        else:
            ERR[(d['pipeline'], s)].add(("%s: %s" % (k, v))[:160])
S = ("Diet", "Adams2019", "Adams2019c", "Mullapudi2016")
def paired(p, k, s):
    a, b = RT.get((p, k, "Diet"), {}), RT.get((p, k, s), {})
    rs = [a[r] / b[r] for r in a if r in b]
    return (statistics.median(rs), len(rs)) if rs else None


out = ["| pipeline | shape | " + " | ".join(S) + " | Diet / best other (medians) | paired Diet/Adams2019c | paired Diet/Mullapudi2016 |", "|---" * (len(S) + 5) + "|"]
rows = []
for p in order:
    for (pp, k), byS in T.items():
        if pp != p:
            continue
        cell = {}
        for s in S:
            vs = byS.get(s)
            cell[s] = "%.3g [%.3g-%.3g] (n=%d)" % (statistics.median(vs), min(vs), max(vs), len(vs)) if vs else "-"
        others = [(statistics.median(byS[s]), s) for s in S[1:] if byS.get(s)]
        ratio = None
        if others and byS.get("Diet"):
            b = min(others)
            ratio = statistics.median(byS["Diet"]) / b[0]
        rows.append((p, k, ratio, others and min(others)[1]))
        pr = [paired(p, k, s) for s in ("Adams2019c", "Mullapudi2016")]
        out.append("| %s | %s | %s | %s | %s |" % (p, k, " | ".join(cell[s] for s in S), ("%.2f (%s)" % (ratio, min(others)[1])) if ratio else "-",
                                              " | ".join(("%.2f (n=%d)" % x) if x else "-" for x in pr)))
out.append("\n## Largest Diet / best-other ratios\n")
for p, k, r, b in sorted([r for r in rows if r[2]], key=lambda r: -r[2])[:15]:
    out.append("- %s %s: %.2f vs %s" % (p, k, r, b))
out.append("\n## Errors / non-timed entries (by scheduler)\n")
for (p, s), msgs in sorted(ERR.items()):
    for m in sorted(msgs):
        out.append("- %s / %s: %s" % (p, s, m.replace("\n", " ")))
open("ab_summary.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
