"""Integer outputs differing by 1 (lens_shading_table_bilinear_gain_u16; same for hdr_merge_3_exposures_hat_weights):
not a Diet scheduling bug but Halide's default float semantics. usage: repro_fastmath_lens_shading.py [A|B]
Builds the lens-shading pipeline standalone and compares, at W=1024, H=768, TW=17, TH=13:
  root   : the gain Func compute_root (the harness's reference),
  inline : the gain Func inlined into the output, NO autoscheduler (hand schedule, serial, scalar),
  vec16  : inlined and the output vectorized by 16 (hand schedule, no autoscheduler),
  diet   : Diet's schedule (DIET_PLUGIN, default /tmp/rt10_diet.so),
each on the plain target and with -strict_float. Prints the number of u16 pixels that differ from 'root'."""
import os, sys
import numpy as np, halide as hl
TG = {'A': "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
      'B': "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[1] if len(sys.argv) > 1 else 'A']
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt10_diet.so"))
W, H, TW, TH = 1024, 768, 17, 13
rng = np.random.default_rng(7)
img = np.asfortranarray(rng.integers(0, 4096, size=(W, H)).astype(np.uint16))
gain = np.asfortranarray((1.0 + rng.random((TW, TH))).astype(np.float32))


def build(mode, target):
    im = hl.ImageParam(hl.UInt(16), 2, "img"); g = hl.ImageParam(hl.Float(32), 2, "gain")
    pW, pH, pTW, pTH = [hl.Param(hl.Int(32), n, v) for n, v in (("W", W), ("H", H), ("TW", TW), ("TH", TH))]
    for p, (lo, hi) in zip((pW, pH, pTW, pTH), ((2, 1024), (2, 768), (2, 17), (2, 13))):
        p.set_range(lo, hi)
    x, y = hl.Var("x"), hl.Var("y")
    fx = hl.f32(x) * hl.f32(pTW - 1) / hl.f32(pW - 1); fy = hl.f32(y) * hl.f32(pTH - 1) / hl.f32(pH - 1)
    ix = hl.clamp(hl.i32(fx), 0, pTW - 2); iy = hl.clamp(hl.i32(fy), 0, pTH - 2)
    ax = fx - hl.f32(ix); ay = fy - hl.f32(iy)
    gi = hl.Func("ls_gain")
    gi[x, y] = (1 - ay) * ((1 - ax) * g[ix, iy] + ax * g[ix + 1, iy]) + ay * ((1 - ax) * g[ix, iy + 1] + ax * g[ix + 1, iy + 1])
    o = hl.Func("ls_out"); o[x, y] = hl.u16(hl.clamp(hl.f32(im[x, y]) * gi[x, y] + 0.5, 0.0, 65535.0))
    eW, eH, eTW, eTH = (pW, pH, pTW, pTH) if mode == "diet" else (1024, 768, 17, 13)  # Param estimates only for Diet
    im.dim(0).set_estimate(0, eW); im.dim(1).set_estimate(0, eH); g.dim(0).set_estimate(0, eTW); g.dim(1).set_estimate(0, eTH)
    o.set_estimate(x, 0, eW).set_estimate(y, 0, eH)
    p = hl.Pipeline(o)
    if mode == "root":
        gi.compute_root()
    elif mode == "vec16":  # hand schedule, no autoscheduler: gain inlined, output vectorized by 16 with ShiftInwards
        o.vectorize(x, 16, hl.TailStrategy.ShiftInwards)
    elif mode == "diet":
        p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(target)
    ib = hl.Buffer(hl.UInt(16), [W, H]); np.asarray(ib)[...] = img; im.set(ib)
    gb = hl.Buffer(hl.Float(32), [TW, TH]); np.asarray(gb)[...] = gain; g.set(gb)
    out = hl.Buffer(hl.UInt(16), [W, H]); p.realize(out, target)
    return np.asarray(out).copy()


for suffix in ("", "-strict_float"):
    t = hl.Target(TG + suffix)
    ref = build("root", t)
    for mode in ("inline", "vec16", "diet"):
        d = build(mode, t)
        print("target%s: %-6s vs root: %d/%d pixels differ, max |diff| %d" % (suffix or " (plain)", mode, int((d != ref).sum()), d.size,
              int(np.abs(d.astype(np.int64) - ref).max())), flush=True)
