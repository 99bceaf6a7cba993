"""usage: check_grid11.py <pipeline> [sched] [max_shapes]: round 6's grid check (../redteam6_2026-11-30/check_grid6.py)
on this round's pipes11.py, through run11.py (target from the spec, or RT9_TARGET)."""
import os, runpy
import run11
runpy.run_path(os.path.join(run11.here, "..", "redteam6_2026-11-30", "check_grid6.py"), run_name="__main__")
