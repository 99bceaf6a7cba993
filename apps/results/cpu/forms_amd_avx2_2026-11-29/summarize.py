import csv, math, sys
def load(p):
    rows=list(csv.DictReader(open(p)));return rows
g=lambda v: math.exp(sum(map(math.log,v))/len(v))
def summ(d):
    out={}
    dn=load(d+'/forms_dense.csv')
    for f in dn[0]:
        if f in('T','openblas','onednn'): continue
        v=[min(float(r['openblas']),float(r['onednn']))/float(r[f]) for r in dn]
        c=[float(r['dense/canonical'])/float(r[f]) for r in dn]
        out[f]=(g(v),min(v),g(c),min(c))
    bm=load(d+'/forms_bmm.csv')
    for f in bm[0]:
        if f in('T','openblas','onednn','openblas_nn','onednn_nn'): continue
        nn='bmm_nn' in f
        v=[min(float(r['openblas_nn' if nn else 'openblas']),float(r['onednn_nn' if nn else 'onednn']))/float(r[f]) for r in bm]
        can='bmm_nn/canonical' if nn else 'bmm_nt/canonical'
        c=[float(r[can])/float(r[f]) for r in bm]
        out[f]=(g(v),min(v),g(c),min(c))
    it=load(d+'/forms_int.csv')
    for f in ('int/u8i8','int/i16'):
        v=[float(r['int/f32'])/float(r[f]) for r in it]
        out[f]=(g(v),min(v),float('nan'),float('nan'))
    return out
a=summ(sys.argv[1]); b=summ(sys.argv[2]) if len(sys.argv)>2 else None
print("form | vs vendor geomean (min) | vs canonical geomean (min)" + (" | earlier run vs vendor geomean (min)" if b else ""))
for f,(vg,vm,cg,cm) in a.items():
    s=f"{f:30s} {vg:.3f} ({vm:.3f}) | {cg:.3f} ({cm:.3f})"
    if b and f in b: s+=f" | {b[f][0]:.3f} ({b[f][1]:.3f})"
    print(s)
