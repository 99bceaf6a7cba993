"""usage: probe_profile.py PIPELINE SCHED [n=20] [shape=large|small]: build PIPELINE with SCHED (Diet, Mullapudi2016 or ref)
through run11 (target from the spec) with '-profile' appended, realize n times at the harness timing shape and print
Halide's profiler report of the last realize (per-Func time split)."""
import os, sys, io
import run11
import halide as hl
ro = run11.run_one
name, sched = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 20
which = sys.argv[4] if len(sys.argv) > 4 else "large"
spec = run11.pipes11.SPECS[name]
T = hl.Target(str(run11.TARGET) + "-profile")
if sched != "ref":
    hl.load_plugin(ro.PLUGINS[sched])
S, outs, ins, p = ro.build(spec, sched)
if sched != "ref":
    p.auto_schedule(sched, hl.Target(str(run11.TARGET)), hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(T)
v = ro.default_times(spec)[0 if which == "small" else 1]
_, bufs = ro.run_pipeline(p, S, ins, spec, v)
for _ in range(n):
    p.realize(bufs, T)
print("PROFILED", name, sched, v, flush=True)
