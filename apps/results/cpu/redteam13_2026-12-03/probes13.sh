#!/bin/bash
# round-13 hand-schedule probes through round 12's probe12.py (Diet's schedule +/- changes, HAND: schedules without Diet)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt13/libautoschedule_diet.so HL_NUM_PASSES=1
P="nice -n 10 /usr/bin/python3 -W ignore rt13.py r11 ../redteam12_2026-12-02/probe12.py"
# 1. k-th largest by bisection: Diet inlines kb_lh0..13 (a chain of Tuple Funcs); put them at root
$P kth_largest_bisection_14_levels_count_tuple_lo_hi_mask_u8 3 \
 'lh_root::[fn["kb_lh%d" % l].compute_root() for l in range(15)]' > probe_kth.out 2>&1
PROBE_SHAPE=small $P kth_largest_bisection_14_levels_count_tuple_lo_hi_mask_u8 3 \
 'lh_root::[fn["kb_lh%d" % l].compute_root() for l in range(15)]' > probe_kth_small.out 2>&1
# 2. demosaic at the small shape (Mullapudi 4x faster) -- FAILED with KeyError mirror_interior (not in fn); superseded by probes13b.sh, whose output replaced probe_demosaic_*.out
D='x, y, c, xo, xi, yo, yi = [V(n) for n in ("x", "y", "c", "xo", "xi", "yo", "yi")]; o = fn["db_rgb"]; m = fn["mirror_interior"]'
for S in small large; do
PROBE_SHAPE=$S $P demosaic_bilinear_bggr_parity_selects_to_interleaved_rgb_u8 3 \
 "mull_like::HAND:$D; o.split(x, xo, xi, 32).vectorize(xi).parallel(y); m.compute_root().split(x, xo, xi, 32).vectorize(xi).parallel(y)" \
 "mull_like_guard::HAND:$D; o.split(x, xo, xi, 32, hl.TailStrategy.GuardWithIf).vectorize(xi).parallel(y); m.compute_root().split(x, xo, xi, 32).vectorize(xi).parallel(y)" \
 "mull_like_unroll_c::HAND:$D; o.bound(c, 0, 3).reorder(c, x, y).unroll(c).split(x, xo, xi, 32).vectorize(xi).parallel(y); m.compute_root().split(x, xo, xi, 32).vectorize(xi).parallel(y)" \
 "inline_mirror_c_outer::HAND:$D; o.reorder(x, c, y).split(x, xo, xi, 32).vectorize(xi).parallel(y)" > probe_demosaic_$S.out 2>&1
done
