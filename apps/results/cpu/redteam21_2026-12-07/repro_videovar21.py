"""Round 21 step 5: the video median + box at the small shape 81x61x2 (AVX-512 target), where Diet was ~1.9x Adams2019c
in both passes. Variants of the boundary handling (same values everywhere), timed for Diet, Adams2019 (constant shape),
ref (repro_util21.time_all, median of 10 realizes, outputs checked against ref):
  spec          repeat_edge Func on the input (t), mirror_interior Func on the computed median (x, y), box by hl.lambda_func
  clamp_t       the temporal neighbours by hl.clamp(t +- 1, 0, T - 1) in the index (no repeat_edge Func), mirror_interior kept
  mirror_idx    repeat_edge kept, the spatial mirror written as index arithmetic (no mirror_interior Func)
  both_idx      no boundary Funcs at all (both as index expressions)
CAVEAT (found on the first run, 13:28; the outer clamp in mi() was added afterwards to fix it): the select-based mirror index makes Halide's bounds inference compute the median over
about 3x the frame (the -i branch is unbounded below), so 'mirror_idx' is not comparable, and 'both_idx' reads the input
out of bounds ('Input buffer vid is accessed at -79') and stops the script: a flaw of this variant, not of any scheduler.
usage: rt21.py r11 ../redteam21_2026-12-07/repro_videovar21.py [W H T]"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np, halide as hl
import repro_util21 as ru

a = [int(s) for s in sys.argv[1:]] or [81, 61, 2]
v = dict(W=a[0], H=a[1], T=a[2])
ranges = {'W': (1, 640), 'H': (1, 480), 'T': (1, 8)}


def mi(i, n):  # mirror_interior for offsets of at most 1 (n >= 1); the outer clamp only bounds the region for bounds inference
    return hl.clamp(hl.select(n == 1, 0, hl.select(i < 0, -i, hl.select(i >= n, 2 * (n - 1) - i, i))), 0, n - 1)


def make(bc_t, bc_xy):
    def build(S, sched):
        vid = hl.ImageParam(hl.UInt(8), 3, "vid")
        x, y, t = hl.Var("x"), hl.Var("y"), hl.Var("t")
        W, H, T = S['W'], S['H'], S['T']
        if bc_t:
            ve = hl.BoundaryConditions.repeat_edge(vid, [(0, W), (0, H), (0, T)])
            a_, b_, c_ = ve[x, y, t - 1], ve[x, y, t], ve[x, y, t + 1]
        else:
            a_, b_, c_ = vid[x, y, hl.clamp(t - 1, 0, T - 1)], vid[x, y, t], vid[x, y, hl.clamp(t + 1, 0, T - 1)]
        med = hl.Func("vm_median"); med[x, y, t] = hl.max(hl.min(a_, b_), hl.min(hl.max(a_, b_), c_))
        if bc_xy:
            mm = hl.BoundaryConditions.mirror_interior(med, [(0, W), (0, H)])
            at = lambda dx, dy: mm[x + dx, y + dy, t]
        else:
            at = lambda dx, dy: med[mi(x + dx, W), mi(y + dy, H), t]
        box = hl.lambda_func(x, y, t, sum(hl.u16(at(dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)))
        out = hl.Func("vm_out"); out[x, y, t] = hl.u8((box[x, y, t] + 4) // 9)
        vid.dim(0).set_estimate(0, W); vid.dim(1).set_estimate(0, H); vid.dim(2).set_estimate(0, T)
        out.set_estimate(x, 0, W).set_estimate(y, 0, H).set_estimate(t, 0, T)
        return [out], [vid], [med, out]
    return build


rng = np.random.default_rng(7)
data = [ru.fa(rng.integers(0, 256, size=(v['W'], v['H'], v['T'])).astype(np.uint8))]
print("shape", v, flush=True)
for label, bt, bxy in (("spec", True, True), ("clamp_t", False, True), ("mirror_idx", True, False), ("both_idx", False, False)):
    ru.time_all(label, make(bt, bxy), ranges, v, data, [(hl.UInt(8), [v['W'], v['H'], v['T']])], ru.TA)
