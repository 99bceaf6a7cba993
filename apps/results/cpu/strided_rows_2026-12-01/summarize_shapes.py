"""Summarize time_shapes.py lines ('TARGET PLUGIN {json}'): per target and shape, each plugin's median of
the runs' medians and of their minima, and the ratio of the second plugin to the first."""
import json, sys, collections, statistics
med, mn, order = collections.defaultdict(list), collections.defaultdict(list), []
for l in open(sys.argv[1]):
    t, pl, js = l.split(' ', 2)
    if pl not in order: order.append(pl)
    for k, v in json.loads(js)['times'].items():
        med[(t, k, pl)].append(v['median_ms']); mn[(t, k, pl)].append(v['min_ms'])
a, b = order[0], order[1]
print("| target | shape | %s median (min) ms | %s median (min) ms | %s/%s medians | minima |" % (a, b, b, a))
print("|---|---|---:|---:|---:|---:|")
for t, k in sorted(set((x, y) for x, y, _ in med)):
    ma, mb = statistics.median(med[(t, k, a)]), statistics.median(med[(t, k, b)])
    na, nb = statistics.median(mn[(t, k, a)]), statistics.median(mn[(t, k, b)])
    print("| %s | %s | %.3f (%.3f) | %.3f (%.3f) | %.2f | %.2f |" % (t, k, ma, na, mb, nb, mb / ma, nb / na))
