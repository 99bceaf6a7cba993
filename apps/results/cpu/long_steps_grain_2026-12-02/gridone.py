"""usage: gridone.py DIR MODULE NAME N  (round 6's grid check on any round's pipes module)"""
import os, sys, runpy, importlib.util
R = '/work/main/apps/results/cpu'
d, mod, name, n = sys.argv[1:5]
sys.path.insert(0, os.path.join(R, d))
spec_ = importlib.util.spec_from_file_location(mod, os.path.join(R, d, mod + ".py"))
m = importlib.util.module_from_spec(spec_); spec_.loader.exec_module(m)
sys.modules['pipes9'] = m
sys.path.insert(1, os.path.join(R, 'redteam9_2026-12-01'))
sys.argv = ['check_grid6.py', name, 'Diet', n]
import run9
run9.run6.OUT_DIR = '/tmp/ab2/out'
runpy.run_path(os.path.join(R, 'redteam6_2026-11-30', 'check_grid6.py'), run_name='__main__')
