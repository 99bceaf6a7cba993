#!/bin/bash
# Before/after on every (pipeline, target) pair whose schedule changes ($CHANGED, default
# changed_schedules.txt), alternating in separate processes, $ROUNDS rounds (default 2), harness
# checks off (grid.sh checks values). No third system: Adams2019c's times are in each round's report.
# Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/rounds.sh"
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
while read t file rule; do
  round=${file%%_*}; name=${file#*_}; name=${name%.txt}
  IFS=: read dir mod <<< "${DIR[$round]}"
  o="$out/${name}_$t.jsonl"; : > "$o"
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for sys in before after; do
      [ $sys = before ] && plugin=$old || plugin=$new
      env RT9_TIME_ONLY=1 RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} DIET_PLUGIN=$plugin timeout 600 \
        /usr/bin/python3 $R/long_steps_grain_2026-12-02/runany.py $name Diet 2>/dev/null | grep '^RESULT' |
        sed "s/^RESULT /{\"system\": \"$sys\", \"round\": $r, \"rule\": \"$rule\", \"r\": /; s/\$/}/" >> "$o"
    done
  done
done < "$(dirname "$0")/${CHANGED:-changed_schedules.txt}"
