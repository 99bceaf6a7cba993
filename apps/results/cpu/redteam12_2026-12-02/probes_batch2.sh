#!/bin/bash
# second batch: DoG probe with one Halide thread; ab of the flagged rows with HL_NUM_THREADS=1 (3 rounds) -> ab_1thread*.jsonl
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt12/libautoschedule_diet.so} HL_NUM_PASSES=1
P=$PWD/probe12.py
G=hl.TailStrategy.GuardWithIf
run() { out=$1; shift; echo "$(date +%T) $out $(cat /proc/loadavg)" >> logs/loadavg.txt; nice -n 10 timeout 500 "$@" > $out.out 2> logs/$out.err; }
run probe_dog_1thread env HL_NUM_THREADS=1 /usr/bin/python3 -W ignore rt12.py r11 $P dog_two_sigma_params_normalized_kernel_funcs 3 "hand_bx_per_tile::HAND:o=fn['dg_out']; o.split(V('y'), V('yo'), V('yi'), 32, $G).vectorize(V('x'), 16, $G).parallel(V('yo')); [(fn[g+'_bx'].compute_at(o, V('yo')).vectorize(V('x'), 16, $G), fn[g+'_k'].compute_root(), fn[g+'_ksum'].compute_root()) for g in ('dg1', 'dg2')]"
NO_CHECK=1 ROUNDS=3 AB_OUT=ab_1thread HL_NUM_THREADS=1 ./run_all12.sh auto_exposure_loglum_hist64_percentile_stretch_u8 dog_two_sigma_params_normalized_kernel_funcs layernorm_chunk_welford_chan_merge_tuple3 shi_tomasi_min_eig_binomial5_nms3_count_0d contract_three_k_chunk_updates_param_split ycocg_r_lossless_fwd_inv_planar_u16_err_0d adaptive_avg_pool2d_out_param_variable_windows conv_transpose_k4_stride_param_divmod_select
echo "$(date +%T) probes2 done" >> logs/progress.txt
