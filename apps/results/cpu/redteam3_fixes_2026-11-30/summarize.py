import json, collections, re
import pipes
R = collections.defaultdict(dict)
for l in open("results.jsonl"):
    r = json.loads(l); R[r['pipeline']][r['sched']] = r   # later lines win

def short(r):
    if r is None: return "-"
    s = r['status']
    if s == "ok": return "ok"
    if s.startswith("wrong/err"):
        bad = [c for c in r['checks'] if not c['ok']]
        shapes = ",".join("/".join(str(x) for x in c['v'].values()) for c in bad)
        kinds = set()
        for c in bad:
            m = c['msg']
            if "accessed at" in m: kinds.add("OOB-assert (shape < tile)" if "before the min" in m else "OOB-assert beyond max")
            elif "must be at most" in m: kinds.add("Param range assert")
            elif m.startswith("exception"): kinds.add(m[11:70])
            else: kinds.add("WRONG " + m[:60])
        return "fails at %s: %s" % (shapes, "; ".join(sorted(kinds)))
    return s[:90].replace("\n", " ").replace("|", "/")

def t(r, k):
    if r is None: return None
    v = r.get('times', {}).get(k)
    return v if isinstance(v, float) else None

rows = []
hdr = "| pipeline | style | Diet | Adams2019 (est=max) | Mullapudi2016 (est=max) | small shape | Diet ms | best other ms (who) | ratio | large shape | Diet ms | best other ms (who) | ratio |"
print(hdr); print("|" + "---|" * 13)
ratios = []
for name, sp in pipes.SPECS.items():
    d = R[name].get("Diet")
    if d is None: continue
    keys = list(d.get('times', {}).keys())
    if not keys:
        import run_one
        keys = [",".join("%s=%d" % kv for kv in v.items()) for v in run_one.default_times(sp)]
    cells = []
    for i, k in enumerate(keys[:2]):
        dt = t(d, k)
        best = None
        for s in ["Adams2019", "Mullapudi2016", "Adams2019@small", "Mullapudi2016@small"]:
            ot = t(R[name].get(s), k)
            if ot is not None and (best is None or ot < best[0]): best = (ot, s)
        ratio = dt / best[0] if dt and best else None
        if ratio: ratios.append((ratio, name, k))
        cells += [k, "%.4f" % dt if dt else "-", "%.4f (%s)" % best if best else "-", "%.2f" % ratio if ratio else "-"]
    if len(keys) == 1: cells += ["", "", "", ""]
    print("| %s | %s | %s | %s | %s | %s |" % (name, sp['style'].replace("|", "/"), short(d), short(R[name].get("Adams2019")),
                                            short(R[name].get("Mullapudi2016")), " | ".join(cells)))
print()
print("Slowest Diet/best ratios:")
for r in sorted(ratios, reverse=True)[:10]:
    print("- %.2f  %s at %s" % r)
