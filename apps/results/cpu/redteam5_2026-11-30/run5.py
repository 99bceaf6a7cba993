"""usage: run5.py <pipeline> <Diet|Adams2019|Adams2019@small|Mullapudi2016|none>: round 4's runner
(../redteam4_contractions_2026-11-30/run4.py, round 3's harness) on this directory's pipes.py."""
import os
import runpy
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import pipes  # noqa: E402,F401  (this directory's: imported first, the runner reuses it)
runpy.run_path(os.path.join(here, "..", "redteam4_contractions_2026-11-30", "run4.py"), run_name="__main__")
