"""usage: run11.py <pipeline> <Diet|Adams2019c|Adams2019c@small|Mullapudi2016|none|ref> -> one line 'RESULT {...}'.
A thin wrapper: imports round 9's run9.py (../redteam9_2026-12-01) with this round's pipes11 standing in for `pipes9`
(so round 6's run6 / round 3's run_one run pipes11's specs, target from the spec's 'A'/'B' unless RT9_TARGET is set),
then points the schedule output directory at this folder (./sched, ./sched_avx512). The 'ref' handling is run9's
main()."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import pipes11
sys.modules['pipes9'] = pipes11
sys.path.insert(1, os.path.join(here, "..", "redteam9_2026-12-01"))
import run9  # noqa: E402
run9.run6.OUT_DIR = here
run9.here = here
run6, run_one, TARGET, realize, compare = run9.run6, run9.run_one, run9.TARGET, run9.realize, run9.compare
sys.modules['run11'] = sys.modules[__name__]

if __name__ == "__main__":
    run9.main()
