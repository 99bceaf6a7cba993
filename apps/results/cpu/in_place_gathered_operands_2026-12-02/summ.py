"""Medians over rounds per pipeline, target, shape and system of ab.sh's jsonl files; after/before ratio."""
import glob, json, statistics, os
for f in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "*.jsonl"))):
    rows = [json.loads(l) for l in open(f)]
    t = {}
    for r in rows:
        res = r["r"]
        if res.get("status") != "ok":
            print(os.path.basename(f), r["system"], "status", res.get("status")); continue
        for shape, ms in res["times"].items():
            t.setdefault(shape, {}).setdefault(r["system"], []).append(ms)
    for shape, s in t.items():
        med = {k: statistics.median(v) for k, v in s.items()}
        ratio = med["after"] / med["before"] if "after" in med and "before" in med else float("nan")
        print("%-58s %-26s before %8.4f after %8.4f other %8.4f  after/before %.3f  after/other %.3f  (rounds: %s)" % (
            os.path.basename(f)[:-6], shape, med.get("before", float("nan")), med.get("after", float("nan")),
            med.get("other", float("nan")), ratio, med.get("after", float("nan")) / med.get("other", float("nan")),
            ", ".join("%s %s" % (k, "/".join("%.3f" % x for x in v)) for k, v in s.items())))
