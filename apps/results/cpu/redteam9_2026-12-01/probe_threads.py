"""usage: HL_NUM_THREADS=n probe_threads.py PIPELINE [sched...]: median of 15 realizes at the spec's large timing shape for
each scheduler (default Diet and Mullapudi2016); run with HL_NUM_THREADS=1 and =2 to see whether a schedule uses both cores."""
import sys, time, os
import numpy as np, halide as hl
import run9
ro = run9.run_one
name = sys.argv[1]; scheds = sys.argv[2:] or ["Diet", "Mullapudi2016"]
spec = run9.run6.pipes6.SPECS[name]
v = ro.default_times(spec)[1]
for sched in scheds:
    if sched != "ref":
        hl.load_plugin(ro.PLUGINS[sched])
    S, outs, ins, p = ro.build(spec, sched)
    if sched != "ref":
        p.auto_schedule(sched, run9.TARGET, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(run9.TARGET)
    b = run9.realize(p, S, ins, spec, v)
    ts = []
    for _ in range(15):
        t0 = time.perf_counter(); p.realize(b, run9.TARGET); ts.append(time.perf_counter() - t0)
    print("%s %s HL_NUM_THREADS=%s: %.4f ms" % (name, sched, os.environ.get("HL_NUM_THREADS", "-"), np.median(ts) * 1e3), flush=True)
