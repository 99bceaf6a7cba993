# Column kernels of the committed cost-model datasets that differ in k_unroll alone (same
# dataset, label, pipeline, stage, shape and every other kernel field): time ratios per k_unroll
# step. Run from the repository root: python3 apps/results/cpu/k_unroll_heuristic_2026-11-29/k_unroll_pairs.py
import gzip, json, glob, math
from collections import defaultdict
allr = defaultdict(list)
for f in sorted(glob.glob('models/data/cpu_*.jsonl.gz')):
    groups = defaultdict(dict)
    for line in gzip.open(f, 'rt'):
        j = json.loads(line)
        k = j['kernel']
        if k.get('gpu') or k.get('dot') or not j.get('seconds'):
            continue
        key = (j['label'], j['pipeline'], j['stage'], json.dumps(j['shape'], sort_keys=True),
               tuple((kk, vv) for kk, vv in sorted(k.items()) if kk != 'k_unroll'))
        groups[key][k['k_unroll']] = j['seconds']
    for key, d in groups.items():
        for a, b in [(8, 4), (4, 2), (2, 1)]:
            if a in d and b in d:
                allr[(a, b, 'avx2' if 'avx2' in f else 'avx512')].append(d[a] / d[b])
for (a, b, m), r in sorted(allr.items()):
    g = math.exp(sum(map(math.log, r)) / len(r))
    print('k%d/k%d %s n=%d geomean %.3f  >1.1: %d  <0.9: %d' % (a, b, m, len(r), g, sum(x > 1.1 for x in r), sum(x < 0.9 for x in r)))
