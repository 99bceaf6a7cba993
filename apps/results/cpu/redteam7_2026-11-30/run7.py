"""usage: run7.py <pipeline> <Diet|Adams2019|Adams2019c|Adams2019c@small|Mullapudi2016|none> -> one line 'RESULT {...}'.
Round 6's runner (../redteam6_2026-11-30/run6.py) on this round's pipes7.py: run6 imports `pipes6`, which is
this round's module here; schedules go to ./sched/ of this directory; RT7_TARGET / RT7_TIME_ONLY are its
RT6_TARGET / RT6_TIME_ONLY."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(here, "..", "redteam6_2026-11-30"))
for name in ("TARGET", "TIME_ONLY"):
    if os.environ.get("RT7_" + name):
        os.environ["RT6_" + name] = os.environ["RT7_" + name]
import pipes7
sys.modules['pipes6'] = pipes7
import run6  # noqa: E402
run6.OUT_DIR = here
run_one, TARGET, realize, compare = run6.run_one, run6.TARGET, run6.realize, run6.compare

if __name__ == "__main__":
    run6.main()
