"""Extra check (beyond the brief's harness): round 3's check_grid.py on this directory's pipes.py,
in-range values only (GRID_IN_RANGE=1: these pipelines read their Params, so Halide's range
assertion would fire above the range). usage: check_grid5.py <pipeline>"""
import os
import runpy
import sys

here = os.path.dirname(os.path.abspath(__file__))
round3 = os.path.join(here, "..", "redteam3_fixes_2026-11-30")
sys.path.insert(0, here)
import pipes  # noqa: E402,F401  (this directory's: imported first, check_grid reuses it)
sys.path.insert(1, round3)
os.environ["GRID_IN_RANGE"] = "1"
runpy.run_path(os.path.join(round3, "check_grid.py"), run_name="__main__")
