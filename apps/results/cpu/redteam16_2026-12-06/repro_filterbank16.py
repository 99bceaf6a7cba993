"""Standalone repro of the gabor slowdown without the trig kernel Func or the second output: a bank of NO 2-D filters
out[x, y, o] = sum_{i,j in -R..R} w[i+R, j+R, o] * in[x+i, y+j] (repeat_edge), weights from a buffer, R and NO ranged
Params (R 1..5, NO 1..8), 640x480 f32, AVX-512 target A. Variants: Diet with the inline hl.sum form, the same with the weights read through a trivial Func (as gabor's kernel Func), the same with a second output max over o of |out| (as gabor), Diet with an explicit
update Func, and a simple hand schedule of the explicit form (vectorize x by 16, r loops inside, parallel y).
Prints median ms of 10 realizes at W=640, H=480, NO=8, R=5 and at W=81, H=61, NO=2, R=1, and the max |diff| vs hand.
usage: DIET_PLUGIN=/tmp/rt16/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_filterbank16.py"""
import os, time
import numpy as np, halide as hl
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
hl.load_plugin(os.environ["DIET_PLUGIN"])


def build(form, sched):
    P = {}
    for n, lo, hi in (("W", 1, 640), ("H", 1, 480), ("NO", 1, 8), ("R", 1, 5)):
        P[n] = hl.Param(hl.Int(32), n, lo); P[n].set_range(lo, hi)
    im = hl.ImageParam(hl.Float(32), 2, "im"); w = hl.ImageParam(hl.Float(32), 3, "w")
    x, y, o = hl.Var("x"), hl.Var("y"), hl.Var("o")
    R = P['R']
    e = hl.BoundaryConditions.repeat_edge(im, [(0, P['W']), (0, P['H'])])
    r = hl.RDom([hl.Range(-R, 2 * R + 1), hl.Range(-R, 2 * R + 1)], "r")
    out = hl.Func("fb_out")
    wf = hl.Func("fb_wfunc"); wf[x, y, o] = w[x, y, o] * 1.0
    if form in ("hlsum", "hlsum_max"):
        out[x, y, o] = hl.sum(w[r.x + R, r.y + R, o] * e[x + r.x, y + r.y])
    elif form == "hlsum_wfunc":
        out[x, y, o] = hl.sum(wf[r.x + R, r.y + R, o] * e[x + r.x, y + r.y])
    else:
        out[x, y, o] = 0.0
        out[x, y, o] += w[r.x + R, r.y + R, o] * e[x + r.x, y + r.y]
    outs = [out]
    if form == "hlsum_max":
        ro = hl.RDom([hl.Range(0, P['NO'])], "ro")
        mx = hl.Func("fb_maxabs"); mx[x, y] = hl.maximum(hl.abs(out[x, y, ro.x]))
        outs.append(mx)
        if sched == "Diet":
            mx.set_estimate(x, 0, P['W']).set_estimate(y, 0, P['H'])
    p = hl.Pipeline(outs)
    if sched == "Diet":
        im.dim(0).set_estimate(0, P['W']); im.dim(1).set_estimate(0, P['H'])
        w.dim(0).set_estimate(0, 2 * R + 1); w.dim(1).set_estimate(0, 2 * R + 1); w.dim(2).set_estimate(0, P['NO'])
        out.set_estimate(x, 0, P['W']).set_estimate(y, 0, P['H']).set_estimate(o, 0, P['NO'])
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    else:
        xo, xi = hl.Var("xo"), hl.Var("xi")
        out.compute_root().split(x, xo, xi, 16, hl.TailStrategy.GuardWithIf).vectorize(xi).parallel(y)
        out.update(0).split(x, xo, xi, 16, hl.TailStrategy.GuardWithIf).reorder(xi, r.x, r.y, xo, y, o).vectorize(xi).parallel(y)
    p.compile_jit(T)
    return P, im, w, p


variants = {"Diet hlsum": build("hlsum", "Diet"), "Diet hlsum wFunc": build("hlsum_wfunc", "Diet"), "Diet hlsum + max output": build("hlsum_max", "Diet"), "Diet update": build("update", "Diet"), "hand update": build("update", "hand")}
rng = np.random.default_rng(1)
for (W, H, NO, R) in ((640, 480, 8, 5), (81, 61, 2, 1)):
    a = np.asfortranarray(rng.standard_normal((W, H)).astype(np.float32))
    k = np.asfortranarray(rng.standard_normal((2 * R + 1, 2 * R + 1, NO)).astype(np.float32))
    res = {}
    for rnd in range(3):
        for name, (P, im, w, p) in variants.items():
            ib = hl.Buffer(hl.Float(32), [W, H]); np.asarray(ib)[...] = a
            wb = hl.Buffer(hl.Float(32), list(k.shape)); np.asarray(wb)[...] = k
            im.set(ib); w.set(wb)
            for n, v in (("W", W), ("H", H), ("NO", NO), ("R", R)):
                P[n].set(v)
            ob = hl.Buffer(hl.Float(32), [W, H, NO])
            bl = [ob] + ([hl.Buffer(hl.Float(32), [W, H])] if "max" in name else [])
            p.realize(bl, T)
            ts = []
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(bl, T); ts.append(time.perf_counter() - t0)
            res.setdefault(name, []).append(np.median(ts) * 1e3)
            res[name + " out"] = np.asarray(ob).copy()
    ref = res["hand update out"]
    for name in variants:
        print("W=%d H=%d NO=%d R=%d  %-24s ms per round %s  max|diff vs hand| %.2g" % (W, H, NO, R, name, " ".join("%.3f" % t for t in res[name]),
              float(np.abs(res[name + " out"] - ref).max())), flush=True)
