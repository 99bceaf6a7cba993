# Scan along x of [x, y] (f(r, y) = op(f(r - 1, y), in(r, y))): scalar rows vs vectors across rows
# (gathered) vs rows interleaved (K rows unrolled inside the scan's steps). One pipeline per run.
import sys, time
import numpy as np
import halide as hl
kind, mode, W, H = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
T = hl.Target(sys.argv[5] if len(sys.argv) > 5 else "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
ty = {"f32add": hl.Float(32), "f32iir": hl.Float(32), "i32add": hl.Int(32), "u8max": hl.UInt(8)}[kind]
inp = hl.ImageParam(ty, 2, "inp")
x, y, yo, yi, xo, xi = [hl.Var(n) for n in ("x", "y", "yo", "yi", "xo", "xi")]
r = hl.RDom([hl.Range(1, inp.width() - 1)], "r")
f = hl.Func("f")
f[x, y] = inp[x, y]
if kind == "f32add" or kind == "i32add":
    f[r.x, y] = f[r.x, y] + f[r.x - 1, y]
elif kind == "f32iir":
    f[r.x, y] = hl.f32(0.7) * f[r.x - 1, y] + hl.f32(0.3) * f[r.x, y]
else:
    f[r.x, y] = hl.max(f[r.x, y], f[r.x - 1, y])
lanes = 64 // ty.bytes() if "avx512" in str(T) else 32 // ty.bytes()
f.split(x, xo, xi, lanes, hl.TailStrategy.GuardWithIf).vectorize(xi).parallel(y)
u = f.update(0)
if mode == "scalar":
    u.split(y, yo, yi, 8, hl.TailStrategy.GuardWithIf).reorder(r.x, yi, yo).parallel(yo)
elif mode.startswith("gather"):
    k = int(mode[6:])
    u.split(y, yo, yi, k, hl.TailStrategy.GuardWithIf).vectorize(yi).reorder(yi, r.x, yo).parallel(yo)
elif mode.startswith("inter"):
    k = int(mode[5:])
    u.split(y, yo, yi, k, hl.TailStrategy.GuardWithIf).unroll(yi).reorder(yi, r.x, yo).parallel(yo)
f.compile_jit(T)
rng = np.random.default_rng(1)
a = (rng.random((W, H)) * (10 if ty.is_float() else 3)).astype({"f32add": np.float32, "f32iir": np.float32, "i32add": np.int32, "u8max": np.uint8}[kind])
a = np.asfortranarray(a)
b = hl.Buffer(ty, [W, H]); np.asarray(b)[...] = a
inp.set(b)
out = f.realize([W, H], T)
ref = None
ts = []
for _ in range(30):
    t0 = time.perf_counter(); f.realize(out, T); ts.append(time.perf_counter() - t0)
o = np.asarray(out)
if kind == "u8max":
    ok = np.array_equal(o, np.maximum.accumulate(a, axis=0))
elif kind == "i32add":
    ok = np.array_equal(o, np.cumsum(a, axis=0, dtype=np.int32))
elif kind == "f32add":
    ok = np.allclose(o, np.cumsum(a.astype(np.float64), axis=0), rtol=1e-3)
else:
    ok = True
print("%s %s %dx%d median %.3f ms min %.3f ok=%s" % (kind, mode, W, H, np.median(ts) * 1e3, np.min(ts) * 1e3, ok))
