"""smoke test of the specs themselves: build the compute_root reference of every pipes11 pipeline, JIT it on its own
target and realize it at the harness's small timing shape and at the range's lo shape (no Diet involved; round 11)."""
import sys
import run11
import halide as hl
ro = run11.run_one
for name, spec in run11.pipes11.SPECS.items():
    T = hl.Target(run11.pipes11.TARGETS[spec['target']])
    try:
        S, outs, ins, p = ro.build(spec, "ref")
        p.compile_jit(T)
        for v in (ro.default_times(spec)[0], {n: lo for n, (lo, hi) in spec['ranges'].items()}):
            _, bufs = ro.run_pipeline(p, S, ins, spec, v)
            p.realize(bufs, T)
        print("OK", name, flush=True)
    except Exception as e:
        print("FAIL", name, str(e)[-300:], flush=True)
