"""Diet refuses a shape family whose output extent is 0 at the range's low end (T-1 with T in [1, 128]):
'Error: Diet: the estimated extent of diff.x is 0 at T=1 (estimate (T - 1)); extents must lie in [1, 2^31).'
The pipeline itself is fine for T=1 (an empty output); workaround: set_range(2, 128)."""
import halide as hl
hl.load_plugin("/work/main/build/libautoschedule_diet.so")
target = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
inp = hl.ImageParam(hl.Float(32), 2, "inp")
T = hl.Param(hl.Int(32), "T", 16); T.set_range(1, 128)
x, y = hl.Var("x"), hl.Var("y")
out = hl.Func("diff")
out[x, y] = inp[x + 1, y] - inp[x, y]
inp.dim(0).set_estimate(0, T); inp.dim(1).set_estimate(0, 40)
out.set_estimate(x, 0, T - 1); out.set_estimate(y, 0, 40)
try:
    hl.Pipeline(out).auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    print("PASS (scheduled)")
except RuntimeError as e:
    print("FAIL:", str(e).strip())
