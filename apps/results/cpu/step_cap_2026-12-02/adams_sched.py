import sys, os, importlib.util
import halide as hl
sys.path.insert(0, '/work/main/apps/results/cpu/redteam10_2026-12-01')
import pipes10
hl.load_plugin('/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so')
spec = pipes10.SPECS[sys.argv[1]]
S = {n: hl.Expr(hi) for n, (lo, hi) in spec['ranges'].items()}
outs, ins = spec['build'](S, dict(S))
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
print(hl.Pipeline(outs).auto_schedule("Adams2019", T, hl.MachineParams(2, 1 << 20, 40)).schedule_source)
