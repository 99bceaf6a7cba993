"""usage: check_grid8.py <pipeline> [sched] [max_shapes]: round 6's grid check (../redteam6_2026-11-30/check_grid6.py)
on this round's pipes8.py, through run8.py (target from the spec)."""
import os, runpy
import run8  # noqa: F401  (makes run6 and its `pipes6` this round's)
runpy.run_path(os.path.join(run8.here, "..", "redteam6_2026-11-30", "check_grid6.py"), run_name="__main__")
