"""does the serial compute_root 'ref' build of a pipeline raise the Param range error at an out-of-range shape?
usage: rt17.py r11 ../redteam17_2026-12-06/probe_oor17.py PREFIX"""
import sys, run11, halide as hl, numpy as np
ro = run11.run_one
name = [k for k in run11.pipes11.SPECS if k.startswith(sys.argv[1])][0]
spec = run11.pipes11.SPECS[name]; T = hl.Target(run11.pipes11.TARGETS[spec['target']])
v = ro.default_tests(spec)[4]
for vv in (v, dict(D=8, N=9, M=643), dict(D=163, N=9, M=9), dict(D=8, N=643, M=9)):
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    try:
        _, bufs = ro.run_pipeline(p, S, ins, spec, vv); p.realize(bufs, T); print(vv, "ran, no range error")
    except Exception as e:
        print(vv, "raised:", str(e).strip()[-120:])
