"""Shared by grid_any.py and time_any.py: one red-team pipeline of any round, scheduled with Diet
(DIET_PLUGIN) and JIT-compiled through round 3's harness (run_one.py)."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))


def scheduled(round_dir, name):
    """(run_one, spec, S, ins, p) for pipeline `name` of the round in `round_dir`."""
    sys.path.insert(0, os.path.abspath(round_dir))
    # The round's own pipelines (run_one reuses them as `pipes`): pipes.py, or rounds 6 and 7's
    # pipes6.py / pipes7.py.
    import importlib
    for mod in ("pipes", "pipes6", "pipes7", "pipes8", "pipes9"):
        if os.path.exists(os.path.join(round_dir, mod + ".py")):
            pipes = importlib.import_module(mod)
            sys.modules["pipes"] = pipes
            break
    sys.path.append(os.path.join(here, "..", "redteam3_fixes_2026-11-30"))
    import halide as hl
    import run_one
    # DIET_AB_TARGET=A|B: the AVX-512 or the AVX2 target (default: run_one's, AVX2).
    which = os.environ.get("DIET_AB_TARGET")
    if which:
        run_one.TARGET = hl.Target({"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
                                    "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[which])
    spec = pipes.SPECS[name]
    hl.load_plugin(run_one.PLUGINS["Diet"])
    S, outs, ins, p = run_one.build(spec, "Diet")
    p.auto_schedule("Diet", run_one.TARGET, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(run_one.TARGET)
    return run_one, spec, S, ins, p
