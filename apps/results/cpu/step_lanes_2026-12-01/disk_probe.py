# u8 disk dilation over a padded input: update steps of 1 vs 4 vectors (AVX2), rows with / without a tail.
import sys, time, numpy as np, halide as hl
target = hl.Target(sys.argv[1]); R = int(sys.argv[2]); H = 384
G = hl.TailStrategy.GuardWithIf
def build(width):
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    x, y = hl.Var("x"), hl.Var("y")
    r = hl.RDom([hl.Range(-R, 2 * R + 1), hl.Range(-R, 2 * R + 1)], "r"); r.where(r.x * r.x + r.y * r.y <= R * R)
    o = hl.Func("o"); o[x, y] = hl.u8(0); o[x, y] = hl.max(o[x, y], inp[x + r.x + R, y + r.y + R])
    o.vectorize(x, 32).parallel(y, 8)
    u = o.update(0); xo, xi = hl.Var("xo"), hl.Var("xi")
    u.split(x, xo, xi, width, G).vectorize(xi).reorder(xi, r.x, r.y, xo, y).parallel(y, 8, G)
    p = hl.Pipeline(o); p.compile_jit(target); return p, inp
for W in [int(w) for w in sys.argv[3:]]:
    built = {w: build(w) for w in (32, 128)}
    ib = hl.Buffer(hl.UInt(8), [W + 2 * R, H + 2 * R]); np.asarray(ib)[...] = np.random.randint(0, 255, size=(W + 2 * R, H + 2 * R))
    res = {w: [] for w in built}
    for rnd in range(5):
        for w, (p, inp) in built.items():
            inp.set(ib); out = hl.Buffer(hl.UInt(8), [W, H]); p.realize(out)
            ts = []
            for i in range(11):
                t0 = time.perf_counter(); p.realize(out); ts.append(time.perf_counter() - t0)
            res[w].append(min(ts))
    print("R=%d W=%d " % (R, W) + "  ".join("%d-point: %.3f" % (w, 1000 * np.median(res[w])) for w in res), flush=True)
