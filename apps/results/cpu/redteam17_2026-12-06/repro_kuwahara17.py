"""Standalone repro for round 17's worst row (Kuwahara, Diet 50x slower than Adams2019c): Diet vectorizes the Tuple
statistics Func st[q, x, y] along q, its storage-innermost dimension, whose extent is only 4 (the quadrant index).

Builds the same u8 Kuwahara filter twice, differing ONLY in the order of st's pure dimensions:
  qxy: st[q, x, y] (as in pipes17.py)        xyq: st[x, y, q] (quadrant outermost)
schedules each with Diet (Params W, H, R ranged), checks it against an unscheduled compute_root reference, and times it
(median of 10 realizes) at W=1024, H=768 for R = 2 and R = 6.
usage: DIET_PLUGIN=/tmp/rt17/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_kuwahara17.py"""
import os, time
import numpy as np
import halide as hl

TGT = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt17/libautoschedule_diet.so"))


def build(order, sched):
    W = hl.Param(hl.Int(32), "W", 1024); W.set_range(1, 1024)
    H = hl.Param(hl.Int(32), "H", 768); H.set_range(1, 768)
    R = hl.Param(hl.Int(32), "R", 6); R.set_range(1, 6)
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    q, x, y = hl.Var("q"), hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.mirror_image(im, [(0, W), (0, H)])
    ei = hl.Func("kw_e"); ei[x, y] = hl.i32(e[x, y])
    r = hl.RDom([hl.Range(0, R + 1), hl.Range(0, R + 1)], "rq")
    ox = (q % 2) * R - R; oy = (q / 2) * R - R
    st = hl.Func("kw_stats")
    idx = (lambda qq, xx, yy: (qq, xx, yy)) if order == "qxy" else (lambda qq, xx, yy: (xx, yy, qq))
    st[idx(q, x, y)] = (hl.i32(0), hl.i32(0))
    v = ei[x + ox + r.x, y + oy + r.y]
    st[idx(q, x, y)] = (st[idx(q, x, y)][0] + v, st[idx(q, x, y)][1] + v * v)
    n = (R + 1) * (R + 1)
    S = lambda qq: st[idx(qq, x, y)]
    best = hl.Func("kw_best"); best[x, y] = (n * S(0)[1] - S(0)[0] * S(0)[0], S(0)[0])
    rb = hl.RDom([hl.Range(1, 3)], "rb")
    s, s2 = S(rb.x)[0], S(rb.x)[1]
    var = n * s2 - s * s
    better = var < best[x, y][0]
    best[x, y] = (hl.select(better, var, best[x, y][0]), hl.select(better, s, best[x, y][1]))
    out = hl.Func("kw_out"); out[x, y] = hl.u8((best[x, y][1] + n / 2) / n)
    im.dim(0).set_estimate(0, 1024); im.dim(1).set_estimate(0, 768)
    out.set_estimate(x, 0, 1024).set_estimate(y, 0, 768)
    p = hl.Pipeline(out)
    if sched == "ref":
        for f in (ei, st, best):
            f.compute_root()
    else:
        p.auto_schedule("Diet", TGT, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(TGT)
    return p, W, H, R, im


rng = np.random.default_rng(7)
a = rng.integers(0, 256, (1024, 768)).astype(np.uint8)
buf = hl.Buffer(hl.UInt(8), [1024, 768]); np.asarray(buf)[...] = a
for order in ("qxy", "xyq"):
    built = {s: build(order, s) for s in ("ref", "Diet")}
    for Rv in (2, 6):
        res = {}
        for s, (p, W, H, R, im) in built.items():
            W.set(1024); H.set(768); R.set(Rv); im.set(buf)
            o = hl.Buffer(hl.UInt(8), [1024, 768]); p.realize(o, TGT)
            ts = []
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(o, TGT); ts.append(time.perf_counter() - t0)
            res[s] = (np.asarray(o).copy(), 1e3 * float(np.median(ts)))
        print("st order %s  R=%d: Diet %.2f ms, ref %.2f ms, Diet == ref: %s" % (order, Rv, res["Diet"][1], res["ref"][1],
              np.array_equal(res["Diet"][0], res["ref"][0])), flush=True)
