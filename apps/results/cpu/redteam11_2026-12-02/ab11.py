"""usage: ab11.py PIPELINE [rounds=3]: round 9's in-process alternating timing (../redteam9_2026-12-01/ab9.py: Diet,
Mullapudi2016, Adams2019c (large constant shape), Adams2019c@small, serial compute_root 'ref'; median of 10 realizes per
(round, sched, shape); 'AB {...}' and 'CT {...}' lines) on this round's pipes11, through run11.py."""
import os, sys, runpy
import run11
sys.modules['run9'] = run11
runpy.run_path(os.path.join(run11.here, "..", "redteam9_2026-12-01", "ab9.py"), run_name="__main__")
