"""Diet against Halide 14's autoschedulers on three small pipelines other people write (from the
red-team probe, apps/results/cpu/redteam_2026-11-30/): a depthwise 3x3 convolution updated on its
output, a 3x3 / 2 max pool (inline maximum()), and a Func computing x % T read at two points.

usage: bench.py <depthwise|maxpool|param_mod> <Diet|Adams2019|Mullapudi2016>
Prints the schedule's log on stderr and one line 'RESULT <pipeline> <scheduler> <median ms>'.
The plugin: $DIET_PLUGIN (default build/libautoschedule_diet.so of this checkout)."""
import os, sys, time
import numpy as np
import halide as hl

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
HALIDE_LIB = "/usr/lib/x86_64-linux-gnu/halide14"
PLUGINS = {"Diet": os.environ.get("DIET_PLUGIN", os.path.join(root, "build", "libautoschedule_diet.so")),
           "Adams2019": HALIDE_LIB + "/libautoschedule_adams2019.so",
           "Mullapudi2016": HALIDE_LIB + "/libautoschedule_mullapudi2016.so"}
TARGET = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
F32 = hl.Float(32)


def ranged(name, lo, hi):
    p = hl.Param(hl.Int(32), name, hi)
    p.set_range(lo, hi)
    return p


def depthwise(diet):
    """32 channels innermost, 128 x 128, zero padded; W, H in [1, 128] for Diet."""
    W, H = ranged("W", 1, 128), ranged("H", 1, 128)
    inp, w = hl.ImageParam(F32, 3, "inp"), hl.ImageParam(F32, 3, "w")
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    p = hl.BoundaryConditions.constant_exterior(inp, 0.0)
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    out = hl.Func("dwconv")
    out[c, x, y] = 0.0
    out[c, x, y] += p[c, x + r.x - 1, y + r.y - 1] * w[c, r.x, r.y]
    E = (W, H) if diet else (128, 128)
    inp.dim(0).set_estimate(0, 32); inp.dim(1).set_estimate(0, E[0]); inp.dim(2).set_estimate(0, E[1])
    w.dim(0).set_estimate(0, 32); w.dim(1).set_estimate(0, 3); w.dim(2).set_estimate(0, 3)
    out.set_estimate(c, 0, 32); out.set_estimate(x, 0, E[0]); out.set_estimate(y, 0, E[1])
    a = hl.Buffer(F32, [32, 128, 128]); np.asarray(a)[...] = 1.0
    b = hl.Buffer(F32, [32, 3, 3]); np.asarray(b)[...] = 0.5
    inp.set(a); w.set(b); W.set(128); H.set(128)
    return out, hl.Buffer(F32, [32, 128, 128])


def maxpool(diet):
    """x, y, c planar; output 100 x 100 x 64 from 201 x 201; W, H in [1, 100], C in [1, 64] for Diet."""
    W, H, C = ranged("W", 1, 100), ranged("H", 1, 100), ranged("C", 1, 64)
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    out = hl.Func("maxpool")
    out[x, y, c] = hl.maximum(inp[2 * x + r.x, 2 * y + r.y, c])
    E = (W, H, C) if diet else (100, 100, 64)
    inp.dim(0).set_estimate(0, 2 * E[0] + 1); inp.dim(1).set_estimate(0, 2 * E[1] + 1); inp.dim(2).set_estimate(0, E[2])
    out.set_estimate(x, 0, E[0]); out.set_estimate(y, 0, E[1]); out.set_estimate(c, 0, E[2])
    a = hl.Buffer(F32, [201, 201, 64])
    np.asarray(a)[...] = np.random.default_rng(0).standard_normal((201, 201, 64), dtype=np.float32)
    inp.set(a); W.set(100); H.set(100); C.set(64)
    return out, hl.Buffer(F32, [100, 100, 64])


def param_mod(diet):
    """f(x, y) = in(x, y) * T + x % T, read at x and x + 1; 8T x 37 at T = 128, T in [1, 128] for Diet."""
    T = ranged("T", 1, 128)
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = hl.Var("x"), hl.Var("y")
    f, out = hl.Func("pv_f"), hl.Func("pv_out")
    f[x, y] = inp[x, y] * hl.f32(T) + hl.f32(x % T)
    out[x, y] = f[x, y] + f[hl.min(x + 1, 8 * T - 1), y] / hl.f32(T)
    E = T if diet else 128
    inp.dim(0).set_estimate(0, 8 * E); inp.dim(1).set_estimate(0, 37)
    out.set_estimate(x, 0, 8 * E); out.set_estimate(y, 0, 37)
    a = hl.Buffer(F32, [1024, 37]); np.asarray(a)[...] = 1.0
    inp.set(a); T.set(128)
    return out, hl.Buffer(F32, [1024, 37])


def main():
    which, sched = sys.argv[1], sys.argv[2]
    hl.load_plugin(PLUGINS[sched])
    out, o = {"depthwise": depthwise, "maxpool": maxpool, "param_mod": param_mod}[which](sched == "Diet")
    pl = hl.Pipeline(out)
    res = pl.auto_schedule(sched, TARGET, hl.MachineParams(2, 1 << 20, 40))
    sys.stderr.write(res.schedule_source + "\n")
    pl.compile_jit(TARGET)
    pl.realize(o, TARGET)
    ts = []
    for _ in range(101):
        t0 = time.perf_counter(); pl.realize(o, TARGET); ts.append(time.perf_counter() - t0)
    print("RESULT %s %s %.4f" % (which, sched, 1e3 * float(np.median(ts))))


if __name__ == "__main__":
    main()
