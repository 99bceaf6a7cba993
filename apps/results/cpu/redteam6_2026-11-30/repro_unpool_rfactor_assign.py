"""Minimal repro (no Diet needed): rfactor of a scatter update that is a plain ASSIGNMENT (u[idx(r)] = val(r),
no self-reference, so not an associative reduction). Halide 14 accepts the rfactor and the result is wrong.
Diet's schedule for maxpool_unpool_scatter does exactly this (up_unpool.update(0).rfactor(rp$y_chunk)), so the
Diet pipeline is wrong whenever H > 25 (more than one chunk). scatter_last_writer_wins shows the second effect:
elements the scatter never writes get the rfactor intermediate's identity (0) instead of the pure definition (-1),
so it is wrong even with a single chunk (N=1, K=5). Run with the plugin loaded only for part 2.
usage: python3 repro_unpool_rfactor_assign.py [diet_plugin.so]"""
import sys
import numpy as np
import halide as hl

T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")


def build(do_rfactor):
    x, y, xi = hl.Var("x"), hl.Var("y"), hl.Var("xi")
    u = hl.Func("u")
    u[x, y] = 0.0
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    # each (r.x, r.y) writes its own distinct pixel: a permutation-like scatter, no collisions
    u[r.x, 7 - r.y] = hl.f32(r.x + 10 * r.y + 1)
    out = hl.Func("out")
    out[x, y] = u[x, y]
    if do_rfactor:
        u.compute_root()
        ryo, ryi = hl.RVar("ryo"), hl.RVar("ryi")
        u.update(0).split(r.y, ryo, ryi, 2)
        part = u.update(0).rfactor(ryo, hl.Var("chunk"))
        part.compute_root()
    return out


want = np.asarray(build(False).realize([8, 8], T))
got = np.asarray(build(True).realize([8, 8], T))
print("no schedule vs rfactor(assignment) equal:", np.array_equal(want, got))
if not np.array_equal(want, got):
    print("want (no schedule):\n", want.T)
    print("got (rfactor):\n", got.T)

if len(sys.argv) > 1:  # part 2: the same through Diet's scheduler, on the round-6 pipeline
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    os.environ["DIET_PLUGIN"] = sys.argv[1]
    sys.argv = [sys.argv[0], "maxpool_unpool_scatter", "Diet"]
    sys.path.insert(0, here)
    import run6
    hl.load_plugin(os.environ["DIET_PLUGIN"])
    for name, shapes in [("maxpool_unpool_scatter", [dict(W=8, H=25), dict(W=8, H=26), dict(W=300, H=200)]),
                         ("inverse_permutation_scatter", [dict(N=125000), dict(N=125001), dict(N=1000000)]),
                         # one chunk, but bins the scatter never writes get the rfactor identity (0), not the pure value (-1)
                         ("scatter_last_writer_wins", [dict(N=1, K=5), dict(N=10, K=8), dict(N=500000, K=4096)])]:
        spec = run6.pipes6.SPECS[name]
        S, outs, ins, p = run6.run_one.build(spec, "Diet")
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)); p.compile_jit(T)
        rS, routs, rins, rp = run6.run_one.build(spec, "none")  # no schedule at all
        for v in shapes:
            w = run6.realize(rp, rS, rins, spec, v); g = run6.realize(p, S, ins, spec, v)
            print("Diet", name, v, "vs no schedule:", run6.compare(g[0], w[0], None))
