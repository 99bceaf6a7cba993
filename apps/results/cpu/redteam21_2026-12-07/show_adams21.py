"""print Adams2019's schedule_source (constant large shape, as 'Adams2019c' in ab) for one pipeline (no JIT).
usage: rt21.py r11 ../redteam21_2026-12-07/show_adams17.py NAME"""
import sys
import halide as hl
import run11
ro, run6 = run11.run_one, run11.run9.run6
name = sys.argv[1]
spec = run11.pipes11.SPECS[name]
T = hl.Target(run11.pipes11.TARGETS[spec['target']])
hl.load_plugin(ro.PLUGINS["Adams2019"])
large = ro.default_times(spec)[1]
keep = ro.make_params
ro.make_params = lambda sp: {n: run6.CInt(large[n]) for n in sp['ranges']}
try:
    S, outs, ins, p = ro.build(spec, "Adams2019")
finally:
    ro.make_params = keep
r = p.auto_schedule("Adams2019", T, hl.MachineParams(2, 1 << 20, 40))
print(r.schedule_source)
