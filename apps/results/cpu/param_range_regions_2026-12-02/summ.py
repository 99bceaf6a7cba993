"""usage: summ.py AB.jsonl: per (target, pipeline, shape) the median before/after time over the rounds,
after/before (below 1: the change is faster), every harness check's result; then the geomean."""
import json, sys, math, statistics
from collections import defaultdict
t = defaultdict(lambda: defaultdict(list)); bad = []
for line in open(sys.argv[1]):
    d = json.loads(line); r = d['r']
    if r.get('status') != 'ok' or not all(c['ok'] for c in r.get('checks', [])):
        bad.append((d['system'], d['target'], r.get('pipeline'), r.get('status')))
    for shape, v in r.get('times', {}).items():
        t[(d['target'], r['pipeline'], shape)][d['system']].append(v)
ratios = []
for k in sorted(t):
    b, a = t[k].get('before'), t[k].get('after')
    if not b or not a: continue
    mb, ma = statistics.median(b), statistics.median(a)
    ratios.append(ma / mb)
    flag = ' <<' if ma / mb > 1.1 else (' >>' if ma / mb < 0.9 else '')
    print(f"{k[0]} {k[1][:55]:55s} {k[2][:28]:28s} before {mb*1e3:9.3f} us  after {ma*1e3:9.3f} us  {ma/mb:6.3f}{flag}")
print(f"rows {len(ratios)}  geomean after/before {math.exp(sum(map(math.log, ratios))/len(ratios)):.3f}  "
      f"above 1.1: {sum(r > 1.1 for r in ratios)}  below 0.9: {sum(r < 0.9 for r in ratios)}")
print("failed runs or checks:", bad if bad else "none")
