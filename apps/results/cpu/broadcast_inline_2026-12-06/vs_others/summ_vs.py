"""Per pipeline, shape and scheduler: min-max of the rounds' medians (ms), and Diet over the best other."""
import json, sys, glob, collections
for f in sorted(glob.glob(sys.argv[1] + "/*.ab.out")):
    rows = [json.loads(l[3:]) for l in open(f) if l.startswith("AB ")]
    by = collections.defaultdict(list)
    for r in rows:
        if r.get("ms") is not None: by[(r["shape"], r["key"], r["sched"])].append(r["ms"])
    name = rows[0]["pipeline"] if rows else f
    for shape in ("small", "large"):
        keys = sorted({k for k in by if k[0] == shape})
        if not keys: continue
        cells = {k[2]: by[k] for k in keys}
        others = [min(v) for s, v in cells.items() if s != "Diet"]
        line = " ".join(f"{s} {min(v):.4g}-{max(v):.4g}" for s, v in sorted(cells.items()))
        best = min(others) if others else float('nan')
        print(f"{name[:60]:60s} {shape:5s} {keys[0][1]:28s} {line}  Diet(min)/best-other(min) {min(cells['Diet'])/best:.2f}")
