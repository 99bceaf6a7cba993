"""print Diet's schedule_source for one pipeline (no JIT). usage: rt21.py r11 ../redteam21_2026-12-07/show_sched19.py NAME"""
import sys
import halide as hl
import run11
ro = run11.run_one
name = sys.argv[1]
spec = run11.pipes11.SPECS[name]
T = hl.Target(run11.pipes11.TARGETS[spec['target']])
hl.load_plugin(ro.PLUGINS["Diet"])
S, outs, ins, p = ro.build(spec, "Diet")
r = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
print(r.schedule_source)
