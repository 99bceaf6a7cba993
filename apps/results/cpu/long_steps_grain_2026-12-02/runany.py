"""run9.main() on any round's pipes module: RT_DIR, RT_MOD name the round's folder and module."""
import os, sys, importlib.util
R = '/work/main/apps/results/cpu'
d, mod = os.environ['RT_DIR'], os.environ['RT_MOD']
sys.path.insert(0, os.path.join(R, d))
spec_ = importlib.util.spec_from_file_location(mod, os.path.join(R, d, mod + ".py"))
m = importlib.util.module_from_spec(spec_); spec_.loader.exec_module(m)
sys.modules['pipes9'] = m
sys.path.insert(1, os.path.join(R, 'redteam9_2026-12-01'))
import run9
run9.run6.OUT_DIR = '/tmp/ab2/out'
run9.here = '/tmp/ab2/out'
if __name__ == '__main__':
    run9.main()
