import sys, halide as hl
hl.load_plugin(sys.argv[1])
tgt = hl.Target("x86-64-linux-cuda-cuda_capability_80")
T = hl.Param(hl.Int(32), "T", 512); T.set_range(1, 512)
V = hl.Param(hl.Int(32), "V", 5000); V.set_range(1, 5000)
E = hl.ImageParam(hl.Float(32), 2, "E"); ids = hl.ImageParam(hl.Int(32), 1, "ids"); W = hl.ImageParam(hl.Float(32), 2, "W")
n, t = hl.Var("n"), hl.Var("t")
kind = sys.argv[2]
src = hl.BoundaryConditions.constant_exterior(E, 0.0, [(0, 128), (0, hl.Expr(V))]) if kind == "ce" else E
k = hl.RDom([(0, 128)], "k")
o = hl.Func("out"); o[n, t] = 0.0
o[n, t] += W[n, k.x] * src[k.x, ids[t]]
o.set_estimates([(0, 128), (0, hl.Expr(T))]); W.set_estimates([(0, 128), (0, 128)])
E.set_estimates([(0, 128), (0, hl.Expr(V))]); ids.set_estimates([(0, hl.Expr(T))])
p = hl.Pipeline(o)
p.auto_schedule("Diet", tgt)
p.compile_to_lowered_stmt("/tmp/probe/emb_gpu_%s.stmt" % kind, p.infer_arguments(), hl.StmtOutputFormat.Text, tgt)
print("compiled", kind)
