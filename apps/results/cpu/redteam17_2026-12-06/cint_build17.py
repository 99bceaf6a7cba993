"""build every spec with CInt constants (as Adams2019c does) and realize it once at the large shape with no schedule
(catches Python-int pitfalls such as K / 2 -> float). usage: rt17.py r11 ../redteam17_2026-12-06/cint_build17.py [prefix...]"""
import sys, run11, halide as hl
ro, run6 = run11.run_one, run11.run9.run6
for name, spec in run11.pipes11.SPECS.items():
    if len(sys.argv) > 1 and not name.startswith(tuple(sys.argv[1:])):
        continue
    T = hl.Target(run11.pipes11.TARGETS[spec['target']])
    small = ro.default_times(spec)[0]
    keep = ro.make_params
    ro.make_params = lambda sp: {n: run6.CInt(small[n]) for n in sp['ranges']}
    try:
        S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
        _, bufs = ro.run_pipeline(p, S, ins, spec, small); p.realize(bufs, T)
        print("OK", name, flush=True)
    except Exception as e:
        print("FAIL", name, str(e)[-300:], flush=True)
    finally:
        ro.make_params = keep
