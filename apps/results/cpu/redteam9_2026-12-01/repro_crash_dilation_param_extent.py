"""Diet internal error (MicroKernel.cpp:149 'the extent ... of <host> has no value at <shape>'), found on
pipes9's wavenet_gated_dilated_2layers_cinner. Two stacked causal dilated 2-tap convolutions (contractions over
channels c and the tap), the SECOND one reading the first layer's result through a Func at t - r.y*2*DL, where DL is
a ranged int Param used only as a dilation (not as any buffer extent).
usage: repro_crash_dilation_param_extent.py PLUGIN [A|B] [variant]
variants: 'full' (2 layers: filter a, gate g, z = tanh(a)*sigmoid(g), residual contraction, like the spec),
'nogate' (z = tanh(a)), 'nores' (layer output = z, no residual contraction), 'const' (full with DL a constant 2),
'onelayer' (one layer only)."""
import sys
import halide as hl
plugin = sys.argv[1] if len(sys.argv) > 1 else "/tmp/rt9_diet.so"
tgt = {"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
       "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[sys.argv[2] if len(sys.argv) > 2 else "B"]
variant = sys.argv[3] if len(sys.argv) > 3 else "full"
hl.load_plugin(plugin)
C = hl.Param(hl.Int(32), "C", 16); C.set_range(1, 16)
T = hl.Param(hl.Int(32), "T", 1000); T.set_range(1, 1000)
DL = hl.Param(hl.Int(32), "DL", 8); DL.set_range(1, 8)
X = hl.ImageParam(hl.Float(32), 2, "X"); Wf = hl.ImageParam(hl.Float(32), 4, "Wf"); Wg = hl.ImageParam(hl.Float(32), 4, "Wg")
Wr = hl.ImageParam(hl.Float(32), 3, "Wr")
o, t, c = hl.Var("o"), hl.Var("t"), hl.Var("c")
cur = hl.BoundaryConditions.constant_exterior(X, 0.0, [(0, C), (0, T)])
res = None
for l in range(1 if variant == "onelayer" else 2):
    dil = (2 if variant == "const" else DL) * (l + 1)
    r = hl.RDom([hl.Range(0, C), hl.Range(0, 2)], "r%d" % l)
    a = hl.Func("a%d" % l); a[o, t] = 0.0; a[o, t] += Wf[o, r.x, r.y, l] * cur[r.x, t - r.y * dil]
    if variant == "nogate":
        z = hl.Func("z%d" % l); z[o, t] = hl.tanh(a[o, t])
    else:
        g = hl.Func("g%d" % l); g[o, t] = 0.0; g[o, t] += Wg[o, r.x, r.y, l] * cur[r.x, t - r.y * dil]
        z = hl.Func("z%d" % l); z[o, t] = hl.tanh(a[o, t]) / (1.0 + hl.exp(-g[o, t]))
    if variant == "nores":
        res = z
    else:
        rr = hl.RDom([hl.Range(0, C)], "rr%d" % l)
        res = hl.Func("res%d" % l); res[o, t] = cur[o, t]; res[o, t] += Wr[o, rr, l] * z[rr, t]
    if l == 0:
        cur = hl.Func("ce0"); cur[c, t] = hl.select(t >= 0, res[c, hl.max(t, 0)], 0.0)
for ip, ests in ((X, (C, T)), (Wf, (C, C, 2, 2)), (Wg, (C, C, 2, 2)), (Wr, (C, C, 2))):
    for d, e in enumerate(ests):
        ip.dim(d).set_estimate(0, e)
res.set_estimate(o, 0, C).set_estimate(t, 0, T)
p = hl.Pipeline([res])
try:
    p.auto_schedule("Diet", hl.Target(tgt), hl.MachineParams(2, 1 << 20, 40))
    print(variant, "scheduled OK")
except Exception as e:
    print(variant, "FAILED:", str(e).strip()[:500])
