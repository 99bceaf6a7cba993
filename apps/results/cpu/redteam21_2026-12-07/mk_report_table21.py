"""REPORT table: per pipeline and timing shape, target, grid result, harness result, per-scheduler medians of pass 1
(census: the Diet+ref-only rerun), and Diet / best other paired per round in pass 1, pass 2 and the 1-thread pass."""
import json, collections, statistics as st, re, sys
sys.path.insert(0, '.')
import pipes21
names = list(pipes21.SPECS)
def gridf(*files):
    g = {}
    for f in files:
        for l in open(f):
            m = re.search(r"GRID (\S+) Diet: (\d+) shapes, (\d+) bad", l)
            if m: g[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return g
grid = gridf("grid.txt", "grid_sobel_th254.txt")  # round 21: the Sobel rerun (TH 0..254) replaces its first grid
g40 = gridf("grid40.txt"); gx = gridf("grid_xtarget.txt")
harn = {}
for l in open("results.jsonl"):
    d = json.loads(l); c = d.get('checks', [])
    inr = [x for x in c[:4]]; oor = c[4] if len(c) > 4 else None
    msg = str(oor.get('msg', '')) if oor else ''
    lab = "" if oor is None else ("; 5th (out of range): both raise" if msg.startswith("both raise") else ("; 5th (out of range): both ran, agree" if oor['ok'] else "; 5th (out of range): " + msg[:40]))
    harn[d['pipeline']] = "%d/4 ok%s" % (sum(x['ok'] for x in inr), lab)
def load(f):
    R = collections.defaultdict(lambda: collections.defaultdict(dict)); K = {}
    try:
        for l in open(f):
            d = json.loads(l)
            if 'ms' in d:
                R[(d['pipeline'], d['shape'])][d['sched'].replace('@small', '')][d['round']] = d['ms']; K[(d['pipeline'], d['shape'])] = d['key']
    except FileNotFoundError:
        pass
    return R, K
P1, K1 = load("ab_results.jsonl"); C, KC = load("ab_none.jsonl"); P1.update(C); K1.update(KC)
P2, _ = load("ab_pass2.jsonl"); P3, _ = load("ab_1thread.jsonl")
def ratio(S):
    rs = [dm / min(S[o][r] for o in S if o != 'Diet' and r in S[o]) for r, dm in S.get('Diet', {}).items() if any(r in S[o] for o in S if o != 'Diet')]
    return st.median(rs) if rs else None
def best(S):
    med = {s: st.median(v.values()) for s, v in S.items() if s != 'Diet'}
    return min(med, key=med.get) if med else "-"
out = ["| # | pipeline (tgt) | grid 18 / 40 / other target: shapes (bad) | harness | shape | Diet ms | Mull ms | Adams ms | ref ms | Diet / best: pass 1 / pass 2 / 1 thread (best) |", "|---" * 10 + "|"]
for k, n in enumerate(names, 1):
    for sh in ("small", "large"):
        S = P1.get((n, sh))
        if not S: continue
        med = {s: "%.3g" % st.median(v.values()) for s, v in S.items()}
        g = lambda x: "-" if x is None else ("**%.2f**" % x if x >= 1.3 else "%.2f" % x)
        r2 = ratio(P2[(n, sh)]) if (n, sh) in P2 else None; r3 = ratio(P3[(n, sh)]) if (n, sh) in P3 else None
        gs = grid.get(n, ("?", "?")); gs = ("%s (%s) / %s (%s) / %s (%s)" % (gs + g40.get(n, ("?", "?")) + gx.get(n, ("?", "?"))), "")
        out.append("| %d | `%s` (%s) | %s%s | %s | %s %s | %s | %s | %s | %s | %s / %s / %s (%s) |" % (k, n[:60] + "…", pipes21.SPECS[n]['target'], gs[0], gs[1],
                   harn.get(n, "?") if sh == "small" else "", sh, K1[(n, sh)], med.get("Diet", "-"), med.get("Mullapudi2016", "err/-"),
                   med.get("Adams2019c", "err/-"), med.get("ref", "-"), g(ratio(S)), g(r2), g(r3), best(S)))
open("report_table.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
