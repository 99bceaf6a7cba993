"""usage: check_grid9_mp.py <parallelism> <last_level_cache_bytes> <pipeline> [sched] [max_shapes]: check_grid9.py with
other MachineParams (the harness uses MachineParams(2, 1<<20, 40)); same wrapping as round 8's check_grid8_mp.py."""
import sys, os, runpy
import halide as hl
P, LLC = int(sys.argv[1]), int(sys.argv[2])
del sys.argv[1:3]
_orig = hl.MachineParams
hl.MachineParams = lambda a, b, c: _orig(P, LLC, c)
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_grid9.py"), run_name="__main__")
