# usage: diag.py DUMP  (lines: group seconds predicted_throughput) -> mean within-group tau, all pairs and pairs >10% / >3% apart
import sys, collections, itertools
def run(path):
    g = collections.defaultdict(list)
    for l in open(path):
        a, s, p = l.split(); g[int(a)].append((float(s), float(p)))
    out = {}
    for thr in (0.0, 0.03, 0.10, 0.25):
        taus = []
        for k, v in g.items():
            if len(v) < 3: continue
            c = d = 0
            for (s1, p1), (s2, p2) in itertools.combinations(v, 2):
                if max(s1, s2) / min(s1, s2) <= 1 + thr: continue
                # faster time <-> higher predicted throughput
                x = (s1 - s2) * (p2 - p1)
                if x > 0: c += 1
                elif x < 0: d += 1
            if c + d: taus.append((c - d) / (c + d))
        out[thr] = sum(taus) / len(taus)
    return out
for p in sys.argv[1:]:
    o = run(p)
    print(p, '  '.join('pairs>%d%%: %.3f' % (int(t*100), v) for t, v in o.items()))
