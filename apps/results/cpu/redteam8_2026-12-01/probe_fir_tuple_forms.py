"""Which FIR spellings get Diet's tap-lane rfactor ("rfactor(r_r_x_lane") on the AVX-512 target: plain f64/f32 sums and a 2-Tuple of independent sums do not; complex-multiply Tuples (cross terms) do. usage: probe_fir_tuple_forms.py (uses /tmp/rt8_diet.so)"""
import halide as hl, sys
hl.load_plugin("/tmp/rt8_diet.so")
tg = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
for typ, kind in ((hl.Float(64), "tuple2"), (hl.Float(32), "complex"), (hl.Float(64), "complex"), (hl.Float(64), "complex_2inputs")):
    N = hl.Param(hl.Int(32), "N", 4000); N.set_range(1, 4000)
    T = hl.Param(hl.Int(32), "T", 33); T.set_range(1, 33)
    x = hl.ImageParam(typ, 1, "x"); h = hl.ImageParam(typ, 1, "h"); x2 = hl.ImageParam(typ, 1, "x2"); h2 = hl.ImageParam(typ, 1, "h2")
    n = hl.Var("n"); r = hl.RDom([hl.Range(0, T)], "r")
    y = hl.Func("y"); z = hl.cast(typ, 0)
    y[n] = (z, z)
    if kind == "tuple2":
        y[n] = (y[n][0] + h[r] * x[n + r], y[n][1] + h[r] * x[n + r + 1])
    elif kind == "complex":
        y[n] = (y[n][0] + h[r] * x[n + r] - h[r + T] * x[n + r + N], y[n][1] + h[r] * x[n + r + N] + h[r + T] * x[n + r])
    else:
        y[n] = (y[n][0] + h[r] * x[n + r] - h2[r] * x2[n + r], y[n][1] + h[r] * x2[n + r] + h2[r] * x[n + r])
    for b in (x, x2): b.dim(0).set_estimate(0, 2 * N + T)
    for b in (h, h2): b.dim(0).set_estimate(0, 2 * T)
    y.set_estimate(n, 0, N)
    s = hl.Pipeline(y).auto_schedule("Diet", tg, hl.MachineParams(2, 1 << 20, 40)).schedule_source
    print(typ, kind, "rfactor over taps:", "rfactor(r_r_x_lane" in s)
