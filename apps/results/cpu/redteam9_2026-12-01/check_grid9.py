"""usage: check_grid9.py <pipeline> [sched] [max_shapes]: round 6's grid check (../redteam6_2026-11-30/check_grid6.py)
on this round's pipes9.py, through run9.py (target from the spec, or RT9_TARGET)."""
import os, runpy
import run9  # noqa: F401  (makes run6 and its `pipes6` this round's)
runpy.run_path(os.path.join(run9.here, "..", "redteam6_2026-11-30", "check_grid6.py"), run_name="__main__")
