#!/bin/bash
# round-14 probes, third batch
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt14/libautoschedule_diet.so HL_NUM_PASSES=1
P="nice -n 10 /usr/bin/python3 -W ignore rt14.py r11 ../redteam12_2026-12-02/probe12.py"
# 6. bicubic RGBA: no Diet; output c innermost bound to 4 and unrolled, vectorized over ox (16), parallel oy; the anonymous
#    4x4 sum at Halide's default (inside the output's loops), so it is vectorized along ox instead of along c
BC=bicubic_keys_direct_4x4_inline_sum_interleaved_rgba_u8_clamp_index
H='c, ox, oy = [V(n) for n in ("c", "ox", "oy")]; o = fn["bc_out"]; o.bound(c, 0, 4).reorder(c, ox, oy).unroll(c).vectorize(ox, 16).parallel(oy)'
for S in small large; do PROBE_SHAPE=$S timeout 300 $P $BC 3 "hand_ox_vec::HAND:$H" > probe_bicubic_$S.out 2>&1; done
# 7. heat3d at the small shape: Diet + ht_u2 at root (Diet computes it per z slice of ht_u3, i.e. 3 z-planes per slice)
HT=heat3d_variable_coeff_harmonic_face_means_clamped_neumann_3_steps
PROBE_SHAPE=small timeout 300 $P $HT 5 "u2_root::fn['ht_u2'].compute_root()" \
 "hand_serial_root_vec::HAND:x = V('x'); [fn[n].compute_root().vectorize(x, 8) for n in ('ht_kx', 'ht_ky', 'ht_kz', 'ht_u1', 'ht_u2')]; fn['ht_u3'].vectorize(x, 8)" > probe_heat3d_small.out 2>&1
