"""usage: ref_compile.py <pipeline> [sched ...]: JIT-compile time (s) of the compute_root reference ("ref") and of the
given schedulers' schedules for one pipeline, each in this process, at the spec's target. One line per sched: 'CT {...}'."""
import sys, time, json
import run8, halide as hl
ro = run8.run_one
name = sys.argv[1]
spec = run8.run6.pipes6.SPECS[name]
for sched in (sys.argv[2:] or ["ref"]):
    res = dict(pipeline=name, sched=sched, target=str(run8.TARGET))
    try:
        if sched not in ("ref", "none"):
            hl.load_plugin(ro.PLUGINS[sched])
        S, outs, ins, p = ro.build(spec, sched)
        t0 = time.time()
        if sched not in ("ref", "none"):
            p.auto_schedule(sched, run8.TARGET, hl.MachineParams(2, 1 << 20, 40))
        t1 = time.time()
        p.compile_jit(run8.TARGET)
        res.update(schedule_s=round(t1 - t0, 2), compile_s=round(time.time() - t1, 2))
    except Exception as e:
        res['error'] = str(e)[-300:]
    print("CT " + json.dumps(res), flush=True)
