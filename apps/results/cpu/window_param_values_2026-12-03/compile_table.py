"""Per (target, pipeline): median compile_s before/after and the geomean after/before time ratio over its shapes, from
the ab.sh runs in DIR. usage: compile_table.py DIR"""
import json, math, os, statistics, sys
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    rows = [json.loads(l) for l in open(os.path.join(d, f)) if l.strip()]
    c = {s: [r["r"].get("compile_s") for r in rows if r["system"] == s and r["r"].get("compile_s") is not None] for s in ("before", "after")}
    t = {s: {} for s in ("before", "after")}
    for r in rows:
        for k, v in r["r"].get("times", {}).items(): t[r["system"]].setdefault(k, []).append(v)
    ratios = [statistics.median(t["after"][k]) / statistics.median(t["before"][k]) for k in t["before"] if k in t["after"]]
    if not c["before"] or not c["after"] or not ratios: continue
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print("%-62s compile %6.2f -> %6.2f s (%.1fx)  time geomean %.2f  [%s]" % (f[:-6], statistics.median(c["before"]), statistics.median(c["after"]),
          statistics.median(c["after"]) / statistics.median(c["before"]), g, " ".join("%.2f" % x for x in ratios)))
