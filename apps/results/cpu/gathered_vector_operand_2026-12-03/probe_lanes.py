import halide as hl, numpy as np, time, sys
import os; L=int(os.environ.get("L","16")); T = hl.Target(os.environ.get("TGT","x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"))
OW=OH=64; N=2
def build(kind, ST_const=None):
    inp = hl.ImageParam(hl.Float(32), 4, "inp"); w = hl.ImageParam(hl.Float(32), 4, "w")
    ST = hl.Param(hl.Int(32), "ST"); DL = hl.Param(hl.Int(32), "DL")
    x,y,co,n = hl.Var("x"),hl.Var("y"),hl.Var("co"),hl.Var("n")
    r = hl.RDom([(0,3),(0,3),(0,16)], "r")
    st = ST if ST_const is None else ST_const
    s = hl.Func("s"); s[x,y,co,n] = 0.0
    s[x,y,co,n] += w[r.x,r.y,r.z,co]*inp[x*st + r.x*DL, y*st+r.y*DL, r.z, n]
    o = hl.Func("o"); o[x,y,co,n] = s[x,y,co,n]
    xi,coi,t = hl.Var("xi"),hl.Var("coi"),hl.Var("t")
    V, C = kind
    o.compute_root().split(x,x,xi,L*V,hl.TailStrategy.ShiftInwards).split(co,co,coi,C,hl.TailStrategy.ShiftInwards)\
     .reorder(xi,coi,x,y,co,n).fuse(co,n,t).fuse(y,t,t).parallel(t)
    s.compute_at(o,x).reorder_storage(x,co,y,n)
    s.split(x,x,xi,L).vectorize(xi).unroll(x).unroll(co)
    s.update().split(x,x,xi,L).reorder(xi,x,co,r.x,r.y,r.z,y,n).vectorize(xi).unroll(x).unroll(co)
    o.compile_jit(T)
    def f(ib,wb,stv,dlv,out):
        inp.set(ib); w.set(wb); ST.set(stv); DL.set(dlv); o.realize(out)
    return f
import os; ST=int(os.environ.get("ST","3")); DL=int(os.environ.get("DL","3"))
IW=(OW-1)*ST+2*DL+1; IH=(OH-1)*ST+2*DL+1
a = np.asfortranarray(np.random.rand(IW,IH,16,N).astype(np.float32)); wt=np.asfortranarray(np.random.rand(3,3,16,32).astype(np.float32))
ib = hl.Buffer(a); wb = hl.Buffer(wt)
out = hl.Buffer(hl.Float(32), [OW,OH,32,N])
for kind in eval(os.environ.get("KINDS","[(1,8),(1,16),(2,7),(4,4),(1,4),(2,8),(1,12)]")):
    f = build(kind, ST_const=(int(os.environ["STC"]) if "STC" in os.environ else None))
    f(ib,wb,ST,DL,out)
    ts=[]
    for _ in range(7):
        t0=time.perf_counter()
        for _ in range(5): f(ib,wb,ST,DL,out)
        ts.append((time.perf_counter()-t0)/5)
    print(kind, "%.3f ms"%(1e3*min(ts)), flush=True)
