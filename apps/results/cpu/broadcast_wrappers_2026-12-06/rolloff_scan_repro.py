import sys, numpy as np, halide as hl
plugin = sys.argv[1]; tgt = hl.Target(sys.argv[2] if len(sys.argv) > 2 else "x86-64-linux-avx-avx2-f16c-fma-sse41")
hl.load_plugin(plugin)
def build():
    NF = hl.Param(hl.Int(32), "NF", 64); NF.set_range(1, 64)
    mag = hl.ImageParam(hl.Float(32), 2, "mag")
    k, f = hl.Var("k"), hl.Var("f")
    cs = hl.Func("cs"); cs[k, f] = mag[k, f]
    rs = hl.RDom([hl.Range(1, 128)], "rs")
    cs[rs.x, f] += cs[rs.x - 1, f]
    rb = hl.RDom([hl.Range(0, 129)], "rb")
    ro = hl.Func("ro"); ro[f] = hl.sum(hl.select(cs[rb.x, f] < 0.85 * cs[128, f], 1, 0))
    mag.dim(0).set_estimate(0, 129); mag.dim(1).set_estimate(0, 64); ro.set_estimate(f, 0, 64)
    return NF, mag, ro
NF, mag, ro = build()
p = hl.Pipeline(ro)
r = p.auto_schedule("Diet", tgt, hl.MachineParams(2, 1 << 20, 40))
print(r.schedule_source[:0])
NF2, mag2, ro2 = build()
nf = int(sys.argv[3]) if len(sys.argv) > 3 else 64
a = np.abs(np.random.default_rng(1).standard_normal((nf, 129))).astype(np.float32)
b = hl.Buffer(a.copy()) if False else hl.Buffer(hl.Float(32), [129, nf])
np.asarray(b)[...] = a.T
mag.set(b); mag2.set(b)
o1 = p.realize([nf], tgt); o2 = hl.Pipeline(ro2).realize([nf], tgt)
d = np.asarray(o1).astype(int) - np.asarray(o2).astype(int)
print("max abs diff", np.abs(d).max(), "diet", np.asarray(o1)[:5], "ref", np.asarray(o2)[:5])
