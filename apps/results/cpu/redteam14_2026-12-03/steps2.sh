#!/bin/bash
# round 14 follow-up steps, one niced process at a time:
# 1. the harness 'run' step again for the 4 pipelines whose first run failed because ./sched, ./sched_avx512 did not exist yet
# 2. the curl/div Diet compile hang: repro with HL_DEBUG_CODEGEN=1 (last lowering pass printed) under a 300 s timeout
# 3. strict_float grids for the two u8 rounding mismatches (camera, bicubic)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt14/libautoschedule_diet.so HL_NUM_PASSES=1
for p in camera_wb_ccm_buffer_hlsum_c_gamma_lut4096_interleaved_u16_to_u8 fast9_circle16_offset_funcs_u32_bitmask_contiguous9_score_u8 nlmeans_4d_weight_func_patch3_search_radius_param_mirror_image_f32 domain_transform_rf_data_dependent_coeff_scans_ltr_rtl_ttb_btt_f32; do
  nice -n 10 timeout 400 /usr/bin/python3 -W ignore rt14.py run $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
done
echo "$(date +%T) runs done" >> logs/progress.txt
HL_DEBUG_CODEGEN=1 nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt14.py r11 ../redteam14_2026-12-03/repro_curl_hang.py Diet > repro_curl_hang.out 2> logs/repro_curl_hang.debug.err; echo "rc=$?" >> repro_curl_hang.out
grep -n "^Lowering\|^Injecting\|^Performing\|^Simplifying\|^Skipping\|^Unrolling\|^Vectorizing\|^Bounds\|^Computing\|^Target-indep\|^Specializ\|^Partition\|^Trim\|^Lowering after\|^Lowered\|^Uniquifying\|^Removing" logs/repro_curl_hang.debug.err | tail -8 >> repro_curl_hang.out
echo "$(date +%T) curl repro done" >> logs/progress.txt
for p in camera_wb_ccm_buffer_hlsum_c_gamma_lut4096_interleaved_u16_to_u8:x86-64-linux-avx-avx2-f16c-fma-sse41 bicubic_keys_direct_4x4_inline_sum_interleaved_rgba_u8_clamp_index:x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41; do
  n=${p%%:*}; t=${p#*:}
  RT9_TARGET=$t-strict_float nice -n 10 timeout 400 /usr/bin/python3 -W ignore rt14.py grid $n Diet 20 > logs/$n.strict.grid.out 2> logs/$n.strict.grid.err
  echo "$n strict rc=$? $(tail -1 logs/$n.strict.grid.out)" >> grid_strict.txt
done
echo "$(date +%T) strict done" >> logs/progress.txt
