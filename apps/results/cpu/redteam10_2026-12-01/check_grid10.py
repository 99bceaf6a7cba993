"""usage: check_grid10.py <pipeline> [sched] [max_shapes]: round 6's grid check (../redteam6_2026-11-30/check_grid6.py)
on this round's pipes10.py, through run10.py (target from the spec, or RT9_TARGET)."""
import os, runpy
import run10
runpy.run_path(os.path.join(run10.here, "..", "redteam6_2026-11-30", "check_grid6.py"), run_name="__main__")
