"""Does Halide 14 let an update of a Func be computed with its own pure stage (compute_with between two
stages of one Func)? The question behind issue 13's update-on-the-output forms: fused, the zero pass would
run per tile. Prints the error Halide gives."""
import halide as hl, numpy as np
f = hl.Func("f"); x, y = hl.Var("x"), hl.Var("y"); r = hl.RDom([hl.Range(0, 10)])
inp = hl.ImageParam(hl.Float(32), 2, "inp")
f[x, y] = 0.0
f[x, y] += inp[r, y] * inp[r, x]
yo, yi = hl.Var("yo"), hl.Var("yi")
f.split(y, yo, yi, 4, hl.TailStrategy.GuardWithIf)
f.update(0).split(y, yo, yi, 4, hl.TailStrategy.GuardWithIf)
try:
    f.update(0).compute_with(hl.LoopLevel(f, yo))
    p = hl.Pipeline(f); p.compile_jit(hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41"))
    print("compiled")
except Exception as e:
    print("ERR", str(e)[:300])
