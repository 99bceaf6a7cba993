"""JIT cost of one 2-D vectorized transpose copy t[x,y] = in[y,x] (split 16x16 or 8x8, both inner dims vectorized) on the AVX-512 and AVX2 targets: the staging copy Diet emits for k-innermost operands, once per enclosing specialization."""
import halide as hl, time, sys
A="x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"; B="x86-64-linux-avx-avx2-f16c-fma-sse41"
for tg, v in ((A,16),(A,8),(B,8),(B,16)):
    inp = hl.ImageParam(hl.Float(32), 2, "inp"); x, y = hl.Var("x"), hl.Var("y")
    xi, xo, yi, yo = hl.Var("xi"), hl.Var("xo"), hl.Var("yi"), hl.Var("yo")
    t = hl.Func("t"); t[x, y] = inp[y, x]
    o = hl.Func("o"); o[x, y] = t[x, y] * 2.0
    t.compute_root().split(x, xo, xi, v, hl.TailStrategy.GuardWithIf).split(y, yo, yi, v, hl.TailStrategy.GuardWithIf).reorder(xi, yi, xo, yo).vectorize(xi).vectorize(yi)
    t0 = time.time(); o.compile_jit(hl.Target(tg)); print(tg[-40:], v, "%.2f s" % (time.time() - t0), flush=True)
