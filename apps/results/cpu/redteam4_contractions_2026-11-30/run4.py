"""usage: run4.py <pipeline> <Diet|Adams2019|Adams2019@small|Mullapudi2016|none>: round 3's harness
(../redteam3_fixes_2026-11-30/run_one.py: checks against the unscheduled algorithm at 5 shapes, one
above the range, then times a small and a large shape) on this directory's pipes.py."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(here, "..", "redteam3_fixes_2026-11-30"))
import pipes  # noqa: E402  (this directory's, first on the path)
import run_one  # noqa: E402
os.makedirs("/tmp/redteam3_rerun/sched", exist_ok=True)
run_one.main()
