"""results.jsonl (+ grid.txt, ab_results.jsonl) -> table.md"""
import json, re, collections, statistics
import pipes6
R = collections.defaultdict(dict)
for l in open("results.jsonl"):
    d = json.loads(l)
    R[d['pipeline']][d['sched']] = d  # last one wins
grid = {}
for l in open("grid.txt"):
    m = re.match(r"(\S+) rc=(\d+) GRID \S+ \S+: (\d+) shapes, (\d+) bad", l)
    if m:
        grid[m.group(1)] = "%s shapes, %s bad" % (m.group(3), m.group(4))
    else:
        grid[l.split()[0]] = l.strip()
ab = collections.defaultdict(lambda: collections.defaultdict(list))
try:
    for l in open("ab_results.jsonl"):
        d = json.loads(l)
        for k, v in d.get('times', {}).items():
            if isinstance(v, float):
                ab[d['pipeline']][(d['sched'], k)].append(v)
except FileNotFoundError:
    pass


def diet_status(d):
    if d is None:
        return "not run"
    if d['status'].startswith("error") or d['status'].startswith("crash"):
        return d['status'][:120]
    bad = [c for c in d['checks'] if not c['ok']]
    real = [c for c in bad if "must be at most" not in c['msg']]
    if real:
        return "WRONG at " + ", ".join(str(c['v']) for c in real)
    return "ok"


def tm(d, small):
    if d is None:
        return None
    ts = [(k, v) for k, v in d.get('times', {}).items() if isinstance(v, float)]
    keys = list(d.get('times', {}))
    if not keys:
        return None
    k = keys[0] if small and len(keys) > 1 or (len(keys) == 1 and small and d['sched'].endswith('@small')) else keys[-1]
    if d['sched'].endswith('@small') != small and len(keys) == 1:
        return None
    v = d['times'].get(k)
    return v if isinstance(v, float) else None


rows = []
for name, sp in pipes6.SPECS.items():
    r = R.get(name, {})
    d = r.get('Diet')
    ds, dl = tm(d, True), tm(d, False)
    best = {}
    for small in (True, False):
        cands = []
        for s in ("Adams2019", "Adams2019c", "Mullapudi2016") if not small else ("Adams2019@small", "Adams2019c@small", "Mullapudi2016@small"):
            t = tm(r.get(s), small)
            if t is not None:
                cands.append((t, s))
        best[small] = min(cands) if cands else None
    def fmt(x):
        return "-" if x is None else ("%.3g" % x)
    bl = best[False]
    ratio = (dl / bl[0]) if (dl and bl) else None
    abm = ""
    if name in ab:
        parts = []
        for (s, k), vs in sorted(ab[name].items()):
            if k.count("=") and vs:
                parts.append("%s %s: %.3g [%.3g-%.3g]" % (s, k, statistics.median(vs), min(vs), max(vs)))
        abm = "; ".join(parts)
    rows.append((name, diet_status(d), fmt(ds), fmt(dl), ("%s %s" % (bl[1], fmt(bl[0]))) if bl else "-",
                 ("%s %s" % (best[True][1], fmt(best[True][0]))) if best[True] else "-",
                 ("%.2f" % ratio) if ratio else "-", grid.get(name, "-"), abm))
with open("table.md", "w") as f:
    f.write("| pipeline | Diet status (harness) | Diet small ms | Diet large ms | best other large (ms) | best other small (ms) | Diet/best large | Diet grid | 3-round A/B medians [range] |\n|---|---|---|---|---|---|---|---|---|\n")
    for row in rows:
        f.write("| " + " | ".join(row) + " |\n")
print(open("table.md").read())
