"""Why is Diet's morph_gradient_sep_radius_u8 19x slower than Adams2019c and only 1.7x faster than the serial reference?
Profile (profile_diet.py): all time is in the four hl.maximum/hl.minimum reduction Funcs, computed at root with
'update loops': split x by 256 (u8, AVX-512), vectorize, reorder(x_vi, r, x_vo, y), fuse(x_vo, y), parallel.
This probe times ONE such reduction (explicit Func: mx = 0; mx = max(mx, e[x+r, y]) over RDom(-R, 2R+1), e = repeat_edge)
at W=800, H=600, R=5 (AVX-512) with: 'diet' (the schedule above, fused), 'nofuse' (same but parallel y, x_vo not fused),
'diet64' (as diet, 64 lanes = one AVX-512 u8 vector instead of 256), 'diet64_noclamp' (diet64 without the repeat_edge clamp along x, output cropped by R: is the clamp the cost?), 'pure' (hl.maximum inlined into a pure Func vectorized by 64 along x, parallel y: what a hand schedule would do).
usage: probe_morph_fuse.py [W H R]"""
import sys, time
import numpy as np, halide as hl
W, H, R = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (800, 600, 5)
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
im = hl.ImageParam(hl.UInt(8), 2, "im")
Wp, Hp, Rp = hl.Param(hl.Int(32), "W"), hl.Param(hl.Int(32), "H"), hl.Param(hl.Int(32), "R")
x, y = hl.Var("x"), hl.Var("y")
xo, xi, par = hl.Var("xo"), hl.Var("xi"), hl.Var("par")
buf = hl.Buffer(hl.UInt(8), [W, H]); np.asarray(buf)[...] = np.random.default_rng(1).integers(0, 256, (W, H), dtype=np.uint8)
im.set(buf); Wp.set(W); Hp.set(H); Rp.set(R)
res = {}
for variant in ("diet", "nofuse", "diet64", "diet64_noclamp", "pure"):
    e = hl.BoundaryConditions.repeat_edge(im, [(0, Wp), (0, Hp)])
    if variant == "diet64_noclamp":  # no boundary condition on x (reads im[x + r] unclamped; valid only inside)
        e = hl.Func("e_nc"); e[x, y] = im[hl.clamp(x, 0, Wp - 1) if False else x, hl.clamp(y, 0, Hp - 1)]
    r = hl.RDom([hl.Range(-Rp, 2 * Rp + 1)], "r")
    f = hl.Func("mx_" + variant)
    if variant == "pure":
        f[x, y] = hl.maximum(e[x + r, y])
        f.split(x, xo, xi, 64, hl.TailStrategy.GuardWithIf).vectorize(xi).parallel(y)
    else:
        f[x, y] = hl.u8(0)
        f[x, y] = hl.max(f[x, y], e[x + r, y])
        f.split(x, xo, xi, 64, hl.TailStrategy.GuardWithIf).vectorize(xi)
        u = f.update(0)
        u.split(x, xo, xi, 64 if variant.startswith("diet64") else 256, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, xo, y)
        if variant == "diet":
            u.fuse(xo, y, par).parallel(par)
        else:
            u.parallel(y)
    t0 = time.perf_counter(); f.compile_jit(T); ct = time.perf_counter() - t0
    out = hl.Buffer(hl.UInt(8), [W, H])
    if variant == "diet64_noclamp":
        out = hl.Buffer(hl.UInt(8), [W - 2 * R, H]); out.set_min([R, 0])
    f.realize(out, T)
    ts = []
    for _ in range(15):
        t0 = time.perf_counter(); f.realize(out, T); ts.append(time.perf_counter() - t0)
    res[variant] = np.asarray(out).copy()
    print("%-7s %.3f ms   (JIT compile %.2f s)" % (variant, np.median(ts) * 1e3, ct), flush=True)
print("same results:", all((res[k] == res["pure"]).all() for k in res if k != "diet64_noclamp"))
