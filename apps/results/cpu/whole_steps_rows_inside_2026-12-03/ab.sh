#!/bin/bash
# Before/after (and Adams2019 with the large shape as constants, round 9's "Adams2019c") on the
# (pipeline, target) pairs whose schedule the change alters ($CHANGED, default changed_schedules.txt; the first
# version's: CHANGED=changed_first.txt, its runs in ab_first/; the second's in ab_second/): short rows
# of whole vectors in one vector per step (the kept version; README.md has all three), alternating
# in separate processes, 3 rounds, harness checks off (the grid checks values).
# Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
declare -A DIR=([r1]=redteam_2026-11-30:pipes [r5]=redteam5_2026-11-30:pipes [r6]=redteam6_2026-11-30:pipes6
                [r7]=redteam7_2026-11-30:pipes7 [r8]=redteam8_2026-12-01:pipes8 [r11]=redteam11_2026-12-02:pipes11
                [r12]=redteam12_2026-12-02:pipes12)
while read t file; do
  round=${file%%_*}; name=${file#*_}; name=${name%.txt}
  IFS=: read dir mod <<< "${DIR[$round]}"
  RT9_TIME_ONLY=1 RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
    bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/${name}_$t.jsonl" 3 "$name:Adams2019c"
done < "$(dirname "$0")/${CHANGED:-changed_schedules.txt}"
