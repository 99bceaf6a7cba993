#!/bin/bash
# Before/after (and Adams2019 with the large shape as constants, round 9's "Adams2019c") on the
# seven red-team pipelines whose schedule the change alters (a weighted sum whose output reads
# other sums too is no contraction), both targets, alternating in separate processes, 3 rounds.
# Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
for item in redteam12_2026-12-02:pipes12:shi_tomasi_min_eig_binomial5_nms3_count_0d \
            redteam12_2026-12-02:pipes12:dog_two_sigma_params_normalized_kernel_funcs \
            redteam12_2026-12-02:pipes12:xcorr_neg_pos_lags_output_min_normalized \
            redteam11_2026-12-02:pipes11:joint_bilateral_guide_two_inline_sums_radius \
            redteam3_fixes_2026-11-30:pipes:bilateral5x5_exp \
            redteam5_2026-11-30:pipes:gauss7_single_2d_rdom_repeat_image \
            redteam8_2026-12-01:pipes8:sliding_var_window_param_i64; do
  IFS=: read dir mod name <<< "$item"
  for t in A B; do
    RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
      bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/${name}_$t.jsonl" 3 "$name:Adams2019c"
  done
done
