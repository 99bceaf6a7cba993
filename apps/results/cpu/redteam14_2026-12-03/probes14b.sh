#!/bin/bash
# round-14 probes, second batch (after probes14.sh)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt14/libautoschedule_diet.so HL_NUM_PASSES=1
P="nice -n 10 /usr/bin/python3 -W ignore rt14.py r11 ../redteam12_2026-12-02/probe12.py"
X='x, y, xo, xi = [V(n) for n in ("x", "y", "xo", "xi")]'
LK=lucas_kanade_window_radius_param_five_inline_sums_tuple_2x2_solve
# 4. Lucas-Kanade at the small shape (81x61, R=1): same variants as probe 1
PROBE_SHAPE=small PROBE_ORDER=It_root,hand_fused,ref timeout 400 $P $LK 3 \
 "It_root::$X; fn['lk_It'].compute_root().vectorize(x, 16).parallel(y)" \
 "hand_fused::HAND:$X; [fn[n].compute_root().vectorize(x, 16).parallel(y) for n in ('lk_Ix', 'lk_Iy', 'lk_It', 'lk_flow', 'lk_u', 'lk_v')]" > probe_lk_small.out 2>&1
# 5. causal linear attention: no Diet; state scans at root vectorized along d (pure def and update), parallel over heads;
#    the two contractions (anonymous sums) at Halide's default inside la_out / la_den's vectorized loops
LA=causal_linear_attention_elu1_feature_map_4d_state_scan_over_t
H='d, e, t, h = [V(n) for n in ("d", "e", "t", "h")]; [fn[n].compute_root().vectorize(d, 16).parallel(h) for n in ("la_phik", "la_phiq")]; kv = fn["la_kv"]; kv.compute_root().vectorize(d, 16).parallel(h); kv.update(0).vectorize(d, 16).parallel(h); z = fn["la_z"]; z.compute_root().vectorize(d, 16).parallel(h); z.update(0).vectorize(d, 16).parallel(h); fn["la_den"].compute_root().parallel(h); fn["la_out"].vectorize(e, 16).parallel(h)'
for S in large small; do
PROBE_SHAPE=$S timeout 300 $P $LA 3 "hand_scan_root::HAND:$H" > probe_linattn_$S.out 2>&1
done
