"""Round 19: a Halide 14 lowering bug (NOT Diet; the unscheduled pipeline shows it) found while writing the ray-cast spec.
A Tuple update (key, id) = (select(better, k, key), select(better, r, id)) with better = hit & (k < key) stores component
0 first and then component 1 re-evaluates 'better' with a fresh load of the already-updated component 0, so id never
changes. The lowered Stmt (printed for variant 'sqrt_key') shows 'rc_best.0[t] = select(..)' followed by
'rc_best.1[t] = select(... < (rc_best.0[t] + ...))'. Standalone: nice -n 10 /usr/bin/python3 repro_tuple_halide19.py"""
import numpy as np, halide as hl
T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
vals = hl.Buffer(hl.Int(32), [5]); np.asarray(vals)[:] = [50, 30, 40, 10, 20]
for variant in ["plain_key", "sqrt_key", "offset_key", "no_and", "and_via_select"]:
    x = hl.Var("x"); r = hl.RDom([hl.Range(0, 5)], "r")
    if variant == "plain_key":
        key = vals[r.x]
    elif variant == "sqrt_key":
        key = vals[r.x] * 256 - hl.i32(hl.sqrt(hl.f32(x + 1)) * 256.0)
    else:
        key = vals[r.x] * 256 - x
    best = hl.Func("best_" + variant); best[x] = (hl.i32(1 << 30), hl.i32(-1))
    if variant == "no_and":
        key = vals[r.x]; better = key < best[x][0]
    elif variant == "and_via_select":
        key = vals[r.x]; better = hl.select(x >= 0, key < best[x][0], False)
    else:
        better = (x >= 0) & (key < best[x][0])  # Python '&' on bools: Halide's bitwise_and intrinsic
    best[x] = (hl.select(better, key, best[x][0]), hl.select(better, r.x, best[x][1]))
    ids = hl.Func("ids_" + variant); ids[x] = best[x][1]
    best.compute_root()
    p = hl.Pipeline([ids])
    if variant == "sqrt_key":
        p.compile_to_lowered_stmt("repro_tuple_halide19.stmt", [], hl.StmtOutputFormat.Text, T)
    out = np.asarray(p.realize([3], T))
    print("%-10s id = %s (expected [3 3 3]: the smallest value is at index 3)" % (variant, out), flush=True)
