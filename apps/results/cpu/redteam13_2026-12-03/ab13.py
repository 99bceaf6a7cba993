"""usage: rt13.py r11 ../redteam13_2026-12-03/ab13.py PIPELINE [rounds]: round 11's ab11.py (round 9's ab9.py) with the
schedulers named in $AB_SKIP (comma-separated build names: Diet, Mullapudi2016, Adams2019, Adams2019@small, ref) made to
fail at build time, so that they are skipped (used where one scheduler's binary segfaults the whole timing process)."""
import os, sys, runpy
import run11
skip = set(os.environ.get("AB_SKIP", "").split(","))
_build = run11.run_one.build
def build(spec, sched):
    if sched in skip:
        raise RuntimeError("skipped by AB_SKIP")
    return _build(spec, sched)
run11.run_one.build = build
runpy.run_path(os.path.join(run11.here, "..", "redteam11_2026-12-02", "ab11.py"), run_name="__main__")
