#!/bin/bash
# Before/after (and Adams2019 with the large shape as constants, round 9's "Adams2019c") on the
# ten red-team pipelines whose schedule the rows-share rule alters (an update whose loads that move
# with its reduction are each independent of y or of x runs a tile of 8 rows inside each step).
# Both targets, alternating in separate processes, 3 rounds.
# Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR [name ...]   (names: a subset of the list below)
set -u
old=$1; new=$2; out=$3; shift 3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
for item in redteam12_2026-12-02:pipes12:contract_three_k_chunk_updates_param_split \
            redteam_2026-11-30:pipes:two_outputs \
            redteam6_2026-11-30:pipes6:dft_tuple_power_inverse \
            redteam7_2026-11-30:pipes7:cgemm_tuple_update \
            redteam7_2026-11-30:pipes7:decayed_accum_nonassoc \
            redteam7_2026-11-30:pipes7:maxplus_matmul_i32 \
            redteam7_2026-11-30:pipes7:qgemm_zp_requant_u8 \
            redteam8_2026-12-01:pipes8:sat_accum_i16_nonassoc \
            redteam8_2026-12-01:pipes8:two_contraction_updates_diff_layouts \
            redteam8_2026-12-01:pipes8:u8_x_i8_nt_i32_and_sat; do
  IFS=: read dir mod name <<< "$item"
  if (($#)) && [[ " $* " != *" $name "* ]]; then continue; fi
  for t in A B; do
    RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
      bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/${name}_$t.jsonl" 3 "$name:Adams2019c"
  done
done
