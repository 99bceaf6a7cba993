"""Round 22's S2 in Python: am(t) = argmax(logits(rv, t)) over 4096 x 128 logits (rv along the dense dimension), two
outputs (index, value); V, T ranged Params. Diet from $DIET_PLUGIN, target A, median of 20 realizes, index checked
against numpy. SRC=1 prints the schedule."""
import os, time, numpy as np, halide as hl
hl.load_plugin(os.environ.get("DIET_PLUGIN", "/work/main/build/libautoschedule_diet.so"))
V = hl.Param(hl.Int(32), "V", 4096); V.set_range(1, 4096)
T = hl.Param(hl.Int(32), "T", 128); T.set_range(1, 128)
logits = hl.ImageParam(hl.Float(32), 2, "logits")
t = hl.Var("t")
rv = hl.RDom([hl.Range(0, logits.dim(0).extent())], "rv")
am = hl.Func("am"); am[t] = hl.argmax(logits[rv, t])
idx = hl.Func("idx"); idx[t] = hl.i32(am[t][0]) ; 
val = hl.Func("val"); val[t] = am[t][1]
logits.dim(0).set_estimate(0, V); logits.dim(1).set_estimate(0, T)
idx.set_estimate(t, 0, T); val.set_estimate(t, 0, T)
p = hl.Pipeline([idx, val])
TG = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
r = p.auto_schedule(os.environ.get("SCHED", "Diet"), TG, hl.MachineParams(2, 1 << 20, 40))
if os.environ.get("SRC"): print(r.schedule_source)
p.compile_jit(TG)
a = np.asfortranarray(np.random.default_rng(1).standard_normal((4096, 128)).astype(np.float32))
logits.set(hl.Buffer(a)); V.set(4096); T.set(128)
bi = hl.Buffer(hl.Int(32), [128]); bv = hl.Buffer(hl.Float(32), [128])
p.realize([bi, bv], TG); ts = []
for _ in range(20):
    t0 = time.perf_counter(); p.realize([bi, bv], TG); ts.append(time.perf_counter() - t0)
print("median ms", np.median(ts) * 1e3, "ok", (np.asarray(bi) == a.argmax(axis=0)).all())
