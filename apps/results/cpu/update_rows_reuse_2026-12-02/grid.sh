#!/bin/bash
# Round 6's grid check (every Param at its ends and between, against the unscheduled pipeline) of
# the pipelines whose schedule the session's two rules change, with the given plugin, both targets.
# Usage: grid.sh PLUGIN N  ->  one "GRID name Diet: n shapes, k bad" line per (pipeline, target)
set -u
plugin=$1; n=$2
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
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
            redteam8_2026-12-01:pipes8:u8_x_i8_nt_i32_and_sat \
            redteam12_2026-12-02:pipes12:shi_tomasi_min_eig_binomial5_nms3_count_0d \
            redteam3_fixes_2026-11-30:pipes:bilateral5x5_exp; do
  IFS=: read dir mod name <<< "$item"
  for t in A B; do
    echo "== $name $t"
    RT6_TARGET=${!t} RT9_TARGET=${!t} DIET_PLUGIN=$plugin /usr/bin/python3 $R/long_steps_grain_2026-12-02/gridone.py $dir $mod $name $n 2>&1 |
      grep -E "^(GRID|WRONG|EXC)"
  done
done
