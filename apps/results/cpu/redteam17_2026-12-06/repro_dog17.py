"""Standalone repro for round 17's DoG row (Diet 8-10x slower than Adams2019c): the y pass of a per-scale separable blur,
written as an inline hl.sum, becomes an anonymous Func whose pure dimensions Halide orders as (s, x, y) -- the scale s
(extent 4) first. Diet classifies it as "matmul-like, but no operand is reused ... default stage rules" and vectorizes it
along s (8 lanes, GuardWithIf, for 4 scales).

Builds g[x, y, s] (4 scales, 13 taps, weights w[i, s] depending on the pure s and a sigma Param) two ways, identical
math:  inline: gx and g via inline hl.sum;  explicit: gx and g as Funcs with an explicit update over RDom (args x, y, s).
Output: the spec's consumer (DoG levels + strict 26-neighbour extremum mask, u8), or with the argument 'blur' g itself.
Each scheduled with Diet, checked against an unscheduled compute_root reference, timed (median of 10) at 640x480.
usage: DIET_PLUGIN=/tmp/rt17/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_dog17.py [blur]
(repro_dog17_blur_only.out: the 'blur' output, where Diet is fast in both styles: the problem needs the mask consumer)"""
import os, time
import numpy as np
import halide as hl

TGT = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt17/libautoschedule_diet.so"))


def build(style, sched):
    W = hl.Param(hl.Int(32), "W", 640); W.set_range(1, 640)
    H = hl.Param(hl.Int(32), "H", 480); H.set_range(1, 480)
    S0 = hl.Param(hl.Int(32), "S0", 12); S0.set_range(8, 20)
    im = hl.ImageParam(hl.Float(32), 2, "im")
    x, y, s, i = hl.Var("x"), hl.Var("y"), hl.Var("s"), hl.Var("i")
    e = hl.BoundaryConditions.mirror_image(im, [(0, W), (0, H)])
    sig = hl.f32(S0) * 0.1 * hl.pow(2.0, hl.f32(s) / 3.0)
    w = hl.Func("w"); w[i, s] = hl.exp(-hl.f32(i * i) / (2.0 * sig * sig))
    rn = hl.RDom([hl.Range(-6, 13)], "rn")
    wn = hl.Func("wn"); wn[i, s] = w[i, s] / hl.sum(w[rn, s])
    rt = hl.RDom([hl.Range(-6, 13)], "rt"); rt2 = hl.RDom([hl.Range(-6, 13)], "rt2")
    gx = hl.Func("gx"); g = hl.Func("g")
    if style == "inline":
        gx[x, y, s] = hl.sum(wn[rt, s] * e[x + rt, y])
        g[x, y, s] = hl.sum(wn[rt2, s] * gx[x, y + rt2, s])
    else:
        gx[x, y, s] = hl.f32(0); gx[x, y, s] += wn[rt, s] * e[x + rt, y]
        g[x, y, s] = hl.f32(0); g[x, y, s] += wn[rt2, s] * gx[x, y + rt2, s]
    if not MASK:
        out = hl.Func("out"); out[x, y, s] = g[x, y, s]
        out.set_estimate(x, 0, 640).set_estimate(y, 0, 480).set_estimate(s, 0, 4)
        extra = []
    else:  # the consumer of pipes17's spec: DoG levels and the strict 26-neighbour extremum mask
        d = hl.Func("dog"); d[x, y, s] = g[x, y, s + 1] - g[x, y, s]
        v = d[x, y, 1]; nb = [d[hl.clamp(x + dx, 0, W - 1), hl.clamp(y + dy, 0, H - 1), ss] for ss in range(3)
                              for dy in (-1, 0, 1) for dx in (-1, 0, 1) if not (ss == 1 and dx == 0 and dy == 0)]
        mx, mn = nb[0], nb[0]
        for tt in nb[1:]:
            mx = hl.max(mx, tt); mn = hl.min(mn, tt)
        inner = (x > 0) & (x < W - 1) & (y > 0) & (y < H - 1)
        out = hl.Func("out"); out[x, y] = hl.select(inner & ((v > mx) | (v < mn)) & (hl.abs(v) > 0.02), hl.u8(255), hl.u8(0))
        out.set_estimate(x, 0, 640).set_estimate(y, 0, 480)
        extra = [d]
    im.dim(0).set_estimate(0, 640); im.dim(1).set_estimate(0, 480)
    p = hl.Pipeline(out)
    if sched == "ref":
        for f in [w, wn, gx, g] + extra:
            f.compute_root()
    else:
        p.auto_schedule("Diet", TGT, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(TGT)
    return p, W, H, S0, im


rng = np.random.default_rng(7)
buf = hl.Buffer(hl.Float(32), [640, 480]); np.asarray(buf)[...] = rng.random((640, 480)).astype(np.float32)
import sys
MASK = "blur" not in sys.argv[1:]
for style in ("inline", "explicit"):
    res = {}
    for sched in ("ref", "Diet"):
        p, W, H, S0, im = build(style, sched)
        W.set(640); H.set(480); S0.set(20); im.set(buf)
        o = hl.Buffer(hl.UInt(8), [640, 480]) if MASK else hl.Buffer(hl.Float(32), [640, 480, 4]); p.realize(o, TGT)
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(o, TGT); ts.append(time.perf_counter() - t0)
        res[sched] = (np.asarray(o).copy(), 1e3 * float(np.median(ts)))
    print("output %s, %-8s hl.sum style: Diet %.2f ms, ref %.2f ms, max|Diet - ref| = %.2g" % ("mask (extrema of DoG)" if MASK else "g[x, y, s] (blur only)", style, res["Diet"][1], res["ref"][1],
          float(np.abs(res["Diet"][0] - res["ref"][0]).max())), flush=True)
