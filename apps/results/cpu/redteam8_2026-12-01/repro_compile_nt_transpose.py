"""Compile-time repro: Diet's schedule of a plain f32 'NT' matmul C[n,m] = sum_k X[k,m] * W[k,n] (both operands k-innermost)
takes far longer to JIT-compile than the unscheduled pipeline, on the AVX-512 target.
usage: /usr/bin/python3 repro_compile_nt_transpose.py /tmp/rt8_diet.so [A|B] [func|direct]
  A = AVX-512 target (default), B = AVX2 target; 'func' reads W through a transpose Func Wt[n,k] = W[k,n] (default),
  'direct' reads W[r, n] in the update, 'nn' reads W[n, r] (W stored [N,K]: the usual NN layout, for comparison). Prints schedule time, JIT time, and the unscheduled JIT time."""
import sys, time
import halide as hl
plugin = sys.argv[1]
tg = {"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
      "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[2] if len(sys.argv) > 2 else "A"]
form = sys.argv[3] if len(sys.argv) > 3 else "func"
target = hl.Target(tg)
hl.load_plugin(plugin)


def build(diet):
    M, N, K = (hl.Param(hl.Int(32), s, 64) for s in "MNK")
    for p, hi in ((M, 192), (N, 192), (K, 160)):
        p.set_range(1, hi)
    X = hl.ImageParam(hl.Float(32), 2, "X"); W = hl.ImageParam(hl.Float(32), 2, "W")
    n, m, k = hl.Var("n"), hl.Var("m"), hl.Var("k")
    r = hl.RDom([hl.Range(0, K)], "r")
    C = hl.Func("C")
    C[n, m] = 0.0
    if form == "func":
        Wt = hl.Func("Wt"); Wt[n, k] = W[k, n]
        C[n, m] += X[r, m] * Wt[n, r]
    elif form == "direct":
        C[n, m] += X[r, m] * W[r, n]
    else:  # 'nn': W stored [N, K] (n innermost), the usual layout
        C[n, m] += X[r, m] * W[n, r]
    eK, eM, eN = (K, M, N) if diet else (160, 192, 192)  # Diet reads Param estimates; codegen needs constants
    X.dim(0).set_estimate(0, eK); X.dim(1).set_estimate(0, eM); (W.dim(0).set_estimate(0, eN), W.dim(1).set_estimate(0, eK)) if form == 'nn' else (W.dim(0).set_estimate(0, eK), W.dim(1).set_estimate(0, eN))
    C.set_estimate(n, 0, eN).set_estimate(m, 0, eM)
    return hl.Pipeline(C)


p0 = build(False); t0 = time.time(); p0.compile_jit(target); t_ref = time.time() - t0
p = build(True); t0 = time.time(); r = p.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40)); t_s = time.time() - t0
t0 = time.time(); p.compile_jit(target); t_c = time.time() - t0
print("target %s form %s: Diet schedule %.2f s, Diet JIT %.2f s, unscheduled JIT %.2f s, specializations %d"
      % (tg, form, t_s, t_c, t_ref, r.schedule_source.count(".specialize(")))
