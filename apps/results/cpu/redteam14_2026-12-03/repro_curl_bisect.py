"""bisection of the curl/div JIT hang: Diet auto_schedule + compile_jit of one pipes14v variant (RT_PIPES=pipes14v), prints times.
usage: RT_PIPES=pipes14v rt14.py r11 ../redteam14_2026-12-03/repro_curl_bisect.py NAME"""
import sys, time
import halide as hl
import run11
ro = run11.run_one
name = sys.argv[1]
spec = run11.pipes11.SPECS[name]
T = run11.TARGET
hl.load_plugin(ro.PLUGINS["Diet"])
S, outs, ins, p = ro.build(spec, "Diet")
t0 = time.time(); p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)); print(name, "schedule s", round(time.time() - t0, 2), flush=True)
t0 = time.time(); p.compile_jit(T); print(name, "jit s", round(time.time() - t0, 2), flush=True)
