"""usage: probe_bicubic.py PLUGIN TARGET ROUNDS VARIANT...  (variants: diet, hand_inline, root_c_outer, root_c_inner, ref)
Round 14's RGBA bicubic (interleaved u8 [c, x, y], a 4 x 4 sum over keys(rx - tx) keys(ry - ty) in[c, ...]) written
with the sum as a named Func (what hl.sum makes: sum(ox, oy, c), free variables in order of appearance), scheduled
by Diet or by hand; every variant checked against the unscheduled one, then timed interleaved (median of 10 calls
per round, ROUNDS rounds) at the small and large shapes. One 'PROBE {...}' line per variant, shape and round."""
import json, os, sys, time
import numpy as np
import halide as hl

plugin, target, rounds, variants = sys.argv[1], hl.Target(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
hl.load_plugin(plugin)
SHAPES = {"small": dict(W=65, H=49, OW=129, OH=97), "large": dict(W=512, H=384, OW=1024, OH=768),
          "small128": dict(W=65, H=49, OW=128, OH=97), "large1023": dict(W=512, H=384, OW=1023, OH=768)}
if os.environ.get("PROBE_SHAPES"):  # e.g. small,small128: only these
    SHAPES = {k: SHAPES[k] for k in os.environ["PROBE_SHAPES"].split(",")}


def keys(t):
    a = -0.5
    at = hl.abs(t)
    return hl.select(at <= 1.0, ((a + 2.0) * at - (a + 3.0)) * at * at + 1.0,
                     at < 2.0, ((a * at - 5.0 * a) * at + 8.0 * a) * at - 4.0 * a, 0.0)


def build(variant):
    hi = dict(W=512, H=384, OW=1024, OH=768)
    P = {n: hl.Param(hl.Int(32), n, hi[n]) for n in hi}
    for n, lo in dict(W=4, H=4, OW=1, OH=1).items():
        P[n].set_range(lo, hi[n])
    im = hl.ImageParam(hl.UInt(8), 3, "rgba")
    c, ox, oy = hl.Var("c"), hl.Var("ox"), hl.Var("oy")
    W, H = P["W"], P["H"]
    fx = (hl.f32(ox) + 0.5) * (hl.f32(W) / hl.f32(P["OW"])) - 0.5
    fy = (hl.f32(oy) + 0.5) * (hl.f32(H) / hl.f32(P["OH"])) - 0.5
    ix, iy = hl.floor(fx), hl.floor(fy)
    tx, ty = fx - ix, fy - iy
    r = hl.RDom([(-1, 4), (-1, 4)], "r")
    s = hl.Func("sum")
    s[ox, oy, c] = 0.0
    s[ox, oy, c] += keys(hl.f32(r.x) - tx) * keys(hl.f32(r.y) - ty) * hl.f32(
        im[c, hl.clamp(hl.i32(ix) + r.x, 0, W - 1), hl.clamp(hl.i32(iy) + r.y, 0, H - 1)])
    o = hl.Func("bc_out")
    o[c, ox, oy] = hl.u8(hl.clamp(s[ox, oy, c] + 0.5, 0.0, 255.0))
    # Diet reads the family from Param estimates (and leaves constants for codegen); the others get
    # constants (Halide 14's codegen needs them).
    E = P if variant == "diet" else hi
    im.dim(0).set_estimate(0, 4).dim(1).set_estimate(0, E["W"]).dim(2).set_estimate(0, E["H"])
    o.set_estimate(c, 0, 4).set_estimate(ox, 0, E["OW"]).set_estimate(oy, 0, E["OH"])
    p = hl.Pipeline(o)
    xo, xi = hl.Var("xo"), hl.Var("xi")
    if variant == "diet":
        p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    elif variant == "hand_inline":  # round 14's hand schedule: the sum at Halide's default, inside the output's vectors
        o.bound(c, 0, 4).reorder(c, ox, oy).unroll(c).vectorize(ox, 16).parallel(oy)
    elif variant.startswith("root_c_"):  # root_c_{outer,inner}[64][_fused]: vector width, (oy, c) fused parallel
        width = 64 if "64" in variant else 16
        o.bound(c, 0, 4).reorder(c, ox, oy).unroll(c).vectorize(ox, 16).parallel(oy)
        s.compute_root().vectorize(ox, 16).parallel(oy)
        u = s.update(0)
        u.split(ox, xo, xi, width, hl.TailStrategy.GuardWithIf).vectorize(xi)
        if variant.startswith("root_c_inner"):  # the 4 channels' steps side by side: the weights computed once
            u.reorder(xi, c, r.x, r.y, xo, oy).unroll(c).unroll(r.x)
            u.parallel(oy)
        else:
            u.reorder(xi, r.x, r.y, xo, oy, c).unroll(r.x)
            if variant.endswith("_fused"):
                oc = hl.Var("oc")
                u.fuse(oy, c, oc).parallel(oc)
            else:
                u.parallel(oy)
    elif variant == "in_c_inner":  # the sum per vector of the output, its 4 channels unrolled inside
        o.bound(c, 0, 4).reorder(c, ox, oy).unroll(c).split(ox, xo, xi, 16, hl.TailStrategy.GuardWithIf).vectorize(xi).parallel(oy)
        sxo, sxi = hl.Var("sxo"), hl.Var("sxi")
        s.compute_at(o, xo).split(ox, sxo, sxi, 16, hl.TailStrategy.GuardWithIf).vectorize(sxi).unroll(c)
        s.update(0).split(ox, sxo, sxi, 16, hl.TailStrategy.GuardWithIf).reorder(sxi, c, r.x, r.y, sxo).vectorize(sxi).unroll(c).unroll(r.x)
    elif variant != "ref":
        raise SystemExit("unknown variant " + variant)
    t0 = time.time()
    p.compile_jit(target)
    return P, im, p, time.time() - t0


def run(built, shape, reps=10):
    P, im, p, _ = built
    rng = np.random.default_rng(7)
    a = rng.integers(0, 256, size=(shape["H"], shape["W"], 4), dtype=np.uint8)
    inb = hl.Buffer(a.transpose(2, 1, 0), "in_cxy")  # Halide [c, x, y] with c stride 1 (interleaved)
    im.set(inb)
    for n in P:
        P[n].set(shape[n])
    out = hl.Buffer(hl.UInt(8), [4, shape["OW"], shape["OH"]])
    p.realize(out)
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        p.realize(out)
        times.append((time.perf_counter() - t) * 1e3)
    return np.asarray(out).copy(), float(np.median(times))


builds = {v: build(v) for v in variants}
want = {k: run(build("ref"), s, 1)[0] for k, s in SHAPES.items()}
for v, b in builds.items():
    for k, s in SHAPES.items():
        got = run(b, s, 1)[0]
        d = np.abs(got.astype(int) - want[k].astype(int))
        print("CHECK", v, k, "max |err|", int(d.max()), "elems off", int((d > 0).sum()), flush=True)
for rd in range(rounds):
    for k, s in SHAPES.items():
        for v, b in builds.items():
            print("PROBE " + json.dumps(dict(round=rd, variant=v, shape=k, ms=run(b, s)[1], jit_s=b[3])), flush=True)
