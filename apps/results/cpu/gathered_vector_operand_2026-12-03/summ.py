"""Before/after per (target, pipeline, shape) from the ab.sh runs in the folders given (default ab_final, pairs of
changed_final.txt; ab_v1 with --changed changed_v1.txt): medians of each system's runs and their ratio, then the
geometric mean. usage: summ.py [DIR...] [--changed FILE]"""
import json, math, os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
changed = "changed_final.txt"
if "--changed" in args:
    i = args.index("--changed"); changed = args[i + 1]; del args[i:i + 2]
dirs = args or ["ab_final"]
rs = []
for line in open(os.path.join(here, changed)):
    if not line.strip(): continue
    t, b = line.split()[:2]
    name = b.split("_", 1)[1][:-4]
    runs = []
    for d in dirs:
        f = os.path.join(here, d, "%s_%s.jsonl" % (name, t))
        if os.path.exists(f): runs += [json.loads(l) for l in open(f) if l.strip()]
    tm = {"before": {}, "after": {}}
    for r in runs:
        for shape, s in r["r"].get("times", {}).items(): tm[r["system"]].setdefault(shape, []).append(s)
    for shape in tm["before"]:
        if shape not in tm["after"]: continue
        bm, am = statistics.median(tm["before"][shape]), statistics.median(tm["after"][shape])
        rs.append(am / bm)
        print("%s %-58s %-28s before %9.4f after %9.4f ms  after/before %.3f  (%d+%d runs)" % (
            t, name[:58], shape[:28], bm, am, am / bm, len(tm["before"][shape]), len(tm["after"][shape])))
if rs:
    print("%d rows  geomean after/before %.3f  (>= 10%% faster: %d, >= 10%% slower: %d)" % (
        len(rs), math.exp(sum(map(math.log, rs)) / len(rs)), sum(r <= 0.9 for r in rs), sum(r >= 1.1 for r in rs)))
