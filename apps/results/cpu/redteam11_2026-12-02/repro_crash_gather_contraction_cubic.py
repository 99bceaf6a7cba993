"""Standalone repro for resize_catmull_rom_weight_func_rdom4x4_f32 (AVX2 'B' by default): out[x, y] = hl.sum over
RDom(4, 4) of wx[x, r.x] * wy[y, r.y] * e[ix[x] + r.x - 1, iy[y] + r.y - 1], e = repeat_edge(input), ix/iy Funcs of
floor(source coordinate). Diet takes the sum for a matmul-like contraction, stages the gathered operand as
`repeat_edge.in(sum)` computed per output tile, and Halide rejects it at compile_jit: 'calls function
repeat_edge_in_sum$0 in an unbounded way' (the footprint depends on the values of ix/iy). The unscheduled pipeline
compiles and runs. usage: repro_crash_gather_contraction_cubic.py [A|B] [func_index|inline_index]
('inline_index': ix/iy written inline as Exprs instead of Funcs)."""
import os, sys
import halide as hl
import numpy as np
T = hl.Target({'A': "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
               'B': "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[1] if len(sys.argv) > 1 else 'B'])
variant = sys.argv[2] if len(sys.argv) > 2 else "func_index"
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt11/libautoschedule_diet.so"))
RANGES = {'W': (4, 800), 'H': (4, 600), 'OW': (1, 1200), 'OH': (1, 900)}


def build(dynamic):
    P = {}
    for n, (lo, hi) in RANGES.items():
        P[n] = hl.Param(hl.Int(32), n, hi); P[n].set_range(lo, hi)
    Es = P if dynamic else {n: hi for n, (lo, hi) in RANGES.items()}
    im = hl.ImageParam(hl.Float(32), 2, "im")
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Var("k")
    e = hl.BoundaryConditions.repeat_edge(im, [(0, P['W']), (0, P['H'])])

    def taps(v, n_in, n_out, nm):
        c = (hl.f32(v) + 0.5) * hl.f32(n_in) / hl.f32(n_out) - 0.5
        t = c - hl.floor(c)
        w = hl.Func(nm + "_w")
        w[v, k] = hl.mux(k, [((-0.5 * t + 1.0) * t - 0.5) * t, (1.5 * t - 2.5) * t * t + 1.0, ((-1.5 * t + 2.0) * t + 0.5) * t, (0.5 * t - 0.5) * t * t])
        if variant == "func_index":
            fl = hl.Func(nm + "_i"); fl[v] = hl.i32(hl.floor(c))
            return fl[v], w
        return hl.i32(hl.floor(c)), w
    ix, wx = taps(x, P['W'], P['OW'], "cx")
    iy, wy = taps(y, P['H'], P['OH'], "cy")
    r = hl.RDom([hl.Range(0, 4), hl.Range(0, 4)])
    o = hl.Func("out"); o[x, y] = hl.sum(wx[x, r.x] * wy[y, r.y] * e[ix + r.x - 1, iy + r.y - 1])
    im.dim(0).set_estimate(0, Es['W']); im.dim(1).set_estimate(0, Es['H'])
    o.set_estimate(x, 0, Es['OW']); o.set_estimate(y, 0, Es['OH'])
    return P, im, o


for sched in ("none", "Diet"):
    P, im, o = build(sched == "Diet")
    p = hl.Pipeline(o)
    if sched == "Diet":
        src = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)).schedule_source
        print("\n".join(l for l in src.splitlines() if ".in(" in l or ".compute_at(" in l or "compute_root" in l))
    try:
        p.compile_jit(T)
        b = hl.Buffer(hl.Float(32), [800, 600]); np.asarray(b)[...] = np.random.default_rng(1).random((800, 600), dtype=np.float32); im.set(b)
        for n, v in {'W': 800, 'H': 600, 'OW': 1200, 'OH': 900}.items():
            P[n].set(v)
        out = p.realize([1200, 900], T)
        print(sched, variant, "OK, out[600, 450] =", np.asarray(out)[600, 450])
    except Exception as ex:
        print(sched, variant, "FAILED:", str(ex).strip()[:300])
