#!/bin/bash
# the hand-modified-schedule probes of this round, one niced process at a time (outputs probe_*.out, logs/probe_*.err)
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt12/libautoschedule_diet.so} HL_NUM_PASSES=1
P=$PWD/probe12.py
G=hl.TailStrategy.GuardWithIf
run() { out=$1; shift; echo "$(date +%T) $out $(cat /proc/loadavg)" >> logs/loadavg.txt; nice -n 10 timeout 500 "$@" > $out.out 2> logs/$out.err; }
run probe_autoexp_1thread env HL_NUM_THREADS=1 /usr/bin/python3 -W ignore rt12.py r11 $P auto_exposure_loglum_hist64_percentile_stretch_u8 3 "bin_root::fn['ae_bin'].compute_root().parallel(V('y')).vectorize(V('x'), 8)"
run probe_ycocg /usr/bin/python3 -W ignore rt12.py r11 $P ycocg_r_lossless_fwd_inv_planar_u16_err_0d 3 "hand_no_rfactor::HAND:fn['yc_fwd'].vectorize(V('x'), 16, $G).parallel(V('y')); fn['yc_inv'].vectorize(V('x'), 16, $G).parallel(V('y'))"
PROBE_SHAPE=small run probe_ycocg_small /usr/bin/python3 -W ignore rt12.py r11 $P ycocg_r_lossless_fwd_inv_planar_u16_err_0d 3 "hand_no_rfactor::HAND:fn['yc_fwd'].vectorize(V('x'), 16, $G).parallel(V('y')); fn['yc_inv'].vectorize(V('x'), 16, $G).parallel(V('y'))"
run probe_adapool /usr/bin/python3 -W ignore rt12.py r11 $P adaptive_avg_pool2d_out_param_variable_windows 3 "hand_vec_i::HAND:o=fn['ap_out']; o.vectorize(V('i'), 16, $G).parallel(V('c')); s=fn['ap_sum']; s.compute_at(o, V('j')).vectorize(V('i'), 16, $G); s.update(0).vectorize(V('i'), 16, $G)" "hand_vec_i_r_outer::HAND:o=fn['ap_out']; o.vectorize(V('i'), 16, $G).parallel(V('c')); s=fn['ap_sum']; s.compute_at(o, V('j')).vectorize(V('i'), 16, $G); s.update(0).split(V('i'), V('io'), V('ii'), 16, $G).vectorize(V('ii')).reorder(V('ii'), V('io'), hl.RVar('r\$x'), hl.RVar('r\$y'))"
run probe_layernorm /usr/bin/python3 -W ignore rt12.py r11 $P layernorm_chunk_welford_chan_merge_tuple3 3 "hand_vec_t::HAND:o=fn['lw_out']; o.split(V('t'), V('to'), V('ti'), 64, $G).vectorize(V('d'), 16, $G).parallel(V('to')); m=fn['lw_merge']; m.compute_at(o, V('to')).vectorize(V('t'), 16, $G); m.update(0).vectorize(V('t'), 16, $G); ch=fn['lw_chunk']; ch.compute_at(o, V('to')).reorder_storage(V('t'), V('c')).vectorize(V('t'), 16, $G); ch.update(0).vectorize(V('t'), 16, $G)"
run probe_kchunks_single /usr/bin/python3 -W ignore probe_kchunks_single.py
run probe_dog /usr/bin/python3 -W ignore rt12.py r11 $P dog_two_sigma_params_normalized_kernel_funcs 3 "hand_bx_per_tile::HAND:o=fn['dg_out']; o.split(V('y'), V('yo'), V('yi'), 32, $G).vectorize(V('x'), 16, $G).parallel(V('yo')); [(fn[g+'_bx'].compute_at(o, V('yo')).vectorize(V('x'), 16, $G), fn[g+'_k'].compute_root(), fn[g+'_ksum'].compute_root()) for g in ('dg1', 'dg2')]"
echo "$(date +%T) probes done" >> logs/progress.txt
