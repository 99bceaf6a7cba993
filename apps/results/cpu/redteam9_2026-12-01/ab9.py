"""usage: ab9.py PIPELINE [rounds=3]: in-process alternating timing of Diet, Mullapudi2016, Adams2019c (constant large
shape, timed only at the large shape), Adams2019c@small (constant small shape, only at the small shape) and the unscheduled
compute_root reference 'ref' (serial). Each scheduler's pipeline is built, scheduled and JIT-compiled once (compile
seconds recorded); then for each round and each shape (small, large = run_one.default_times) every scheduler in turn
runs a median of 10 realizes (after one warm-up). One JSON line per (round, sched, shape) -> stdout ('AB {...}') and one
'CT {...}' per scheduler with schedule/compile seconds or the error. Diet must be loaded from $DIET_PLUGIN."""
import sys, time, json, os
import numpy as np, halide as hl
import run9
ro, run6 = run9.run_one, run9.run6
name = sys.argv[1]; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
spec = run6.pipes6.SPECS[name]
T = run9.TARGET
small, large = ro.default_times(spec)
built = {}
for sched in ("Diet", "Mullapudi2016", "Adams2019c", "Adams2019c@small", "ref"):
    ct = dict(pipeline=name, sched=sched, target=str(T))
    try:
        algo = "Adams2019" if sched.startswith("Adams") else sched
        if sched != "ref":
            hl.load_plugin(ro.PLUGINS[algo])
        if sched.startswith("Adams2019c"):
            consts = small if sched.endswith("@small") else large
            keep = ro.make_params
            ro.make_params = lambda sp: {n: run6.CInt(consts[n]) for n in sp['ranges']}
            S, outs, ins, p = ro.build(spec, "Adams2019@small" if sched.endswith("@small") else "Adams2019")
            ro.make_params = keep
        else:
            S, outs, ins, p = ro.build(spec, sched)
        t0 = time.time()
        if sched != "ref":
            p.auto_schedule(algo, T, hl.MachineParams(2, 1 << 20, 40))
        t1 = time.time()
        p.compile_jit(T)
        ct.update(schedule_s=round(t1 - t0, 3), compile_s=round(time.time() - t1, 3))
        built[sched] = (S, ins, p)
    except Exception as e:
        ct['error'] = str(e).strip()[-300:]
    print("CT " + json.dumps(ct), flush=True)
bufs = {}
for rnd in range(1, rounds + 1):
    for shape_name, v in (("small", small), ("large", large)):
        key = ",".join("%s=%d" % kv for kv in v.items())
        for sched, (S, ins, p) in built.items():
            if sched == "Adams2019c" and shape_name == "small" or sched == "Adams2019c@small" and shape_name == "large":
                continue
            rec = dict(round=rnd, pipeline=name, sched=sched, shape=shape_name, key=key)
            try:
                if (sched, shape_name) not in bufs:
                    bufs[(sched, shape_name)] = run9.realize(p, S, ins, spec, v)
                b = bufs[(sched, shape_name)]
                ro.run_pipeline(p, S, ins, spec, v)  # re-binds this pipeline's inputs and Params
                p.realize(b, T)
                ts = []
                t_end = time.perf_counter() + 10
                for _ in range(10):
                    t0 = time.perf_counter(); p.realize(b, T); ts.append(time.perf_counter() - t0)
                    if time.perf_counter() > t_end and len(ts) >= 3:
                        break
                rec['ms'] = float(np.median(ts)) * 1e3
            except Exception as e:
                rec['error'] = str(e).strip()[-200:]
            print("AB " + json.dumps(rec), flush=True)
