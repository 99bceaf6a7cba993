# Does specialize(FAC == c) make an inlined producer's x / FAC a constant division?
import halide as hl, sys
FAC = hl.Param(hl.Int(32), "FAC", 2); FAC.set_range(1, 5)
small = hl.ImageParam(hl.UInt(8), 2, "small"); det = hl.ImageParam(hl.UInt(8), 2, "det")
x, y, xo, xi = hl.Var("x"), hl.Var("y"), hl.Var("xo"), hl.Var("xi")
up = hl.Func("up"); up[x, y] = small[x / FAC, y / FAC]
o = hl.Func("o"); o[x, y] = hl.u8(hl.min(hl.u16(up[x, y]) + hl.u16(det[x, y]), 255))
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
def sched(s):
    s.split(x, xo, xi, 32, hl.TailStrategy.GuardWithIf).vectorize(xi)
if sys.argv[1] == "spec":
    for c in (2, 3, 4):
        sched(o.specialize(FAC == c))
sched(o)
o.compile_to_lowered_stmt("/tmp/probe/div_%s.stmt" % sys.argv[1], [small, det, FAC], hl.StmtOutputFormat.Text, T)
