"""Kahan row sums (kahan_rowsum_tuple_f64_exact): compare Diet and the compute_root reference against a sequential
numpy Kahan loop and a sequential naive loop, to see which of them keeps the compensation. usage: probe_kahan.py [W H]"""
import sys
import numpy as np, halide as hl
import run9
ro = run9.run_one
spec = run9.run6.pipes6.SPECS["kahan_rowsum_tuple_f64_exact"]
v = {'W': int(sys.argv[1]) if len(sys.argv) > 1 else 1497, 'H': int(sys.argv[2]) if len(sys.argv) > 2 else 97}
hl.load_plugin(ro.PLUGINS["Diet"])
res = {}
for sched in ("ref", "Diet"):
    S, outs, ins, p = ro.build(spec, sched)
    if sched == "Diet":
        p.auto_schedule("Diet", run9.TARGET, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(run9.TARGET)
    res[sched] = [np.asarray(b).copy() for b in run9.realize(p, S, ins, spec, v)]
data = spec['data'](v, np.random.default_rng(7))[0]
kah = np.zeros(v['H']); naive = np.zeros(v['H'])
for y in range(v['H']):
    s = 0.0; c = 0.0; n = 0.0
    for x in range(v['W']):
        yy = data[x, y] - c; t = s + yy; c = (t - s) - yy; s = t; n += data[x, y]
    kah[y] = s; naive[y] = n
for sched, (s, c) in res.items():
    print("%s: rows == numpy Kahan %d/%d, == numpy naive %d/%d, comp all zero: %s" % (
        sched, int((s == kah).sum()), v['H'], int((s == naive).sum()), v['H'], bool((c == 0).all())))
