#!/bin/bash
# round-13 probes, batch 2 (mirror_interior is not reachable from probe12's fn dict, so HAND variants inline it)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt13/libautoschedule_diet.so HL_NUM_PASSES=1
P="nice -n 10 /usr/bin/python3 -W ignore rt13.py r11 ../redteam12_2026-12-02/probe12.py"
D='x, y, c, xo, xi, yo, yi = [V(n) for n in ("x", "y", "c", "xo", "xi", "yo", "yi")]; o = fn["db_rgb"]'
for S in small large; do
PROBE_SHAPE=$S $P demosaic_bilinear_bggr_parity_selects_to_interleaved_rgb_u8 3 \
 "shift32_par_y::HAND:$D; o.split(x, xo, xi, 32).vectorize(xi).parallel(y)" \
 "guard32_par_y::HAND:$D; o.split(x, xo, xi, 32, hl.TailStrategy.GuardWithIf).vectorize(xi).parallel(y)" \
 "guard32_unroll_c::HAND:$D; o.bound(c, 0, 3).split(x, xo, xi, 32, hl.TailStrategy.GuardWithIf).vectorize(xi).reorder(c, xi, xo, y).unroll(c).parallel(y)" \
 "shift32_unroll_c::HAND:$D; o.bound(c, 0, 3).split(x, xo, xi, 32).vectorize(xi).reorder(c, xi, xo, y).unroll(c).parallel(y)" > probe_demosaic_$S.out 2>&1
done
HL_NUM_THREADS=1 $P kth_largest_bisection_14_levels_count_tuple_lo_hi_mask_u8 3 > probe_kth_1thread.out 2>&1
