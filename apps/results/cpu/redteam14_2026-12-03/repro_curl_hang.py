"""repro for the curl/div pipeline timeout: times Diet auto_schedule, compile_jit and each realize separately (faulthandler
dumps the Python stack every 60 s if something hangs). usage: rt14.py r11 ../redteam14_2026-12-03/repro_curl_hang.py SCHED [NX NY NZ]"""
import sys, time, faulthandler
import halide as hl
import run11
faulthandler.dump_traceback_later(60, repeat=True)
ro, run6 = run11.run_one, run11.run9.run6
name = "curl_div_4th_order_interleaved_vec3_tuple_curl_func_0d_enstrophy"
sched = sys.argv[1]
spec = run11.pipes11.SPECS[name]
T = run11.TARGET
S, outs, ins, p = ro.build(spec, sched)
t0 = time.time()
if sched == "Diet":
    hl.load_plugin(ro.PLUGINS["Diet"])
    p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
print("schedule s", round(time.time() - t0, 2), flush=True)
t0 = time.time(); p.compile_jit(T); print("jit s", round(time.time() - t0, 2), flush=True)
dims = [int(a) for a in sys.argv[2:5]] or [4, 4, 4]
v = dict(NX=dims[0], NY=dims[1], NZ=dims[2])
t0 = time.time(); bufs = run6.realize(p, S, ins, spec, v); print("realize", v, "s", round(time.time() - t0, 3), flush=True)
