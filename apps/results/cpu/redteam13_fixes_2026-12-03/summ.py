"""Summary of ab.sh's runs: per (pipeline, target, shape) the before/after medians, their ratio, and
the compile times; then the geometric mean of after/before per rule. usage: summ.py AB_DIR"""
import glob, json, math, os, statistics, sys
rows, by_rule = [], {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.jsonl"))):
    runs = [json.loads(l) for l in open(f) if l.strip()]
    if not runs:
        print("%-60s no result" % os.path.basename(f)); continue
    rule = runs[0]["rule"]
    t = {"before": {}, "after": {}}; c = {"before": [], "after": []}
    for r in runs:
        for shape, s in r["r"].get("times", {}).items(): t[r["system"]].setdefault(shape, []).append(s)
        if r["r"].get("compile_s") is not None: c[r["system"]].append(r["r"]["compile_s"])
    for shape in t["before"]:
        if shape not in t["after"]: continue
        b, a = statistics.median(t["before"][shape]), statistics.median(t["after"][shape])
        by_rule.setdefault(rule, []).append(a / b)
        print("%-62s %-5s %-24s before %9.4f after %9.4f  after/before %.3f  compile %s -> %s" % (
            os.path.basename(f)[:-6], rule[:5], shape[:24], b, a, a / b,
            "%.1f" % statistics.median(c["before"]) if c["before"] else "-", "%.1f" % statistics.median(c["after"]) if c["after"] else "-"))
for rule, rs in by_rule.items():
    print("rule %-10s %3d rows  geomean after/before %.3f  (>= 10%% faster: %d, >= 10%% slower: %d)" % (
        rule, len(rs), math.exp(sum(map(math.log, rs)) / len(rs)), sum(r <= 0.9 for r in rs), sum(r >= 1.1 for r in rs)))
