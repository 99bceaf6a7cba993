#!/bin/bash
# Before/after (and Adams2019 with the large shape as constants, round 9's "Adams2019c") on the
# two red-team pipelines whose schedule the kept (twin-only) rule alters: an output-weighted sum
# whose output also reads a twin reduction (same dimensions, same constant RDom extents) is no
# contraction. Both targets, alternating in separate processes, 3 rounds.
# (ab_broad.sh: the rejected broad version, seven pipelines.)
# Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
for item in redteam12_2026-12-02:pipes12:shi_tomasi_min_eig_binomial5_nms3_count_0d \
            redteam3_fixes_2026-11-30:pipes:bilateral5x5_exp; do
  IFS=: read dir mod name <<< "$item"
  for t in A B; do
    RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
      bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/${name}_$t.jsonl" 3 "$name:Adams2019c"
  done
done
