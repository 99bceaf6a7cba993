"""W1 repro (round 20): Diet's auto_schedule fails with Halide's internal error 'copied_func.defined(): <f>_global_wrapper$0'
on a pipeline where one consumer reads a Func through Func.in_() (a global wrapper) and another reads it directly.
Each variant is scheduled by Diet, Adams2019 and Mullapudi2016 (no timing), then (if scheduled) JIT-compiled and run at
a few shapes against the unscheduled pipeline. usage: DIET_PLUGIN=/tmp/rt20/libautoschedule_diet.so python3 repro_wrapper20.py"""
import os
import numpy as np, halide as hl
PLUG = {"Diet": os.environ.get("DIET_PLUGIN", "/tmp/rt20/libautoschedule_diet.so"),
        "Adams2019": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so",
        "Mullapudi2016": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_mullapudi2016.so"}
for p in PLUG.values():
    hl.load_plugin(p)
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")


def build(variant, const):
    W = hl.Param(hl.Int(32), "W", 640); H = hl.Param(hl.Int(32), "H", 480); R = hl.Param(hl.Int(32), "R", 4)
    for p, hi in ((W, 640), (H, 480), (R, 4)):
        p.set_range(1, hi)
    img = hl.ImageParam(hl.UInt(8), 2, "img")
    x, y = hl.Var("x"), hl.Var("y")
    Wv, Hv = (640, 480) if const else (W, H)
    m = hl.Func("m"); m[x, y] = hl.i32(hl.BoundaryConditions.repeat_edge(img, [(0, Wv), (0, Hv)])[x, y])
    rr = hl.RDom([hl.Range(-R, 2 * R + 1)], "rr") if not const else hl.RDom([hl.Range(-4, 9)], "rr")
    src = m.in_() if variant != "no wrapper" else m
    box = hl.Func("box"); box[x, y] = hl.sum(src[x + rr.x, y])
    if variant in ("wrapper + direct read", "no wrapper"):
        out = hl.Func("out"); out[x, y] = box[x, y] - 9 * m[x, y]
    else:  # "wrapper only"
        out = hl.Func("out"); out[x, y] = box[x, y]
    # estimates as in the round-20 specs: the Params themselves for Diet (and Mullapudi), constants for Adams2019
    img.dim(0).set_estimate(0, Wv); img.dim(1).set_estimate(0, Hv)
    out.set_estimate(x, 0, Wv).set_estimate(y, 0, Hv)
    return (W, H, R), img, out


for variant in ("wrapper + direct read", "wrapper only", "no wrapper"):
    for sched in ("Diet", "Adams2019", "Mullapudi2016"):
        const = sched != "Diet"
        (W, H, R), img, out = build(variant, const)
        p = hl.Pipeline(out)
        try:
            p.auto_schedule(sched, T, hl.MachineParams(2, 1 << 20, 40))
            p.compile_jit(T)
        except Exception as e:
            print("%-22s %-14s auto_schedule/JIT FAILED: %s" % (variant, sched, str(e).strip().splitlines()[-1][:200]), flush=True)
            continue
        res = []
        for (w, h, r) in ([(640, 480, 4)] if const else [(640, 480, 4), (1, 1, 1), (17, 5, 3)]):
            a = np.random.default_rng(1).integers(0, 256, (w, h)).astype(np.uint8)
            b = hl.Buffer(hl.UInt(8), [w, h]); np.asarray(b)[...] = a; img.set(b)
            if not const:
                W.set(w); H.set(h); R.set(r)
            o = hl.Buffer(hl.Int(32), [w, h])
            try:
                p.realize(o, T)
            except Exception as e:
                res.append("%dx%d R=%d error: %s" % (w, h, r, str(e).strip().splitlines()[-1][:90])); continue
            ap = np.pad(a.astype(np.int64), ((r, r), (0, 0)), mode='edge')
            want = sum(ap[r + d:r + d + w] for d in range(-r, r + 1))
            if variant != "wrapper only":
                want = want - 9 * a.astype(np.int64)
            res.append("%dx%d R=%d %s" % (w, h, r, "ok" if np.array_equal(np.asarray(o), want) else "WRONG"))
        print("%-22s %-14s scheduled; %s" % (variant, sched, ", ".join(res)), flush=True)
