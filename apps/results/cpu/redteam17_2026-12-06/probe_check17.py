"""usage: rt17.py r11 ../redteam17_2026-12-06/probe_check17.py NAME [SCHED...]: build NAME with each scheduler (Diet,
Mullapudi2016, Adams2019c = constant large shape, ref), realize at the large (hi) shape, compare every output with ref
(round 3's compare, spec tol) and time 10 realizes (median ms). Checks whether a fast ab row is also a right answer."""
import sys, time, json
import numpy as np, halide as hl
import run11
ro, run6 = run11.run_one, run11.run9.run6
name = sys.argv[1]; scheds = sys.argv[2:] or ["ref", "Diet", "Mullapudi2016", "Adams2019c"]
spec = run11.pipes11.SPECS[name]
T = hl.Target(run11.pipes11.TARGETS[spec['target']])
small, large = ro.default_times(spec)
want = None
for sched in scheds:
    algo = "Adams2019" if sched.startswith("Adams") else sched
    try:
        if sched != "ref":
            hl.load_plugin(ro.PLUGINS[algo])
        keep = ro.make_params
        if sched.startswith("Adams2019c"):
            ro.make_params = lambda sp: {n: run6.CInt(large[n]) for n in sp['ranges']}
        try:
            S, outs, ins, p = ro.build(spec, "Adams2019" if sched.startswith("Adams") else sched)
        finally:
            ro.make_params = keep
        t0 = time.time()
        if sched != "ref":
            p.auto_schedule(algo, T, hl.MachineParams(2, 1 << 20, 40))
        p.compile_jit(T)
        ct = time.time() - t0
        _, bufs = ro.run_pipeline(p, S, ins, spec, large); p.realize(bufs, T)
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(bufs, T); ts.append(time.perf_counter() - t0)
        got = [np.asarray(b).copy() for b in bufs]
        if want is None:
            want = got
        oks = [ro.compare(g, w, spec['tol']) for g, w in zip(got, want)]
        print("CHECK", json.dumps(dict(pipeline=name, sched=sched, shape=large, compile_s=round(ct, 2), ms=float(np.median(ts)) * 1e3,
                                       ok=all(o for o, _ in oks), msg="; ".join(m for _, m in oks))), flush=True)
    except Exception as e:
        print("CHECK", json.dumps(dict(pipeline=name, sched=sched, error=str(e)[-300:])), flush=True)
