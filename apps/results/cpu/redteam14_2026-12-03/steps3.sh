#!/bin/bash
# round 14: waits for steps2.sh, then pass 2 (3 rounds) on the flagged pipelines (LK excluded: its 128 s JIT; it is probed instead),
# a 1-thread pass on five of them, then the probes (probes14.sh)
cd "$(dirname "$0")"
while pgrep -f steps2.sh > /dev/null; do sleep 5; done
export DIET_PLUGIN=/tmp/rt14/libautoschedule_diet.so
F="fast9_circle16_offset_funcs_u32_bitmask_contiguous9_score_u8 nlmeans_4d_weight_func_patch3_search_radius_param_mirror_image_f32 resize_area_fractional_coverage_weight_funcs_expr_rdom_extent_f32 median5x5_tuple_column_sort5_then_pruned_batcher25_u8 histeq_no_scatter_bin_select_sum_wh_then_where_b_le_triangle_cdf_u8 bicubic_keys_direct_4x4_inline_sum_interleaved_rgba_u8_clamp_index conv3x3_im2col_flat_k_divmod_ci_kx_ky_nhwc_matmul_co_inner_bias_relu causal_linear_attention_elu1_feature_map_4d_state_scan_over_t heat3d_variable_coeff_harmonic_face_means_clamped_neumann_3_steps argmin_middle_dim_explicit_tuple_update_first_tie_then_gather_u16"
NO_CHECK=1 ROUNDS=3 AB_OUT=ab_pass2 ./run_all14.sh $F
echo "$(date +%T) pass2 done" >> logs/progress.txt
HL_NUM_THREADS=1 NO_CHECK=1 ROUNDS=3 AB_OUT=ab_1thread ./run_all14.sh fast9_circle16_offset_funcs_u32_bitmask_contiguous9_score_u8 bicubic_keys_direct_4x4_inline_sum_interleaved_rgba_u8_clamp_index causal_linear_attention_elu1_feature_map_4d_state_scan_over_t heat3d_variable_coeff_harmonic_face_means_clamped_neumann_3_steps nlmeans_4d_weight_func_patch3_search_radius_param_mirror_image_f32
echo "$(date +%T) 1thread done" >> logs/progress.txt
./probes14.sh
echo "$(date +%T) probes done" >> logs/progress.txt
