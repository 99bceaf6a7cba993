#!/bin/bash
# round 15 follow-up steps, one niced process at a time:
# 1. the harness 'run' step again for the pipelines whose first run failed because ./sched, ./sched_avx512 did not exist yet
# 2. strict_float grids for the two u8 off-by-one mismatches (tonemap, lens)
# 3. the lens root-boundary repro
# 4. pass 2 (3 rounds) of the flagged pipelines
# 5. grayscale morph: Diet vs ref through round 12's probe12.py (its ab process lost ref after a Mullapudi internal error)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt15/libautoschedule_diet.so HL_NUM_PASSES=1
mv results.jsonl results_pass1_raw.jsonl
grep -v Errno results_pass1_raw.jsonl > results.jsonl
for p in $(cat logs/rerun_harness.txt); do
  nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt15.py run $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
done
echo "$(date +%T) runs done" >> logs/progress.txt
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
for n in tonemap_0d_log_average_luminance_0d_max_reinhard_extended_key_param_planar_rgb_to_u8_gamma lens_brown_k1_k2_int_params_bilinear_gather_constant_exterior_interleaved_rgb_u8_float_coords_func; do
  RT9_TARGET=$A-strict_float nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt15.py grid $n Diet 20 > logs/$n.strict.grid.out 2> logs/$n.strict.grid.err
  echo "$n strict rc=$? $(tail -1 logs/$n.strict.grid.out)" >> grid_strict.txt
done
echo "$(date +%T) strict done" >> logs/progress.txt
nice -n 10 timeout 300 /usr/bin/python3 -W ignore repro_lens_root_boundary.py > repro_lens_root_boundary.out 2> logs/repro_lens_root_boundary.err; echo "rc=$?" >> repro_lens_root_boundary.out
echo "$(date +%T) lens repro done" >> logs/progress.txt
F="batched_8x8_sandwich_A_B_At_python_unrolled_sums_batch_outer joint_bilateral_upsample_2x_lowres_f32_highres_u8_guide_5x5_range_lut_func demosaic_bilinear_cfa_phase_param_parity_selects_u16_planar_rgb_out_mirror_interior lens_brown_k1_k2_int_params_bilinear_gather_constant_exterior_interleaved_rgb_u8_float_coords_func integral_histogram_8bins_u16_counts_scan_x_then_scan_y_updates_box_query_radius_param_normalized hsv_planar_hue_shift_sat_gain_params_to_rgb_sector_mux_tuple_func_interleaved_u8 biquad_df2t_tuple_state_y_s1_s2_one_func_scan_coeffs_buffer_per_channel_f64_t_inner kmeans_assign_hl_argmin_over_K_param_centroids_D_param_points_dim_inner_label_i32_and_0d_inertia fir_filterbank_B_bands_NT_taps_buffer_k_b_channels_innermost_causal_zero_history conv_transpose2d_s2_k3_gather_rdom_where_parity_even_ci_inner_cxy"
NO_CHECK=1 ROUNDS=3 AB_OUT=ab_pass2 AB_TIMEOUT=300 ./run_all15.sh $F
echo "$(date +%T) pass2 done" >> logs/progress.txt
G=grayscale_dilation_nonflat_i16_struct_elem_buffer_size_param_where_mask_u8_sat_then_erosion
for sh in small large; do
  PROBE_SHAPE=$sh nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt15.py r11 ../redteam12_2026-12-02/probe12.py $G 3 > probe_gmorph_$sh.out 2> logs/probe_gmorph_$sh.err
done
echo "$(date +%T) steps2 done" >> logs/progress.txt
