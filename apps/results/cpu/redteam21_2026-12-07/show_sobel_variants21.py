"""prints Diet's notes (stderr) and schedule_source for repro_sobel21's 'no_count' and 'no_wrap_img' variants (no JIT)"""
import sys, os
sys.argv = [sys.argv[0]]
here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here)
src = open(os.path.join(here, "repro_sobel21.py")).read().split("rng = np.random.default_rng(7)")[0]
g = {"__name__": "x", "__file__": os.path.join(here, "repro_sobel21.py")}; exec(compile(src, "repro_sobel21.py", "exec"), g)
import halide as hl
ru = g['ru']
for label, wrap in (("no_count", True), ("no_wrap_img", False)):
    S = ru.params(g['ranges'])
    outs, ins, funcs = g['make'](wrap, "img")(S, "Diet")
    p = hl.Pipeline(outs)
    r = p.auto_schedule("Diet", hl.Target(ru.TB), hl.MachineParams(2, 1 << 20, 40))
    print("=" * 30, label, flush=True)
    print(r.schedule_source, flush=True)
