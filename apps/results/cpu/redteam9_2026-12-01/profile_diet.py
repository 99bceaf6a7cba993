"""usage: profile_diet.py PIPELINE 'K=v,...' [sched=Diet]: Halide's built-in profiler (target feature 'profile') on one
scheduler's schedule at one shape; prints the per-Func report (20 realizes) to stderr."""
import sys
import halide as hl
import run9
ro = run9.run_one
name, shape = sys.argv[1], sys.argv[2]
sched = sys.argv[3] if len(sys.argv) > 3 else "Diet"
spec = run9.run6.pipes6.SPECS[name]
v = {k: int(x) for k, x in (kv.split("=") for kv in shape.split(","))}
T = run9.TARGET.with_feature(hl.TargetFeature.Profile)
if sched != "ref":
    hl.load_plugin(ro.PLUGINS[sched])
S, outs, ins, p = ro.build(spec, sched)
if sched != "ref":
    p.auto_schedule(sched, run9.TARGET, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(T)
b = run9.realize(p, S, ins, spec, v)
for _ in range(20):
    p.realize(b, T)
