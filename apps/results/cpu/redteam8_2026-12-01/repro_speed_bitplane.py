"""Speed repro: bit-plane slicing planes[x,y,b] = (in >> b) & 1 (u8, b < 16) and re-pack pk[x,y] = OR_b planes[x,y,r] << (15-r)
(u16, update over RDom(0,16)). Diet's schedule runs 3x (800x600) to 7x (101x76) slower than the plain unscheduled
pipeline (all Funcs compute_root, no parallelism). Variants: both outputs (as in pipes8.py), only the planes output,
only the packed output (planes then an internal Func).
usage: /usr/bin/python3 repro_speed_bitplane.py /tmp/rt8_diet.so [A|B]"""
import sys, time
import numpy as np
import halide as hl
plugin = sys.argv[1]
tg = {"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
      "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[2] if len(sys.argv) > 2 else "B"]
target = hl.Target(tg)
hl.load_plugin(plugin)
U8, U16 = hl.UInt(8), hl.UInt(16)


def build(diet, which):
    W = hl.Param(hl.Int(32), "W", 800); W.set_range(1, 800)
    H = hl.Param(hl.Int(32), "H", 600); H.set_range(1, 600)
    inp = hl.ImageParam(U16, 2, "inp")
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    pl = hl.Func("pl"); pl[x, y, b] = hl.u8((inp[x, y] >> hl.u16(b)) & 1)
    r = hl.RDom([hl.Range(0, 16)], "r")
    pk = hl.Func("pk"); pk[x, y] = hl.u16(0); pk[x, y] = pk[x, y] | (hl.u16(pl[x, y, r]) << hl.u16(15 - r))
    eW, eH = (W, H) if diet else (800, 600)
    inp.dim(0).set_estimate(0, eW); inp.dim(1).set_estimate(0, eH)
    outs = {"both": [pl, pk], "planes": [pl], "pack": [pk]}[which]
    if pl in outs:
        pl.set_estimate(x, 0, eW).set_estimate(y, 0, eH).set_estimate(b, 0, 16)
    if pk in outs:
        pk.set_estimate(x, 0, eW).set_estimate(y, 0, eH)
    p = hl.Pipeline(outs)
    if diet:
        p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    elif which == "pack":
        pl.compute_root()
    p.compile_jit(target)
    return p, W, H, inp, which


def bench(pp, Wv, Hv):
    p, W, H, inp, which = pp
    rng = np.random.default_rng(0)
    ib = hl.Buffer(U16, [Wv, Hv]); np.asarray(ib)[...] = rng.integers(0, 65536, size=(Wv, Hv))
    inp.set(ib); W.set(Wv); H.set(Hv)
    outs = {"both": [hl.Buffer(U8, [Wv, Hv, 16]), hl.Buffer(U16, [Wv, Hv])], "planes": [hl.Buffer(U8, [Wv, Hv, 16])],
            "pack": [hl.Buffer(U16, [Wv, Hv])]}[which]
    p.realize(outs, target)
    ts = []
    for _ in range(20):
        t0 = time.perf_counter(); p.realize(outs, target); ts.append(time.perf_counter() - t0)
    return np.median(ts) * 1e3, [np.asarray(o).copy() for o in outs]


for which in ("both", "planes", "pack"):
    d, u = build(True, which), build(False, which)
    for Wv, Hv in ((800, 600), (101, 76)):
        for rnd in range(2):
            td, od = bench(d, Wv, Hv); tu, ou = bench(u, Wv, Hv)
            same = all(np.array_equal(a, c) for a, c in zip(od, ou))
            print("%-6s %dx%d round %d: Diet %.4f ms, unscheduled %.4f ms, Diet/unscheduled %.2f, outputs equal: %s"
                  % (which, Wv, Hv, rnd, td, tu, td / tu, same), flush=True)
