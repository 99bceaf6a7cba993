#!/bin/bash
# Round 6's grid check (every Param at its ends and between, against the unscheduled pipeline) of
# the (pipeline, target) pairs in changed_schedules.txt with the given plugin.
# Usage: grid.sh PLUGIN N  ->  one "GRID name Diet: n shapes, k bad" line per pair
set -u
plugin=$1; n=$2
R=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/rounds.sh"
mkdir -p /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
while read t file rule; do
  round=${file%%_*}; name=${file#*_}; name=${name%.txt}
  IFS=: read dir mod <<< "${DIR[$round]}"
  echo "== $name $t $rule"
  RT6_TARGET=${!t} RT9_TARGET=${!t} DIET_PLUGIN=$plugin timeout 600 /usr/bin/python3 $R/long_steps_grain_2026-12-02/gridone.py $dir $mod $name $n 2>&1 |
    grep -E "^(GRID|WRONG|EXC)"
done < "$(dirname "$0")/${CHANGED:-changed_schedules.txt}"
