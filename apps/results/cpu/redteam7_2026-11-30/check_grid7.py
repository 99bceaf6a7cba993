"""usage: check_grid7.py <pipeline> [sched] [max_shapes]: round 6's grid check (../redteam6_2026-11-30/check_grid6.py)
on this round's pipes7.py, through run7.py."""
import os, runpy
import run7  # noqa: F401  (makes run6 and its `pipes6` this round's)
runpy.run_path(os.path.join(run7.here, "..", "redteam6_2026-11-30", "check_grid6.py"), run_name="__main__")
