"""Standalone (Halide + Diet plugin): the contraction of contract_three_k_chunk_updates_param_split (AVX-512 target 'A')
written two ways and both scheduled by Diet: (a) as in the pipeline, C = bias; three += updates over consecutive K chunks
RDom(0,K1), RDom(K1,K2), RDom(K1+K2,K3); (b) ONE update over RDom(0, K1+K2+K3). Same data, M=256, K1=K2=K3=128, N=256.
Prints Diet's one-line classification of kc_out from its schedule and the median of 10 realizes per round (3 rounds,
interleaved). usage: DIET_PLUGIN=... python3 probe_kchunks_single.py"""
import os, time, numpy as np, halide as hl
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt12/libautoschedule_diet.so"))
M, KK, N = 256, 128, 256
rng = np.random.default_rng(7)
a = np.asfortranarray(rng.standard_normal((3 * KK, M)).astype(np.float32))
b = np.asfortranarray(rng.standard_normal((N, 3 * KK)).astype(np.float32))
bias = rng.standard_normal(N).astype(np.float32)

def build(single):
    A = hl.ImageParam(hl.Float(32), 2, "A"); B = hl.ImageParam(hl.Float(32), 2, "B"); bb = hl.ImageParam(hl.Float(32), 1, "bias")
    P = {k: hl.Param(hl.Int(32), k, v) for k, v in (("M", M), ("K1", KK), ("K2", KK), ("K3", KK))}
    P["M"].set_range(1, 256)
    for k in ("K1", "K2", "K3"):
        P[k].set_range(1, 128)
    n, m = hl.Var("n"), hl.Var("m")
    C = hl.Func("kc_out"); C[n, m] = bb[n]
    if single:
        r = hl.RDom([hl.Range(0, P["K1"] + P["K2"] + P["K3"])], "r")
        C[n, m] += A[r.x, m] * B[n, r.x]
    else:
        for nm, lo, ext in (("r1", 0, P["K1"]), ("r2", P["K1"], P["K2"]), ("r3", P["K1"] + P["K2"], P["K3"])):
            r = hl.RDom([hl.Range(lo, ext)], nm)
            C[n, m] += A[r.x, m] * B[n, r.x]
    K = P["K1"] + P["K2"] + P["K3"]
    A.dim(0).set_estimate(0, K); A.dim(1).set_estimate(0, P["M"]); B.dim(0).set_estimate(0, 256); B.dim(1).set_estimate(0, K)
    bb.dim(0).set_estimate(0, 256); C.set_estimate(n, 0, 256).set_estimate(m, 0, P["M"])
    p = hl.Pipeline(C)
    res = p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    print("single" if single else "3 chunks", [l for l in res.schedule_source.splitlines() if l.startswith("// Func kc_out") or l.startswith("//   ")][:3], flush=True)
    t0 = time.time(); p.compile_jit(T); print("  JIT %.1f s" % (time.time() - t0), flush=True)
    A.set(hl.Buffer(a)); B.set(hl.Buffer(b)); bb.set(hl.Buffer(bias))
    out = hl.Buffer(hl.Float(32), [N, M])
    return p, out

vs = {"3 chunks": build(False), "single update": build(True)}
ref = None
for k, (p, o) in vs.items():
    p.realize(o, T)
    if ref is None:
        ref = np.asarray(o).copy()
    else:
        print("max |diff| single vs chunks:", float(np.abs(np.asarray(o) - ref).max()))
res = {k: [] for k in vs}
for rnd in range(3):
    for k, (p, o) in vs.items():
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(o, T); ts.append(time.perf_counter() - t0)
        res[k].append(np.median(ts) * 1e3)
for k, v in res.items():
    print("%-14s M=256 K1=K2=K3=128: median %.3f ms  rounds %s" % (k, np.median(v), ["%.3f" % t for t in v]), flush=True)
