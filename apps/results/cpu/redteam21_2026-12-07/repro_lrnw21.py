"""Round 21 step 5: LRN within channel (Caffe WITHIN_CHANNEL), where Diet was slower than Adams2019 at the large shape in
triage. Diet's note: 'Func sum: matmul-like, but no operand is reused across its result (a weighted sum...); scheduled
with the default stage rules' and 'its update's window is sized by the parameter R: unrolled under a specialization per
value (1..3)'. Variants (same math; each timed for Diet, Adams2019 at the constant shape, ref; median of 10 realizes):
  cinner          the spec: [c, x, y, n], window hl.sum over a 2-D RDom(-R..R) of ce^2, ce = constant_exterior(inp)
  planar          the same in planar [x, y, c, n]
  cinner_sqfunc   channels innermost, the square in its own Func sq = ce * ce, window sum over sq
  cinner_noexp    channels innermost, no hl.pow: out = in * ssq-based denominator 1 / (1 + a ssq) (isolates the window sum)
usage: rt21.py r11 ../redteam21_2026-12-07/repro_lrnw21.py [C W H NB R AL]"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np, halide as hl
import repro_util21 as ru

a = [int(s) for s in sys.argv[1:]] or [64, 64, 64, 2, 3, 100]
v = dict(C=a[0], W=a[1], H=a[2], NB=a[3], R=a[4], AL=a[5])
ranges = {'C': (1, 64), 'W': (1, 64), 'H': (1, 64), 'NB': (1, 2), 'R': (0, 3), 'AL': (1, 100)}


def make(layout, sqfunc, powf):
    def build(S, sched):
        inp = hl.ImageParam(hl.Float(32), 4, "inp")
        c, x, y, n = hl.Var("c"), hl.Var("x"), hl.Var("y"), hl.Var("n")
        R = S['R']
        if layout == "cinner":
            ce = hl.BoundaryConditions.constant_exterior(inp, 0.0, [(0, S['C']), (0, S['W']), (0, S['H']), (0, S['NB'])])
            at = lambda f, dx, dy: f[c, x + dx, y + dy, n]
            args = (c, x, y, n); exts = (S['C'], S['W'], S['H'], S['NB'])
        else:
            ce = hl.BoundaryConditions.constant_exterior(inp, 0.0, [(0, S['W']), (0, S['H']), (0, S['C']), (0, S['NB'])])
            at = lambda f, dx, dy: f[x + dx, y + dy, c, n]
            args = (x, y, c, n); exts = (S['W'], S['H'], S['C'], S['NB'])
        funcs = []
        rw = hl.RDom([hl.Range(-R, 2 * R + 1), hl.Range(-R, 2 * R + 1)], "rw")
        if sqfunc:
            sq = hl.Func("lw_sq"); sq[args] = at(ce, 0, 0) * at(ce, 0, 0); funcs.append(sq)
            term = at(sq, rw.x, rw.y)
        else:
            term = at(ce, rw.x, rw.y) * at(ce, rw.x, rw.y)
        ssq = hl.Func("lw_ssq"); ssq[args] = hl.sum(term); funcs.append(ssq)
        nn = hl.f32((2 * R + 1) * (2 * R + 1))
        den = 1.0 + (hl.f32(S['AL']) * 1e-4 / nn) * ssq[args]
        out = hl.Func("lw_out"); out[args] = at(inp, 0, 0) / (hl.pow(den, 0.75) if powf else den); funcs.append(out)
        for k, e in enumerate(exts):
            inp.dim(k).set_estimate(0, e)
        for vv, e in zip(args, exts):
            out.set_estimate(vv, 0, e)
        return [out], [inp], funcs
    return build


rng = np.random.default_rng(7)
print("shape", v, flush=True)
for label, layout, sqf, pw in (("cinner", "cinner", False, True), ("planar", "planar", False, True), ("cinner_sqfunc", "cinner", True, True),
                               ("cinner_noexp", "cinner", False, False)):
    shp = (v['C'], v['W'], v['H'], v['NB']) if layout == "cinner" else (v['W'], v['H'], v['C'], v['NB'])
    data = [ru.fa((rng.standard_normal(shp) * 20).astype(np.float32))]
    ru.time_all(label, make(layout, sqf, pw), ranges, v, data, [(hl.Float(32), list(shp))], ru.TB)
