"""usage: rt21.py r11 ../redteam21_2026-12-07/ab21.py PIPELINE [rounds]: round 9's ab9.py unchanged except that the
scheduler list comes from $AB_SCHEDS (comma-separated; default all five). Used for pipelines where one scheduler
(Mullapudi2016) never finishes scheduling, which would otherwise lose the whole ab process to the timeout."""
import os, sys
import run11
sys.modules['run9'] = run11
src = open(os.path.join(run11.here, "..", "redteam9_2026-12-01", "ab9.py")).read()
default = '("Diet", "Mullapudi2016", "Adams2019c", "Adams2019c@small", "ref")'
assert default in src
src = src.replace(default, 'tuple(os.environ.get("AB_SCHEDS", "Diet,Mullapudi2016,Adams2019c,Adams2019c@small,ref").split(","))')
exec(compile(src, "ab9.py", "exec"), {"__name__": "__main__"})
