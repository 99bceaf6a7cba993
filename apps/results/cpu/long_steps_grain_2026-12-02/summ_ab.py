import json,statistics,collections,sys
for f in sys.argv[1:]:
    t=collections.defaultdict(lambda: collections.defaultdict(list)); st=collections.defaultdict(set)
    for l in open(f):
        d=json.loads(l); s=d['system']; p=d['r'].get('pipeline','?')
        st[(p,s)].add(d['r'].get('status','')[:60])
        for k,v in (d['r'].get('times') or {}).items(): t[(p,k)][s].append(v)
    print(f)
    for k,v in st.items(): print('   status', k, v)
    for k in t:
        m={s:statistics.median(v) for s,v in t[k].items() if all(isinstance(x,(int,float)) for x in v)}
        r = m['after']/m['before'] if 'after' in m and 'before' in m else float('nan')
        print('  ',k, {s:'%.4f'%x for s,x in m.items()}, 'after/before %.3f'%r)
