"""Medians over rounds per pipeline, target, shape and system of ab.sh's jsonl files (ab/); after/before
and after/other ratios. The other system (Adams2019 at a constant shape, round 9's "Adams2019c") is
correct only at that shape, so its run's status is not "ok": its times (taken there) are used anyway."""
import glob, json, statistics, os, sys
# Usage: summ.py [SUBDIR]  (default ab/; ab_broad/ holds the rejected broad version's runs)
sub = sys.argv[1] if len(sys.argv) > 1 else "ab"
for f in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), sub, "*.jsonl"))):
    t = {}
    for line in open(f):
        r = json.loads(line)
        res = r["r"]
        if r["system"] != "other" and res.get("status") != "ok":
            print(os.path.basename(f), r["system"], "status", res.get("status"))
            continue
        for shape, ms in res.get("times", {}).items():
            t.setdefault(shape, {}).setdefault(r["system"], []).append(ms)
    for shape, s in t.items():
        med = {k: statistics.median(v) for k, v in s.items()}
        nan = float("nan")
        print("%-46s %-20s before %7.4f after %7.4f Adams2019 %7.4f  after/before %.3f  after/Adams %.3f  (%s)" % (
            os.path.basename(f)[:-6], shape, med.get("before", nan), med.get("after", nan), med.get("other", nan),
            med.get("after", nan) / med.get("before", nan), med.get("after", nan) / med.get("other", nan),
            "; ".join("%s %s" % (k, "/".join("%.4f" % x for x in v)) for k, v in s.items())))
