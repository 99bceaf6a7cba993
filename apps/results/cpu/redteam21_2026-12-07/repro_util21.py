"""Shared timing helper for the round-21 repros: build(S, sched) gets S = {name: Param with its range} (Diet, ref) or
{name: int} (Adams2019 at that constant shape) and returns (outs, ins, funcs); 'ref' computes every non-output Func at
root (the harness's serial reference). time_all() schedules, JITs and times each system (median of 10 realizes) at one
shape, checks every output against ref, and prints one line. Diet from $DIET_PLUGIN (default /tmp/rt21/...)."""
import os, time
import numpy as np, halide as hl
PLUG = {"Diet": os.environ.get("DIET_PLUGIN", "/tmp/rt21/libautoschedule_diet.so"),
        "Adams2019": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so"}
TA = "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"
TB = "x86-64-linux-avx-avx2-f16c-fma-sse41"
for _p in PLUG.values():
    hl.load_plugin(_p)


def params(ranges):
    S = {}
    for n, (lo, hi) in ranges.items():
        S[n] = hl.Param(hl.Int(32), n, hi); S[n].set_range(lo, hi)
    return S


def make(build, ranges, sched, v, target):
    S = params(ranges) if sched in ("Diet", "ref") else dict(v)
    if sched == "ref":
        with noest():
            outs, ins, funcs = build(S, sched)
    else:
        outs, ins, funcs = build(S, sched)
    p = hl.Pipeline(outs)
    if sched == "ref":
        on = set(o.name() for o in outs)
        for f in funcs:
            if f.name() not in on:
                f.compute_root()
    elif sched in ("Diet", "Adams2019"):
        p.auto_schedule(sched, target, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(target)
    return p, S, ins


def time_all(label, build, ranges, v, data, out_shapes, target, systems=("Diet", "Adams2019", "ref")):
    T = hl.Target(target)
    ms, res = {}, {}
    for s in systems:
        try:
            p, S, ins = make(build, ranges, s, v, T)
        except Exception as e:
            print("  %s %s: %s" % (label, s, str(e).strip()[:200])); continue
        for ip, a in zip(ins, data):
            b = hl.Buffer(ip.type(), list(a.shape)); np.asarray(b)[...] = a; ip.set(b)
        if s in ("Diet", "ref"):
            for n, val in v.items():
                S[n].set(val)
        ob = [hl.Buffer(t, list(shp)) for t, shp in out_shapes]
        p.realize(ob, T)
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(ob, T); ts.append(time.perf_counter() - t0)
        ms[s] = float(np.median(ts)) * 1e3; res[s] = [np.asarray(b).astype(np.float64).copy() for b in ob]
    ok = all(all(np.allclose(a, b, rtol=2e-3, atol=1e-4) for a, b in zip(res[s], res["ref"])) for s in res) if "ref" in res else "?"
    best = min((m for s, m in ms.items() if s != "Diet"), default=float('nan'))
    print("%-40s %s  Diet/best-other %.2f  outputs match ref: %s" % (label, "  ".join("%s %.4f ms" % (s, m) for s, m in ms.items()),
          ms.get("Diet", float('nan')) / best, ok), flush=True)
    return ms


def fa(a):
    b = np.empty(a.shape, dtype=a.dtype, order='F'); b[...] = a
    return b


class noest:
    """while building the reference: estimates are no-ops (a JIT of an un-autoscheduled pipeline with Param-valued
    estimates fails with 'Should only see constant values for estimates')"""
    def __enter__(self):
        self.f, self.d = hl.Func.set_estimate, hl.Dimension.set_estimate
        hl.Func.set_estimate = lambda s, *a, **k: s
        hl.Dimension.set_estimate = lambda s, *a, **k: s

    def __exit__(self, *a):
        hl.Func.set_estimate, hl.Dimension.set_estimate = self.f, self.d
