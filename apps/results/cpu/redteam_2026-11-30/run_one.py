"""usage: run_one.py <pipeline> <Diet|Adams2019|Mullapudi2016|none> -> prints one JSON line 'RESULT {...}'"""
import sys, json, time, traceback, os
import numpy as np
import halide as hl
import pipes

TARGET = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
PLUGINS = {"Diet": os.environ.get("DIET_PLUGIN", "/work/main/build/libautoschedule_diet.so"),
           "Adams2019": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so",
           "Mullapudi2016": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_mullapudi2016.so"}


def make_params(spec):
    S = {}
    for n, (lo, hi) in spec['ranges'].items():
        p = hl.Param(hl.Int(32), n, hi)
        p.set_range(lo, hi)
        S[n] = p
    return S


def build(spec, sched):
    S = make_params(spec)
    if sched == "Diet":
        E = dict(S)
    elif sched.endswith("@small"):
        E = dict(default_times(spec)[0])
    else:
        E = {n: hi for n, (lo, hi) in spec['ranges'].items()}
    # (Param.set_estimate(int) is broken in Halide 14's Python bindings: 'cannot be losslessly converted')
    pipes.CREATED.clear()
    outs, ins = spec['build'](S, E)
    if sched == "ref":  # reference: everything but the outputs compute_root (a plain, unscheduled-style order)
        onames = set(o.name() for o in outs)
        for f in pipes.CREATED:
            if f.name() not in onames:
                f.compute_root()
    return S, outs, ins, hl.Pipeline(outs)


def default_tests(spec):
    if spec['tests']:
        return spec['tests']
    R = spec['ranges']
    lo = {n: l for n, (l, h) in R.items()}
    mid = {n: max(l, ((l + h) // 2 - 3) | 1) for n, (l, h) in R.items()}
    hi = {n: h for n, (l, h) in R.items()}
    odd = {n: min(h, max(l, 3 if h > 3 else l)) for n, (l, h) in R.items()}
    out = {n: h + h // 4 + 3 for n, (l, h) in R.items()}
    return [lo, odd, mid, hi, out]


def default_times(spec):
    if spec['times']:
        return spec['times']
    R = spec['ranges']
    small = {n: max(l, min(h, h // 8 + 1)) for n, (l, h) in R.items()}
    return [small, {n: h for n, (l, h) in R.items()}]


def run_pipeline(p, S, ins, spec, v, rng_seed=7):
    rng = np.random.default_rng(rng_seed)
    data = spec['data'](v, rng)
    hbufs = []
    for ip, a in zip(ins, data):
        if spec.get('interleaved') and a.ndim == 3:
            hb = hl.Buffer.make_interleaved(ip.type(), *a.shape)
        else:
            hb = hl.Buffer(ip.type(), list(a.shape))
        np.asarray(hb)[...] = a
        hbufs.append(hb)
        ip.set(hb)
    for n, val in v.items():
        S[n].set(val)
    bufs = []
    for o in spec['outs'](v):
        t, shp = o[0], o[1]
        if spec.get('interleaved') and len(shp) == 3:
            b = hl.Buffer.make_interleaved(t, *shp)
        else:
            b = hl.Buffer(t, shp)
        if len(o) > 2:
            b.set_min(o[2])
        bufs.append(b)
    return data, bufs


def compare(got, want, tol):
    g = np.asarray(got).astype(np.float64); w = np.asarray(want).astype(np.float64)
    if g.shape != w.shape:
        return False, "shape %s vs %s" % (g.shape, w.shape)
    if g.size == 0:
        return True, "empty"
    bad = ~((g == w) | (np.isnan(g) & np.isnan(w)))
    if not bad.any():
        return True, "exact"
    err = float(np.max(np.abs(g - w)[bad]))
    scale = 1.0 + float(np.max(np.abs(w[np.isfinite(w)]))) if np.isfinite(w).any() else 1.0
    if np.issubdtype(np.asarray(want).dtype, np.integer):
        return False, "max abs err %g (%d/%d elems differ)" % (err, int(bad.sum()), g.size)
    ok = err <= (tol or 1e-4) * scale and not np.isnan(g[bad]).any()
    return ok, "max abs err %g (scale %g, %d elems differ)" % (err, scale, int(bad.sum()))


def main():
    name, sched = sys.argv[1], sys.argv[2]
    spec = pipes.SPECS[name]
    res = dict(pipeline=name, sched=sched, status="ok", checks=[], times={})
    try:
        if sched != "none":
            hl.load_plugin(PLUGINS[sched.split("@")[0]])
        S, outs, ins, p = build(spec, sched)
        t0 = time.time()
        if sched != "none":
            r = p.auto_schedule(sched.split("@")[0], TARGET, hl.MachineParams(2, 1 << 20, 40))
            with open("/tmp/redteam/sched/%s.%s.txt" % (name, sched), "w") as f:
                f.write(r.schedule_source)
        res['schedule_s'] = round(time.time() - t0, 2)
        t0 = time.time()
        p.compile_jit(TARGET)
        res['compile_s'] = round(time.time() - t0, 2)
    except Exception as e:
        res['status'] = "error: " + (str(e) or repr(e)).strip()[-600:]
        print("RESULT " + json.dumps(res)); sys.stdout.flush()
        return
    # reference: same algorithm, fresh Funcs, no schedule
    rS, routs, rins, rp = build(spec, "ref")
    rp.compile_jit(TARGET)
    wrong = []
    for v in default_tests(spec):
        try:
            _, want = run_pipeline(rp, rS, rins, spec, v)
            rp.realize(want, TARGET)
            _, got = run_pipeline(p, S, ins, spec, v)
            p.realize(got, TARGET)
            oks = [compare(g, w, spec['tol']) for g, w in zip(got, want)]
            ok = all(o for o, _ in oks)
            res['checks'].append(dict(v=v, ok=ok, msg="; ".join(m for _, m in oks)))
            if not ok:
                wrong.append(v)
        except Exception as e:
            res['checks'].append(dict(v=v, ok=False, msg="exception: " + str(e).strip()[-400:]))
            wrong.append(v)
    if wrong:
        res['status'] = "wrong/err at %s" % wrong
    for v in default_times(spec):
        key = ",".join("%s=%d" % kv for kv in v.items())
        try:
            _, got = run_pipeline(p, S, ins, spec, v)
            p.realize(got, TARGET)
            ts = []
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(got, TARGET); ts.append(time.perf_counter() - t0)
            res['times'][key] = float(np.median(ts)) * 1e3
        except Exception as e:
            res['times'][key] = "exception: " + str(e)[-200:]
    print("RESULT " + json.dumps(res)); sys.stdout.flush()


if __name__ == "__main__":
    main()
