#!/bin/bash
# Diet before/after against another scheduler on red-team pipelines, alternating rounds (round
# 3's ../redteam3_fixes_2026-11-30/ab.sh calls it with its fixed list).
# Usage: ab.sh BEFORE_PLUGIN AFTER_PLUGIN OUT.jsonl ROUNDS pipeline:Other [pipeline:Other ...]
# (the harness is ../redteam3_fixes_2026-11-30/run_one.py, or $RUN_ONE: round 1's
# ../redteam_2026-11-30/run_one.py; /usr/bin/python3 has the bindings)
set -u
before=$1; after=$2; out=$3; rounds=$4; shift 4
run_one=${RUN_ONE:-$(cd "$(dirname "$0")/../redteam3_fixes_2026-11-30" && pwd)/run_one.py}
mkdir -p /tmp/redteam3_rerun/sched /tmp/redteam/sched
: > "$out"
for spec in "$@"; do
  p=${spec%%:*}; other=${spec##*:}
  for round in $(seq 1 "$rounds"); do
    for sys in before after other; do
      case $sys in
        before) env DIET_PLUGIN=$before /usr/bin/python3 "$run_one" $p Diet ;;
        after) env DIET_PLUGIN=$after /usr/bin/python3 "$run_one" $p Diet ;;
        other) /usr/bin/python3 "$run_one" $p $other ;;
      esac 2>/dev/null | grep '^RESULT' | sed "s/^RESULT /{\"system\": \"$sys\", \"round\": $round, \"r\": /; s/\$/}/" >> "$out"
    done
  done
done
