import os, sys
here = '/work/main/apps/results/cpu/redteam8_2026-12-01'
sys.path.insert(0, here)
import pipes8
sys.modules['pipes9'] = pipes8
sys.path.insert(1, '/work/main/apps/results/cpu/redteam9_2026-12-01')
import run9
run9.run6.OUT_DIR = '/tmp/ab2/out'
run9.here = '/tmp/ab2/out'
if __name__ == '__main__':
    run9.main()
