"""Summarize ab_changed.sh's JSON lines: per pipeline and timing shape, the before/after medians of the
rounds' medians (ms), their ranges, and after/before; geomean over all at the end."""
import json, sys, math, collections
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    for shape, v in r["r"]["times"].items():
        t[(r["tag"] + "_" + r["r"]["pipeline"], shape)][r["system"]].append(v["median_ms"])
ratios = []
print("| pipeline | shape | before ms (range) | after ms (range) | after/before |")
print("|---|---|---:|---:|---:|")
for (p, shape), s in sorted(t.items()):
    if not s["before"] or not s["after"]:
        continue
    b = sorted(s["before"]); a = sorted(s["after"])
    mb, ma = b[len(b) // 2], a[len(a) // 2]
    ratios.append(ma / mb)
    print("| %s | %s | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.2f |" % (p, shape, mb, b[0], b[-1], ma, a[0], a[-1], ma / mb))
print("\ngeomean after/before over %d (pipeline, shape) pairs: %.3f" % (len(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios))))
