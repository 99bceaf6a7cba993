import halide as hl, sys, time, numpy as np
plugin = sys.argv[1]
hl.load_plugin(plugin)
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
if len(sys.argv) > 2: T = hl.Target(sys.argv[2])
res = []
for a_t, b_t, acc_t in [("u8","u8","u32"), ("u8","u8","i32"), ("u8","i8","i32"), ("i8","i8","i32")]:
  for layout in ["NN", "NT"]:
    ty = {"u8": hl.UInt(8), "i8": hl.Int(8)}
    A = hl.ImageParam(ty[a_t], 2, "A"); B = hl.ImageParam(ty[b_t], 2, "B")
    j, i = hl.Var("j"), hl.Var("i"); r = hl.RDom([hl.Range(0, 256)], "r")
    c = hl.Func("c")
    cast = hl.u32 if acc_t == "u32" else hl.i32
    c[j, i] = cast(0)
    bv = B[j, r.x] if layout == "NN" else B[r.x, j]
    c[j, i] += cast(A[r.x, i]) * cast(bv)
    A.set_estimates([(0, 256), (0, 256)]); B.set_estimates([(0, 256), (0, 256)]); c.set_estimates([(0, 256), (0, 256)])
    p = hl.Pipeline([c])
    p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(T)
    npt = {"u8": np.uint8, "i8": np.int8}
    rng = np.random.default_rng(1)
    a = rng.integers(0, 100, (256, 256)).astype(npt[a_t]); b = rng.integers(0, 100, (256, 256)).astype(npt[b_t])
    A.set(hl.Buffer(a.T)); B.set(hl.Buffer(b.T))
    out = hl.Buffer(hl.UInt(32) if acc_t == "u32" else hl.Int(32), [256, 256])
    ts = []
    for rep in range(30):
      t0 = time.perf_counter(); p.realize(out); ts.append(time.perf_counter() - t0)
    res.append("%s x %s -> %s %s: %.3f ms" % (a_t, b_t, acc_t, layout, 1e3 * sorted(ts)[len(ts)//2]))
for l in res: print(l)
