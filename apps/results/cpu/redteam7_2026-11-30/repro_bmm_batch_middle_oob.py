"""Repro (round 7): Diet's schedule for a batched matmul with the batch in the MIDDLE dim,
out[n,b,m] = sum_k W[n,k] * X[k,b,m], reads the input X out of bounds (m = -3) at in-range shapes.
usage: DIET_PLUGIN=/tmp/rt7_diet.so /usr/bin/python3 repro_bmm_batch_middle_oob.py"""
import os
import numpy as np
import halide as hl

T = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt7_diet.so"))
P = {}
for n, hi in (("K", 128), ("N", 128), ("B", 12), ("M", 48)):
    P[n] = hl.Param(hl.Int(32), n, hi); P[n].set_range(1, hi)
X = hl.ImageParam(hl.Float(32), 3, "X"); Wt = hl.ImageParam(hl.Float(32), 2, "Wt")
n, b, m = hl.Var("n"), hl.Var("b"), hl.Var("m")
r = hl.RDom([hl.Range(0, P['K'])], "r")
o = hl.Func("bsw_out")
o[n, b, m] = 0.0
o[n, b, m] += Wt[n, r] * X[r, b, m]
for i, e in enumerate((P['K'], P['B'], P['M'])): X.dim(i).set_estimate(0, e)
for i, e in enumerate((P['N'], P['K'])): Wt.dim(i).set_estimate(0, e)
for v, e in zip((n, b, m), (P['N'], P['B'], P['M'])): o.set_estimate(v, 0, e)
p = hl.Pipeline(o)
p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(T)


def run(K, N, B, M):
    rng = np.random.default_rng(1)
    xa = np.asfortranarray(rng.standard_normal((K, B, M)).astype(np.float32))
    wa = np.asfortranarray(rng.standard_normal((N, K)).astype(np.float32))
    xb = hl.Buffer(hl.Float(32), [K, B, M]); np.asarray(xb)[...] = xa; X.set(xb)
    wb = hl.Buffer(hl.Float(32), [N, K]); np.asarray(wb)[...] = wa; Wt.set(wb)
    for k, v in (("K", K), ("N", N), ("B", B), ("M", M)): P[k].set(v)
    out = hl.Buffer(hl.Float(32), [N, B, M])
    try:
        p.realize(out, T)
    except Exception as e:
        return "EXCEPTION: " + str(e).strip()
    want = np.einsum("nk,kbm->nbm", wa, xa)
    return "max abs err %g" % float(np.max(np.abs(np.asarray(out) - want)))


for shp in [(61, 61, 3, 21), (1, 24, 1, 4), (1, 24, 3, 4), (1, 24, 4, 4), (1, 23, 1, 4), (1, 24, 1, 3), (128, 128, 12, 48), (128, 128, 1, 48)]:
    print("K=%d N=%d B=%d M=%d:" % shp, run(*shp))
