import sys, math, collections
form=None; per=collections.defaultdict(list); allv=[]
for l in open(sys.argv[1]):
    if l.startswith('#'): continue
    if ':' in l: form=l.split(':')[0]; continue
    p=l.split()
    if len(p)==4: per[form].append(float(p[3])); allv.append(float(p[3]))
g=lambda v: math.exp(sum(map(math.log,v))/len(v))
for f,v in per.items(): print(f"{f:28s} geomean {g(v):.3f} min {min(v):.3f} max {max(v):.3f}")
print(f"ALL {len(per)} forms x T: geomean {g(allv):.3f}, points below 0.9: {sum(x<0.9 for x in allv)}/{len(allv)}, above 1.1: {sum(x>1.1 for x in allv)}")
