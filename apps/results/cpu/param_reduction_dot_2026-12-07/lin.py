import halide as hl, sys
hl.load_plugin('/tmp/kstep/libautoschedule_diet.so')
tgt = hl.Target('x86-64-linux-avx-avx2-f16c-fma-sse41' if sys.argv[1]=='B' else 'x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41')
const = sys.argv[2]=='const'
X = hl.ImageParam(hl.Float(32), 2, "x"); W = hl.ImageParam(hl.Float(32), 2, "w")
D = hl.Param(hl.Int(32), "D", 256); D.set_range(1,256)
T = hl.Param(hl.Int(32), "T", 128); T.set_range(1,128)
FO = hl.Param(hl.Int(32), "FO", 256); FO.set_range(1,256)
fo, t = hl.Var("fo"), hl.Var("t")
Dx = 256 if const else D
rd = hl.RDom([(0, Dx)], "rd")
y = hl.Func("y"); y[fo, t] = hl.sum(X[rd, t] * W[rd, fo])
X.dim(0).set_estimate(0, Dx); X.dim(1).set_estimate(0, T); W.dim(0).set_estimate(0, Dx); W.dim(1).set_estimate(0, FO)
y.set_estimate(fo, 0, FO).set_estimate(t, 0, T)
p = hl.Pipeline(y)
p.auto_schedule("Diet", tgt, hl.MachineParams(2, 1<<20, 40))
