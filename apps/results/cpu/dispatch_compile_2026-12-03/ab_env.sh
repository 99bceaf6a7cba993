#!/bin/bash
# Diet with its defaults ("before") against Diet with extra HL_DIET_* settings ("after", $AFTER_ENV, e.g.
# "HL_DIET_MAX_KERNELS=2") and Adams2019c, alternating in separate processes, harness checks off.
# Usage: AFTER_ENV="K=V ..." ab_env.sh PLUGIN OUT.jsonl ROUNDS TARGET(A|B) round:pipeline [...]
set -u
plugin=$1; out=$2; rounds=$3; t=$4; shift 4
R=$(cd "$(dirname "$0")/.." && pwd)
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
declare -A DIR=([r1]=redteam_2026-11-30:pipes [r5]=redteam5_2026-11-30:pipes [r6]=redteam6_2026-11-30:pipes6
                [r7]=redteam7_2026-11-30:pipes7 [r8]=redteam8_2026-12-01:pipes8 [r11]=redteam11_2026-12-02:pipes11
                [r12]=redteam12_2026-12-02:pipes12)
mkdir -p /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
for spec in "$@"; do
  round=${spec%%:*}; p=${spec#*:}
  IFS=: read dir mod <<< "${DIR[$round]}"
  for r in $(seq 1 "$rounds"); do
    for sys in before after other; do
      case $sys in
        before) env RT9_TIME_ONLY=1 RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} DIET_PLUGIN=$plugin /usr/bin/python3 $R/long_steps_grain_2026-12-02/runany.py $p Diet ;;
        after) env $AFTER_ENV RT9_TIME_ONLY=1 RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} DIET_PLUGIN=$plugin /usr/bin/python3 $R/long_steps_grain_2026-12-02/runany.py $p Diet ;;
        other) env RT9_TIME_ONLY=1 RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} /usr/bin/python3 $R/long_steps_grain_2026-12-02/runany.py $p Adams2019c ;;
      esac 2>/dev/null | grep '^RESULT' | sed "s/^RESULT /{\"system\": \"$sys\", \"round\": $r, \"r\": /; s/\$/}/" >> "$out"
    done
  done
done
