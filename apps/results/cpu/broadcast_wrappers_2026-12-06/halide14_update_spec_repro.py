"""Halide 14 alone (no Diet): a Func whose pure stage is specialized on P and whose update is specialized on U,
where P rules U out, loses its update wherever P holds (not only U's branch). usage: python3 halide14_update_spec_repro.py P U E KIND
(KIND scan|accum|pointwise; E the output extent). Found 2026-12-06 when a scan became a root of its own (spectral roll-off).
Output of the runs below in halide14_update_spec_repro.out; the right values are 8256 (scan), 8259 (accum), 6 (pointwise)."""
import halide as hl, numpy as np, sys
x, y = hl.Var("k"), hl.Var("f")
f = hl.Func("cs"); f[x, y] = hl.f32(x)
r = hl.RDom([hl.Range(1, 128)], "rs")
kind = sys.argv[4]
if kind == "scan": f[r.x, y] += f[r.x - 1, y]
elif kind == "accum": f[x, y] += hl.f32(r.x)
elif kind == "pointwise": f[x, y] = f[x, y] * 2
g = hl.Func("g"); g[y] = f[128, y] if kind == "scan" else f[3, y]
E = g.output_buffer().dim(0).extent()
c0, c3, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
f.compute_root()
u = f.update(0)
s0 = f.specialize(eval(c0))
s3 = u.specialize(eval(c3))
o = g.realize([n])
print(kind, c0, "|", c3, "| E =", n, np.asarray(o)[:2])
