"""ab_results.jsonl -> ab_summary.md: per pipeline and shape, median [min-max] ms over the 3 alternating rounds."""
import json, collections, statistics
T = collections.defaultdict(lambda: collections.defaultdict(list))
for l in open("ab_results.jsonl"):
    d = json.loads(l)
    for k, v in d['times'].items():
        if isinstance(v, float):
            T[(d['pipeline'], k)][d['sched']].append(v)
out = ["| pipeline | shape | Diet | Adams2019c | Mullapudi2016 | Diet / best other (medians) |", "|---|---|---|---|---|---|"]
for (p, k), byS in T.items():
    cell = {}
    for s in ("Diet", "Adams2019c", "Mullapudi2016"):
        vs = byS.get(s)
        cell[s] = "%.3g [%.3g-%.3g] (n=%d)" % (statistics.median(vs), min(vs), max(vs), len(vs)) if vs else "-"
    others = [statistics.median(byS[s]) for s in ("Adams2019c", "Mullapudi2016") if byS.get(s)]
    ratio = "%.2f" % (statistics.median(byS["Diet"]) / min(others)) if others and byS.get("Diet") else "-"
    out.append("| %s | %s | %s | %s | %s | %s |" % (p, k, cell["Diet"], cell["Adams2019c"], cell["Mullapudi2016"], ratio))
open("ab_summary.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
