"""The final change's timing: for each (target, pipeline, rule) of changed_final.txt, the runs of
ab_all/ (2 rounds, the plugin of the first version, whose schedule equals the final one for these
pairs) and of ab_retime/ (2 more rounds with the final plugin, for the row-task pairs and the one
pair whose schedule changed between them) and of ab_retime2/ (3 more rounds for six interleaved-output
pairs that looked slower) and of ab_retime3/ (5 more rounds for the three slowest of those) merged; per shape the before/after medians and ratio,
then the geometric mean per rule. usage: summ_final.py"""
import json, math, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
retimed = {tuple(l.split()[:2]) for l in open(os.path.join(here, "changed_retime.txt")) if l.strip()}
retimed2 = {tuple(l.split()[:2]) for l in open(os.path.join(here, "changed_retime2.txt")) if l.strip()}
by_rule = {}
for line in open(os.path.join(here, "changed_final.txt")):
    t, b, rule = line.split()
    name = b.split("_", 1)[1][:-4]
    runs = []
    # ab_all/ timed the first version's schedule, the final one except for the pair retimed with a
    # rule other than row tasks (its schedule changed between them): its ab_all runs are left out.
    dirs = [] if (t, b) in retimed and rule != "row_tasks" else ["ab_all"]
    dirs += [d for d in ("ab_retime", "ab_retime2", "ab_retime3") if os.path.exists(os.path.join(here, d, "%s_%s.jsonl" % (name, t)))]
    for d in dirs:
        f = os.path.join(here, d, "%s_%s.jsonl" % (name, t))
        if os.path.exists(f): runs += [json.loads(l) for l in open(f) if l.strip()]
    if not runs:
        print("%s %s no runs" % (t, name)); continue
    tm = {"before": {}, "after": {}}
    for r in runs:
        for shape, s in r["r"].get("times", {}).items(): tm[r["system"]].setdefault(shape, []).append(s)
    for shape in tm["before"]:
        if shape not in tm["after"]: continue
        bm, am = statistics.median(tm["before"][shape]), statistics.median(tm["after"][shape])
        by_rule.setdefault(rule, []).append(am / bm)
        print("%s %-60s %-10s %-26s before %9.4f after %9.4f ms  after/before %.3f  (%d+%d runs)" % (
            t, name[:60], rule, shape[:26], bm, am, am / bm, len(tm["before"][shape]), len(tm["after"][shape])))
for rule, rs in by_rule.items():
    print("rule %-10s %3d rows  geomean after/before %.3f  (>= 10%% faster: %d, >= 10%% slower: %d)" % (
        rule, len(rs), math.exp(sum(map(math.log, rs)) / len(rs)), sum(r <= 0.9 for r in rs), sum(r >= 1.1 for r in rs)))
