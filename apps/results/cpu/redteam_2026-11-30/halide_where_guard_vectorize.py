"""No autoscheduler: the same out-of-bounds with a hand schedule (Halide 14): an update whose RDom.where()
reads the input, its pure var split with GuardWithIf and vectorized."""
import numpy as np, halide as hl
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
inp = hl.ImageParam(hl.Float(32), 2, "inp")
t, to, ti = hl.Var("t"), hl.Var("to"), hl.Var("ti")
r = hl.RDom([hl.Range(0, inp.width())], "r")
r.where(inp[r, t] > 0.0)
a = hl.Func("possum")
a[t] = 0.0
a[t] += inp[r, t]
a.update(0).split(t, to, ti, 8, hl.TailStrategy.GuardWithIf).vectorize(ti)
a.compile_jit(target)
for n, tt in [(3, 9), (3, 16)]:
    b = hl.Buffer(hl.Float(32), [n, tt]); np.asarray(b)[...] = 1.0
    inp.set(b)
    try:
        a.realize([tt], target); print(n, tt, "ok")
    except RuntimeError as e:
        print(n, tt, "FAILED:", str(e).strip())
