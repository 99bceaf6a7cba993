"""Narrowing the wavenet crash (MicroKernel.cpp:149): a plain matmul C[n,m] = sum_k A[k,m]*B[n,k] consumed by
out[n,m] = C[n,m] + C[n, m + GAP] where GAP is a ranged Param. variants:
  'gap'       GAP appears in no estimate (C's required extent M + GAP depends on a Param outside the shape family)
  'gap_est'   same, but A's estimate is [K, M + GAP] (GAP now appears in an estimate)
  'signed'    out[n,m] = C[n,m] + C[n, m - GAP]  (GAP of unknown sign in the bounds: min(GAP,0), max(GAP,0) terms)
  'offset'    out[n,m] = C[n, m + GAP] (the extent does not depend on GAP, only the min)
usage: repro_crash_param_extent_matmul.py PLUGIN [A|B] [variant]"""
import sys
import halide as hl
plugin = sys.argv[1] if len(sys.argv) > 1 else "/tmp/rt9_diet.so"
tgt = {"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
       "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[2] if len(sys.argv) > 2 else "B"]
variant = sys.argv[3] if len(sys.argv) > 3 else "gap"
hl.load_plugin(plugin)
M = hl.Param(hl.Int(32), "M", 128); M.set_range(1, 128)
N = hl.Param(hl.Int(32), "N", 128); N.set_range(1, 128)
K = hl.Param(hl.Int(32), "K", 64); K.set_range(1, 64)
GAP = hl.Param(hl.Int(32), "GAP", 8); GAP.set_range(0, 8)
A = hl.ImageParam(hl.Float(32), 2, "A"); B = hl.ImageParam(hl.Float(32), 2, "B")
n, m = hl.Var("n"), hl.Var("m")
r = hl.RDom([hl.Range(0, K)], "r")
C = hl.Func("C"); C[n, m] = 0.0; C[n, m] += A[r, m] * B[n, r]
out = hl.Func("out")
if variant == "signed":
    out[n, m] = C[n, m] + C[n, m - GAP]
elif variant == "offset":
    out[n, m] = C[n, m + GAP]
else:
    out[n, m] = C[n, m] + C[n, m + GAP]
A.dim(0).set_estimate(0, K); A.dim(1).set_estimate(0, M + GAP if variant == "gap_est" else M)
B.dim(0).set_estimate(0, N); B.dim(1).set_estimate(0, K)
out.set_estimate(n, 0, N).set_estimate(m, 0, M)
p = hl.Pipeline(out)
try:
    p.auto_schedule("Diet", hl.Target(tgt), hl.MachineParams(2, 1 << 20, 40))
    print(variant, "scheduled OK")
except Exception as e:
    print(variant, "FAILED:", str(e).strip()[:400])
