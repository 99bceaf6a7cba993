"""Round 21 step 5: isolate what makes Diet slower than Adams2019 on the grouped 3x3 convolution (NCHW [x, y, c, n], f32).
Diet's note: 'Func sum: matmul-like, but no operand is reused across its result (a weighted sum, not a product of
matrices); scheduled with the default stage rules'. Variants, each timed for Diet, Adams2019 (constant shape) and the
compute_root ref (repro_util21.time_all: median of 10 realizes; outputs checked against ref):
  grouped        the spec: in[x + kx - 1, y + ky - 1, (co / COG) * CIG + cig, n] through constant_exterior, hl.sum over (kx, ky, cig)
  grouped_valid  the same without the boundary condition: input pre-padded (W + 2, H + 2), in[x + kx, y + ky, ...]
  dense          an ordinary 3x3 conv over all CI = G * CIG input channels (ci = r.z, no division), constant_exterior
  dense_valid    ordinary conv, pre-padded input
  grouped_5d     the grouped conv with the group as its own dimension (input [x, y, cig, g, n], output [x, y, cog, g, n]): no division in any index
usage: rt21.py r11 ../redteam21_2026-12-07/repro_gconv21.py [W H G CIG COG NB]"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np, halide as hl
import repro_util21 as ru

a = [int(s) for s in sys.argv[1:]] or [64, 64, 8, 8, 8, 2]
v = dict(W=a[0], H=a[1], G=a[2], CIG=a[3], COG=a[4], NB=a[5])
ranges = {'W': (1, 64), 'H': (1, 64), 'G': (1, 8), 'CIG': (1, 8), 'COG': (1, 8), 'NB': (1, 2)}


def make(grouped, valid):
    def build(S, sched):
        inp = hl.ImageParam(hl.Float(32), 4, "inp"); bias = hl.ImageParam(hl.Float(32), 1, "bias")
        w = hl.ImageParam(hl.Float(32), 4, "w")
        x, y, co, n = hl.Var("x"), hl.Var("y"), hl.Var("co"), hl.Var("n")
        CIG, COG, G = S['CIG'], S['COG'], S['G']
        CI = CIG if grouped else G * CIG
        src = inp if valid else hl.BoundaryConditions.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H'])])
        off = 0 if valid else -1
        r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3), hl.Range(0, CI)], "rk")
        ci = (co // COG) * CIG + r.z if grouped else r.z
        out = hl.Func("gc_out")
        out[x, y, co, n] = bias[co] + hl.sum(w[r.x, r.y, r.z, co] * src[x + r.x + off, y + r.y + off, ci, n])
        pw = 2 if valid else 0
        inp.dim(0).set_estimate(0, S['W'] + pw); inp.dim(1).set_estimate(0, S['H'] + pw); inp.dim(2).set_estimate(0, G * CIG); inp.dim(3).set_estimate(0, S['NB'])
        w.dim(0).set_estimate(0, 3); w.dim(1).set_estimate(0, 3); w.dim(2).set_estimate(0, CI); w.dim(3).set_estimate(0, G * COG)
        bias.dim(0).set_estimate(0, G * COG)
        out.set_estimate(x, 0, S['W']).set_estimate(y, 0, S['H']).set_estimate(co, 0, G * COG).set_estimate(n, 0, S['NB'])
        return [out], [inp, w, bias], [out]
    return build


def build5d(S, sched):
    """the same grouped conv with the group as its own dimension (no division in any index): input [x, y, cig, g, n],
    weights [kx, ky, cig, cog, g], output [x, y, cog, g, n] (the same memory layout as the 4-D spec)"""
    inp = hl.ImageParam(hl.Float(32), 5, "inp"); w = hl.ImageParam(hl.Float(32), 5, "w"); bias = hl.ImageParam(hl.Float(32), 2, "bias")
    x, y, cog, g, n = hl.Var("x"), hl.Var("y"), hl.Var("cog"), hl.Var("g"), hl.Var("n")
    CIG, COG, G = S['CIG'], S['COG'], S['G']
    ce = hl.BoundaryConditions.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H'])])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3), hl.Range(0, CIG)], "rk")
    out = hl.Func("gc5_out")
    out[x, y, cog, g, n] = bias[cog, g] + hl.sum(w[r.x, r.y, r.z, cog, g] * ce[x + r.x - 1, y + r.y - 1, r.z, g, n])
    for k, e in enumerate((S['W'], S['H'], CIG, G, S['NB'])):
        inp.dim(k).set_estimate(0, e)
    for k, e in enumerate((3, 3, CIG, COG, G)):
        w.dim(k).set_estimate(0, e)
    bias.dim(0).set_estimate(0, COG); bias.dim(1).set_estimate(0, G)
    out.set_estimate(x, 0, S['W']).set_estimate(y, 0, S['H']).set_estimate(cog, 0, COG).set_estimate(g, 0, G).set_estimate(n, 0, S['NB'])
    return [out], [inp, w, bias], [out]


rng = np.random.default_rng(7)
CI = v['G'] * v['CIG']; CO = v['G'] * v['COG']
print("shape", v, flush=True)
for label, grouped, valid in (("grouped", True, False), ("grouped_valid", True, True), ("dense", False, False), ("dense_valid", False, True)):
    pw = 2 if valid else 0
    data = [ru.fa(rng.standard_normal((v['W'] + pw, v['H'] + pw, CI, v['NB'])).astype(np.float32)),
            ru.fa(rng.standard_normal((3, 3, v['CIG'] if grouped else CI, CO)).astype(np.float32)), ru.fa(rng.standard_normal((CO,)).astype(np.float32))]
    ru.time_all(label, make(grouped, valid), ranges, v, data, [(hl.Float(32), [v['W'], v['H'], CO, v['NB']])], ru.TB)
data = [ru.fa(rng.standard_normal((v['W'], v['H'], v['CIG'], v['G'], v['NB'])).astype(np.float32)),
        ru.fa(rng.standard_normal((3, 3, v['CIG'], v['COG'], v['G'])).astype(np.float32)), ru.fa(rng.standard_normal((v['COG'], v['G'])).astype(np.float32))]
ru.time_all("grouped_5d", build5d, ranges, v, data, [(hl.Float(32), [v['W'], v['H'], v['COG'], v['G'], v['NB']])], ru.TB)
