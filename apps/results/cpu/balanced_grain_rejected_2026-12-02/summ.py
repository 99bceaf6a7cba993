import csv,glob,statistics,sys
d=sys.argv[1] if len(sys.argv)>1 else '/tmp/ab1'
def load(side):
    runs=[]
    for f in sorted(glob.glob(f'{d}/{side}_*/forms_bmm.csv')):
        runs.append(list(csv.DictReader(open(f))))
    return runs
old,new=load('old'),load('new')
cols=[c for c in old[0][0].keys() if c!='T' and not c.startswith(('openblas','onednn'))]
print('form', *[r['T'] for r in old[0]], 'geomean', sep='\t')
import math
for c in cols:
    ratios=[]
    for i,row in enumerate(old[0]):
        o=statistics.median(float(r[i][c]) for r in old); n=statistics.median(float(r[i][c]) for r in new)
        ratios.append(o/n)
    g=math.exp(sum(map(math.log,ratios))/len(ratios))
    print(c[:24], *['%.2f'%x for x in ratios], '%.3f'%g, sep='\t')
