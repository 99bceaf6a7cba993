import sys, run11, halide as hl
ro = run11.run_one
for name in sys.argv[1:]:
    spec = run11.pipes11.SPECS[name]
    T = hl.Target(run11.pipes11.TARGETS[spec['target']])
    try:
        S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
        for v in (ro.default_times(spec)[0], {n: lo for n, (lo, hi) in spec['ranges'].items()}):
            _, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
        print("OK", name, flush=True)
    except Exception as e:
        print("FAIL", name, str(e)[-300:], flush=True)
