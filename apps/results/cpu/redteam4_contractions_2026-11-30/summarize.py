"""results.jsonl -> a Markdown table: Diet's status and times against the best other scheduler that ran."""
import json, sys
rows = {}
for line in open(sys.argv[1] if len(sys.argv) > 1 else "results.jsonl"):
    r = json.loads(line)
    rows.setdefault(r["r"]["pipeline"], {})[r["system"]] = r["r"]
print("| pipeline | Diet status | Diet small ms | Diet large ms | best other large ms (who) | Diet / best other, large | small |")
print("|---|---|---:|---:|---|---:|---:|")
for p, sy in rows.items():
    d = sy.get("Diet", {})
    ts = list(d.get("times", {}).items())
    def num(v): return v if isinstance(v, float) else None
    small, large = (num(ts[0][1]), num(ts[1][1])) if len(ts) == 2 else (None, None)
    best, who, best_s = None, "-", None
    for name, r in sy.items():
        if name == "Diet": continue
        t = list(r.get("times", {}).values())
        if len(t) == 2 and num(t[1]) is not None and (best is None or t[1] < best): best, who = t[1], name
        if len(t) == 2 and num(t[0]) is not None and (best_s is None or t[0] < best_s): best_s = t[0]
    f = lambda v: "%.3f" % v if v is not None else "-"
    ratio = "%.2f" % (large / best) if large and best else "-"
    rs = "%.2f" % (small / best_s) if small and best_s else "-"
    print("| %s | %s | %s | %s | %s (%s) | %s | %s |" % (p, d.get("status", "missing")[:60], f(small), f(large), f(best), who, ratio, rs))
