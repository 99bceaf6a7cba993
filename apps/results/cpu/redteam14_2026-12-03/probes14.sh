#!/bin/bash
# round-14 hand-schedule probes through round 12's probe12.py (Diet's schedule +/- changes; HAND: schedules without Diet)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt14/libautoschedule_diet.so HL_NUM_PASSES=1
P="nice -n 10 /usr/bin/python3 -W ignore rt14.py r11 ../redteam12_2026-12-02/probe12.py"
LK=lucas_kanade_window_radius_param_five_inline_sums_tuple_2x2_solve
X='x, y, xo, xi = [V(n) for n in ("x", "y", "xo", "xi")]'
# 1. Lucas-Kanade (Adams 7.6x faster, Diet JIT 128 s). Diet's own variant is skipped (PROBE_ORDER) to save one 128 s JIT;
#    its time is in ab_results.jsonl. It_root: Diet + the inlined temporal difference lk_It at root.
#    hand_fused: no Diet; Ix, Iy, It at root vectorized, the Tuple solve lk_flow at root vectorized over x + parallel y, so the five
#    anonymous sums take Halide's default (computed inside lk_flow's vectorized loop) and the outputs just copy.
PROBE_ORDER=It_root,hand_fused,ref timeout 580 $P $LK 3 \
 "It_root::$X; fn['lk_It'].compute_root().vectorize(x, 16).parallel(y)" \
 "hand_fused::HAND:$X; [fn[n].compute_root().vectorize(x, 16).parallel(y) for n in ('lk_Ix', 'lk_Iy', 'lk_It', 'lk_flow', 'lk_u', 'lk_v')]" > probe_lk.out 2>&1
# 2. FAST-9 (Mullapudi 2.7x, Adams 3x faster). dxdy_root: Diet + the 16-entry offset mux Funcs at root (table loads instead of
#    a 16-way select chain per RVar step). hand: no Diet; offsets at root, fa_score / fa_map vectorized 16 + parallel y, the
#    anonymous sums / maxima at Halide's default (inside the vectorized consumer loop).
F9=fast9_circle16_offset_funcs_u32_bitmask_contiguous9_score_u8
timeout 400 $P $F9 3 \
 "dxdy_root::fn['fa_dx'].compute_root(); fn['fa_dy'].compute_root()" \
 "hand::HAND:$X; fn['fa_dx'].compute_root(); fn['fa_dy'].compute_root(); [fn[n].compute_root().vectorize(x, 16).parallel(y) for n in ('fa_score',)]; fn['fa_map'].vectorize(x, 16).parallel(y)" > probe_fast9.out 2>&1
# 3. curl/div JIT hang bisection (90 s limit each): which part of the pipeline is needed for the bounds-inference blow-up
for v in curlv_only curlv_noens curlv_nodiv curlv_sep; do
  RT_PIPES=pipes14v nice -n 10 timeout 90 /usr/bin/python3 -W ignore rt14.py r11 ../redteam14_2026-12-03/repro_curl_bisect.py $v > logs/bisect_$v.out 2> logs/bisect_$v.err
  echo "$v rc=$? $(cat logs/bisect_$v.out | tr '\n' ' ')" >> repro_curl_bisect.out
done
