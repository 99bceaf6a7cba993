"""Where red-team round 10's depthwise-separable block (channels innermost) spends its time under
Diet: the whole block, its depthwise half alone (ds_a1 as the output), and the pointwise half
alone (a1 as an input). Each scheduled by Diet (default options) and by Adams2019 at the constant
shape, timed at C=32, CO=48, W=H=56 (median of 50 realizes after warm-up, alternating 5 rounds).
usage: probe.py DIET_PLUGIN"""
import sys, time, statistics
import numpy as np, halide as hl

T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
C, CO, W, H = 32, 48, 56, 56
F32 = hl.Float(32)


def params(dynamic):
    if not dynamic:
        return {k: hl.Expr(v) for k, v in dict(C=C, CO=CO, W=W, H=H).items()}
    out = {}
    for k, hi in dict(C=32, CO=48, W=56, H=56).items():
        p = hl.Param(hl.Int(32), k, hi)
        p.set_range(1, hi)
        out[k] = p
    return out


def build(part, dynamic):
    S = params(dynamic)
    c, x, y, o = hl.Var("c"), hl.Var("x"), hl.Var("y"), hl.Var("o")
    wp = hl.ImageParam(F32, 2, "wp"); bn2 = hl.ImageParam(F32, 2, "bn2")
    ins = {}
    if part in ("whole", "dw"):
        x_ = hl.ImageParam(F32, 3, "x"); wd = hl.ImageParam(F32, 2, "wd"); bn1 = hl.ImageParam(F32, 2, "bn1")
        xe = hl.BoundaryConditions.constant_exterior(x_, 0.0, [(0, S['C']), (0, S['W']), (0, S['H'])])
        r = hl.RDom([(0, 3), (0, 3)])
        dw = hl.Func("ds_dw"); dw[c, x, y] = 0.0
        dw[c, x, y] += wd[r.x + 3 * r.y, c] * xe[c, x + r.x - 1, y + r.y - 1]
        a1 = hl.Func("ds_a1"); a1[c, x, y] = hl.clamp(dw[c, x, y] * bn1[0, c] + bn1[1, c], 0.0, 6.0)
        x_.set_estimates([(0, C), (0, W), (0, H)]); wd.set_estimates([(0, 9), (0, C)]); bn1.set_estimates([(0, 2), (0, C)])
        ins.update(x=(x_, (C, W, H)), wd=(wd, (9, C)), bn1=(bn1, (2, C)))
    else:
        a1in = hl.ImageParam(F32, 3, "a1in")
        a1 = hl.Func("ds_a1"); a1[c, x, y] = a1in[c, x, y]
        a1in.set_estimates([(0, C), (0, W), (0, H)])
        ins.update(a1in=(a1in, (C, W, H)))
    if part == "dw":
        a1.set_estimates([(0, C), (0, W), (0, H)])
        return a1, ins, S
    rc = hl.RDom([(0, S['C'])], "rc")
    pw = hl.Func("ds_pw"); pw[o, x, y] = 0.0
    pw[o, x, y] += wp[rc, o] * a1[rc, x, y]
    out = hl.Func("ds_out"); out[o, x, y] = hl.clamp(pw[o, x, y] * bn2[0, o] + bn2[1, o], 0.0, 6.0)
    wp.set_estimates([(0, C), (0, CO)]); bn2.set_estimates([(0, 2), (0, CO)])
    out.set_estimates([(0, CO), (0, W), (0, H)])
    ins.update(wp=(wp, (C, CO)), bn2=(bn2, (2, CO)))
    return out, ins, S


def compiled(part, sched):
    f, ins, S = build(part, sched == "Diet")
    p = hl.Pipeline(f)
    p.auto_schedule(sched, T, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(T)
    rng = np.random.default_rng(1)
    for name, (ip, shape) in ins.items():
        ip.set(hl.Buffer(rng.uniform(0.5, 1.5, shape[::-1]).astype(np.float32).T))
    if sched == "Diet":
        for k, v in dict(C=C, CO=CO, W=W, H=H).items():
            S[k].set(v)
    shape = (C, W, H) if part == "dw" else (CO, W, H)
    out = hl.Buffer(F32, list(shape))
    return p, out


def main():
    hl.load_plugin(sys.argv[1])
    hl.load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so")
    systems = {(part, s): compiled(part, s) for part in ("whole", "dw", "pw") for s in ("Diet", "Adams2019")}
    times = {k: [] for k in systems}
    for _ in range(5):
        for k, (p, out) in systems.items():
            p.realize(out, T)
            ts = []
            for _ in range(50):
                t0 = time.perf_counter(); p.realize(out, T); ts.append(time.perf_counter() - t0)
            times[k].append(statistics.median(ts))
    for k, v in times.items():
        print("%-6s %-10s %.4f ms" % (k[0], k[1], statistics.median(v) * 1e3))


main()
