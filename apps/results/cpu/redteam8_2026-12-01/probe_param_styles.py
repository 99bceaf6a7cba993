"""Matmul with the RDom / shapes given in other user styles (RDom over A.dim(0).extent(), set_bounds constraints on inputs or the output, RDom from the buffer min): Diet schedule + JIT + numpy check at 6 shapes. usage: probe_param_styles.py [target] (uses /tmp/rt8_diet.so)"""
import halide as hl, numpy as np, sys, time, traceback
hl.load_plugin("/tmp/rt8_diet.so")
T = hl.Target(sys.argv[1] if len(sys.argv) > 1 else "x86-64-linux-avx-avx2-f16c-fma-sse41")
F32 = hl.Float(32)
def fa(a): b = np.empty(a.shape, a.dtype, order='F'); b[...] = a; return b

def case(style):
    M = hl.Param(hl.Int(32), "M", 64); M.set_range(1, 160)
    N = hl.Param(hl.Int(32), "N", 64); N.set_range(1, 160)
    K = hl.Param(hl.Int(32), "K", 64); K.set_range(1, 128)
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = hl.Var("n"), hl.Var("m")
    if style == "rdom_buffer_extent":
        r = hl.RDom([hl.Range(0, A.dim(0).extent())], "r")
    elif style == "bounds_constraint":
        A.dim(0).set_bounds(0, K); A.dim(1).set_bounds(0, M); B.dim(0).set_bounds(0, N); B.dim(1).set_bounds(0, K)
        r = hl.RDom([hl.Range(0, K)], "r")
    elif style == "output_bounds_constraint":
        r = hl.RDom([hl.Range(0, K)], "r")
    elif style == "rdom_from_buffer_extent_min":
        r = hl.RDom([hl.Range(A.dim(0).min(), A.dim(0).extent())], "r")
    C = hl.Func("C"); C[n, m] = 0.0; C[n, m] += A[r, m] * B[n, r]
    if style == "output_bounds_constraint":
        C.output_buffer().dim(0).set_bounds(0, N); C.output_buffer().dim(1).set_bounds(0, M)
    A.dim(0).set_estimate(0, K); A.dim(1).set_estimate(0, M); B.dim(0).set_estimate(0, N); B.dim(1).set_estimate(0, K)
    C.set_estimate(n, 0, N).set_estimate(m, 0, M)
    p = hl.Pipeline(C)
    p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    t0 = time.time(); p.compile_jit(T); ct = time.time() - t0
    rng = np.random.default_rng(1); bad = 0
    for (mv, nv, kv) in ((1, 1, 1), (160, 160, 128), (7, 33, 5), (100, 3, 128), (3, 100, 1), (64, 64, 64)):
        a = fa(rng.standard_normal((kv, mv)).astype(np.float32)); b = fa(rng.standard_normal((nv, kv)).astype(np.float32))
        ha = hl.Buffer(F32, [kv, mv]); np.asarray(ha)[...] = a; hb = hl.Buffer(F32, [nv, kv]); np.asarray(hb)[...] = b; A.set(ha); B.set(hb); M.set(mv); N.set(nv); K.set(kv)
        o = hl.Buffer(F32, [nv, mv]); p.realize(o, T)
        want = (a.T.astype(np.float64) @ b.T.astype(np.float64)).T
        err = np.max(np.abs(np.asarray(o) - want)); bad += err > 1e-3 * (1 + np.max(np.abs(want)))
    print(style, "compile %.2f s" % ct, "bad shapes:", bad, flush=True)

for s in ("rdom_buffer_extent", "bounds_constraint", "output_bounds_constraint", "rdom_from_buffer_extent_min"):
    try:
        case(s)
    except Exception as e:
        print(s, "EXC", str(e)[:400], flush=True)
