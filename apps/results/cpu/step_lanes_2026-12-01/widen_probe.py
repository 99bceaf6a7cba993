# Reductions over 16 planes of a [W,H,16] input into a [W,H] output: vectors x steps. usage: TARGET [W (default 800)]
import sys, time, numpy as np, halide as hl
target = hl.Target(sys.argv[1])
W, H = int(sys.argv[2]) if len(sys.argv) > 2 else 800, 600
U8, U16, U32, F32 = hl.UInt(8), hl.UInt(16), hl.UInt(32), hl.Float(32)
kinds = {
 "u8->u16 shl|": (U8, U16, lambda o, v, r: o | (hl.u16(v) << hl.u16(15 - r))),
 "u8->u16 add": (U8, U16, lambda o, v, r: o + hl.u16(v)),
 "u16->u16 shl|": (U16, U16, lambda o, v, r: o | (v << hl.u16(15 - r))),
 "u8->u32 add": (U8, U32, lambda o, v, r: o + hl.u32(v)),
 "u8->u8 max": (U8, U8, lambda o, v, r: hl.max(o, v)),
 "f32 add": (F32, F32, lambda o, v, r: o + v),
}
def build(kind, lanes, vecs):
    it, ot, f = kinds[kind]
    inp = hl.ImageParam(it, 3, "inp")
    x, y = hl.Var("x"), hl.Var("y")
    r = hl.RDom([hl.Range(0, 16)], "r")
    o = hl.Func("o"); o[x, y] = hl.cast(ot, 0); o[x, y] = f(o[x, y], inp[x, y, r], r)
    o.vectorize(x, lanes).parallel(y, 8)
    u = o.update(0); xo, xi = hl.Var("xo"), hl.Var("xi")
    u.split(x, xo, xi, lanes * vecs, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(xi, r.x, xo, y).parallel(y, 8)
    p = hl.Pipeline(o); p.compile_jit(target); return p, inp, it, ot
nat = 512 if "avx512" in sys.argv[1] else 256
for kind in kinds:
    it, ot, _ = kinds[kind]
    lanes = nat // ot.bits()
    cfgs = [(lanes, 1), (lanes, 2), (lanes, 4)]
    if lanes > 16: cfgs.append((16, 1))
    built = [build(kind, l, v) for l, v in cfgs]
    data = np.random.randint(0, 2, size=(W, H, 16))
    ib = hl.Buffer(it, [W, H, 16]); np.asarray(ib)[...] = data
    res = {c: [] for c in cfgs}
    for rnd in range(5):
        for c, (p, inp, _, _) in zip(cfgs, built):
            inp.set(ib); out = hl.Buffer(ot, [W, H]); p.realize(out)
            ts = []
            for i in range(11):
                t0 = time.perf_counter(); p.realize(out); ts.append(time.perf_counter() - t0)
            res[c].append(sorted(ts)[5])
    print("%-14s " % kind + "  ".join("%dx%d: %.3f" % (c[0], c[1], 1000 * np.median(res[c])) for c in cfgs), flush=True)
