#!/bin/bash
# Round 6's grid check (every Param at its ends and between, against the unscheduled pipeline) of
# the (pipeline, target) pairs in changed_schedules.txt with the given plugin.
# Usage: grid.sh PLUGIN N  ->  one "GRID name Diet: n shapes, k bad" line per pair
set -u
plugin=$1; n=$2
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
declare -A DIR=([r1]=redteam_2026-11-30:pipes [r5]=redteam5_2026-11-30:pipes [r6]=redteam6_2026-11-30:pipes6
                [r7]=redteam7_2026-11-30:pipes7 [r8]=redteam8_2026-12-01:pipes8 [r11]=redteam11_2026-12-02:pipes11
                [r12]=redteam12_2026-12-02:pipes12)
while read t file; do
  round=${file%%_*}; name=${file#*_}; name=${name%.txt}
  IFS=: read dir mod <<< "${DIR[$round]}"
  echo "== $name $t"
  RT6_TARGET=${!t} RT9_TARGET=${!t} DIET_PLUGIN=$plugin /usr/bin/python3 $R/long_steps_grain_2026-12-02/gridone.py $dir $mod $name $n 2>&1 |
    grep -E "^(GRID|WRONG|EXC)"
done < "$(dirname "$0")/changed_schedules.txt"
