"""usage: rt21.py MODE ARGS...  (round 14's rt14.py pointed at pipes21) Round 11's scripts, unchanged, on this round's spec module (pipes21, or the module named
by $RT_PIPES in this folder): the module is installed as `pipes11` in sys.modules before round 11's run11.py is imported
(run11 -> round 9's run9 -> round 6's run6 -> round 3's run_one), and run6.OUT_DIR / run11.here are pointed at this
folder (schedules go to ./sched and ./sched_avx512). MODE:
  run NAME SCHED       round 9's run9.main(): 5-shape harness + timing, one 'RESULT {...}' line (SCHED: Diet, ref, ...)
  grid NAME [SCHED N]  ../redteam11_2026-12-02/check_grid11.py (round 6's check_grid6.py)
  ab NAME [ROUNDS]     ../redteam11_2026-12-02/ab11.py (round 9's ab9.py: Diet / Mullapudi2016 / Adams2019c / ref)
  smoke | summarize | table [files]   smoke11.py / summarize11.py / table11.py (run from this folder)
  r11 SCRIPT ARGS...   any other round-11 script that does `import run11` (e.g. probe_profile.py NAME SCHED)"""
import importlib, os, runpy, sys
here = os.path.dirname(os.path.abspath(__file__))
R11 = os.path.join(here, "..", "redteam11_2026-12-02")
mode = sys.argv.pop(1)
sys.path.insert(0, here)
sys.modules['pipes11'] = importlib.import_module(os.environ.get("RT_PIPES", "pipes21"))
sys.path.insert(1, R11)
import run11  # noqa: E402
run11.run9.run6.OUT_DIR = here
run11.here = run11.run9.here = here
if mode == "run":
    run11.run9.main()
elif mode == "r11":
    script = sys.argv.pop(1)
    runpy.run_path(os.path.join(R11, script), run_name="__main__")
else:
    script = dict(grid="check_grid11.py", ab="ab11.py", smoke="smoke11.py", summarize="summarize11.py", table="table11.py")[mode]
    runpy.run_path(os.path.join(R11, script), run_name="__main__")
