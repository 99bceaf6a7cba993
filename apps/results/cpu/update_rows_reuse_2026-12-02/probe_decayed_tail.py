"""Diet's update tile for round 7's decayed accumulation on AVX-512 (split(n, 64, GuardWithIf) vectorized
as one 64-lane vector, 8 rows unrolled inside the step, parallel over row tiles), at N = 160 (a 32-point
tail per row) against N = 192 (none) and N = 128, M = 160, K = 128; the same with 16-lane vectors
unrolled 4 times. Whether the guarded tail of a multi-vector step is what costs.  Usage: probe_decayed_tail.py [widths]
(widths: steps of 64, 32 and 16 points at N = 160, 161, 176, 192 -> probe_decayed_tail_widths.out)"""
import time, numpy as np, halide as hl
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
M, K = 160, 128
rng = np.random.default_rng(7)
a = np.asfortranarray(rng.standard_normal((K, M)).astype(np.float32))
def build(N, how, width=64, rows=8):
    b = np.asfortranarray(rng.standard_normal((N, K)).astype(np.float32))
    A = hl.ImageParam(hl.Float(32), 2, "A"); B = hl.ImageParam(hl.Float(32), 2, "B")
    n, m, no, mo, ni, mi, nii = [hl.Var(s) for s in ("n", "m", "no", "mo", "ni", "mi", "nii")]
    r = hl.RDom([hl.Range(0, K)], "r")
    C = hl.Func("da_C"); C[n, m] = 0.0; C[n, m] = hl.f32(0.75) * C[n, m] + A[r.x, m] * B[n, r.x]
    C.vectorize(n, 16).parallel(m)
    u = C.update(0).split(n, no, ni, width, hl.TailStrategy.GuardWithIf).split(m, mo, mi, rows, hl.TailStrategy.GuardWithIf)
    if how == "vec64":
        u.reorder(ni, mi, r.x, no, mo).vectorize(ni).unroll(mi).parallel(mo)
    else:  # vec16x4: the step's four vectors unrolled
        u.split(ni, ni, nii, 16).reorder(nii, ni, mi, r.x, no, mo).vectorize(nii).unroll(ni).unroll(mi).parallel(mo)
    p = hl.Pipeline(C); p.compile_jit(T)
    A.set(hl.Buffer(a)); B.set(hl.Buffer(b))
    return p, hl.Buffer(hl.Float(32), [N, M])
import sys
vs = {}
if len(sys.argv) > 1 and sys.argv[1] == "widths":  # step widths 64 / 32 / 16 (one vector), 8 rows, at row lengths with and without tails
    for N in (160, 161, 176, 192):
        for width in (64, 32, 16):
            vs["N=%d w%d" % (N, width)] = build(N, "vec64", width)
else:
    for N in (128, 160, 192):
        for how in ("vec64", "vec16x4"):
            try:
                vs["N=%d %s" % (N, how)] = build(N, how)
            except Exception as e:
                print("N=%d %s build failed: %s" % (N, how, str(e)[:200]))
res = {}
for k, (p, o) in list(vs.items()):
    try:
        p.realize(o, T)
        res[k] = []
    except Exception as e:
        print(k, "failed:", str(e)[:200]); del vs[k]
for rnd in range(3):
    for k, (p, o) in vs.items():
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
        res[k].append(np.median(ts) * 1e3)
for k, v in res.items(): print("%-16s median %.4f ms rounds %s" % (k, np.median(v), ["%.4f" % x for x in v]))
