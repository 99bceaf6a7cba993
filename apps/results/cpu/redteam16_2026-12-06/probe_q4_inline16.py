"""q4_0 GEMV: Diet's schedule as is vs Diet's schedule with the dequant Func q4_nib switched to compute_inline()
afterwards (everything else Diet's), vs ref; large and small timing shapes; outputs compared with ref.
usage: rt16.py r11 ../redteam16_2026-12-06/probe_q4_inline16.py"""
import time, json
import numpy as np, halide as hl
import run11
ro = run11.run_one
name = [k for k in run11.pipes11.SPECS if k.startswith("q4_0")][0]
spec = run11.pipes11.SPECS[name]
T = hl.Target(run11.pipes11.TARGETS[spec['target']])
hl.load_plugin(ro.PLUGINS["Diet"])
built = {}
for variant in ("ref", "Diet", "Diet+nib_inline"):
    S, outs, ins, p = ro.build(spec, "ref" if variant == "ref" else "Diet")
    if variant != "ref":
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
        if variant.endswith("nib_inline"):
            for f in run11.pipes11.CREATED:
                if f.name().split("$")[0] == "q4_nib":
                    print("INLINED", f.name(), flush=True)
                    f.compute_inline()
    p.compile_jit(T)
    built[variant] = (S, ins, p)
for shape, v in zip(("small", "large"), ro.default_times(spec)):
    want = None
    for rnd in range(3):
        for variant, (S, ins, p) in built.items():
            _, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
            ts = []
            for _ in range(7):
                t0 = time.perf_counter(); p.realize(bufs, T); ts.append(time.perf_counter() - t0)
            got = np.asarray(bufs[0]).copy()
            if want is None:
                want = got
            ok, msg = ro.compare(got, want, spec['tol'])
            print("PROBE", json.dumps(dict(shape=shape, round=rnd, variant=variant, ms=float(np.median(ts)) * 1e3, ok=ok, msg=msg)), flush=True)
