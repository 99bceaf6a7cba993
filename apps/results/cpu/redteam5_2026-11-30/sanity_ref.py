"""Sanity check of the algorithms themselves (no autoscheduler): build the reference (all compute_root)
and the fully inlined version, run both at the low, odd and mid test shapes, compare."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(here, "..", "redteam3_fixes_2026-11-30"))
import pipes, run_one
names = sys.argv[1:] or list(pipes.SPECS)
for name in names:
    spec = pipes.SPECS[name]
    try:
        rS, routs, rins, rp = run_one.build(spec, "ref"); rp.compile_jit(run_one.TARGET)
        nS, nouts, nins, np_ = run_one.build(spec, "none"); np_.compile_jit(run_one.TARGET)
        msgs = []
        for v in run_one.default_tests(spec)[:3]:
            _, want = run_one.run_pipeline(rp, rS, rins, spec, v); rp.realize(want, run_one.TARGET)
            _, got = run_one.run_pipeline(np_, nS, nins, spec, v); np_.realize(got, run_one.TARGET)
            oks = [run_one.compare(g, w, spec['tol']) for g, w in zip(got, want)]
            msgs.append("%s:%s" % (v, all(o for o, _ in oks)))
        print(name, "OK", " ".join(msgs))
    except Exception as e:
        print(name, "EXC", str(e)[-500:])
    sys.stdout.flush()
