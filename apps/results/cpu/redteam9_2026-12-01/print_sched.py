"""usage: print_sched.py PIPELINE SCHED: print SCHED's schedule_source for the pipeline (at the spec's target, Params as
estimates; Adams2019 is not usable this way, see the report)."""
import sys
import halide as hl
import run9
ro = run9.run_one
name, sched = sys.argv[1], sys.argv[2]
spec = run9.run6.pipes6.SPECS[name]
hl.load_plugin(ro.PLUGINS[sched])
S, outs, ins, p = ro.build(spec, sched)
print(p.auto_schedule(sched, run9.TARGET, hl.MachineParams(2, 1 << 20, 40)).schedule_source)
