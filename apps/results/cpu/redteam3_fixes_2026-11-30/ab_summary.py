"""Summarizes ab_results.jsonl (ab.sh): per pipeline and system, status and the min-max of the
large and small shapes' medians over the rounds (ms)."""
import json, sys, collections
path = sys.argv[1] if len(sys.argv) > 1 else 'ab_results.jsonl'
runs = collections.defaultdict(list)
for line in open(path):
    r = json.loads(line)
    runs[(r['r']['pipeline'], r['system'])].append(r['r'])
print('| pipeline | system | status | small shape ms | large shape ms |')
print('|---|---|---|---:|---:|')
for (p, s), rs in runs.items():
    status = sorted(set(' '.join(x['status'].split())[:60] for x in rs))
    shapes = list(rs[0].get('times', {}).keys())
    cells = []
    for k in shapes:
        v = [x['times'][k] for x in rs if isinstance(x.get('times', {}).get(k), float)]
        cells.append('%.3f-%.3f' % (min(v), max(v)) if v else '-')
    while len(cells) < 2: cells.append('-')
    name = s if s != 'other' else 'other (' + rs[0]['sched'] + ')'
    print('| %s | %s | %s | %s | %s |' % (p, name, '; '.join(status), cells[0], cells[1]))
