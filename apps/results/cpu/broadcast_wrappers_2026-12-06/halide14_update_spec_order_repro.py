"""Halide 14 alone: the pure stage specialized on P = (E <= 100), the update on the conditions given in order; the
update is lost where P holds when its first specialization is one P rules out. usage: python3 halide14_update_spec_order_repro.py U... E"""
import halide as hl, numpy as np, sys
x, y = hl.Var("k"), hl.Var("f")
f = hl.Func("cs"); f[x, y] = hl.f32(x)
r = hl.RDom([hl.Range(1, 128)], "rs")
f[r.x, y] += f[r.x - 1, y]
g = hl.Func("g"); g[y] = f[128, y]
E = g.output_buffer().dim(0).extent()
f.compute_root()
u = f.update(0)
s0 = f.specialize(E <= 100)
for c in sys.argv[1:-1]: u.specialize(eval(c))
n = int(sys.argv[-1])
o = g.realize([n])
print("P: E<=100 | U:", sys.argv[1:-1], "| E =", n, np.asarray(o)[:1], "(right: 8256)")
