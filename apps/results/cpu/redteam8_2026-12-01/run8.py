"""usage: run8.py <pipeline> <Diet|Adams2019|Adams2019c|Adams2019c@small|Mullapudi2016|none> -> one line 'RESULT {...}'.
Round 6's runner (../redteam6_2026-11-30/run6.py) on this round's pipes8.py (same wrapping as round 7's run7.py):
run6 imports `pipes6`, which is pipes8 here; schedules go to ./sched/ (AVX2) or ./sched_avx512/ of this directory.
The target is the spec's `target` ('A' AVX-512, 'B' AVX2) unless RT8_TARGET is set; RT8_TIME_ONLY -> RT6_TIME_ONLY."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(here, "..", "redteam6_2026-11-30"))
import pipes8
if os.environ.get("RT8_TIME_ONLY"):
    os.environ["RT6_TIME_ONLY"] = os.environ["RT8_TIME_ONLY"]
_name = next((a for a in sys.argv[1:] if a in pipes8.SPECS), None)
if os.environ.get("RT8_TARGET"):
    os.environ["RT6_TARGET"] = os.environ["RT8_TARGET"]
elif _name:
    os.environ["RT6_TARGET"] = pipes8.TARGETS[pipes8.SPECS[_name].get('target', 'B')]
sys.modules['pipes6'] = pipes8
import run6  # noqa: E402
run6.OUT_DIR = here
run_one, TARGET, realize, compare = run6.run_one, run6.TARGET, run6.realize, run6.compare

if __name__ == "__main__":
    run6.main()
