#!/bin/bash
# Alternating timings of the changed pipelines (changed.txt): the plugin before ($1) and after ($2),
# $3 rounds, JSON lines to $4.
here=$(cd "$(dirname "$0")" && pwd)
declare -A dir=([r1]=redteam_2026-11-30 [r3]=redteam3_fixes_2026-11-30 [r4]=redteam4_contractions_2026-11-30 [r5]=redteam5_2026-11-30 [r6]=redteam6_2026-11-30 [r7]=redteam7_2026-11-30 [r8]=redteam8_2026-12-01 [r9]=redteam9_2026-12-01 [scan]=scan_lanes_2026-12-01)
before=$1; after=$2; rounds=$3; out=$4
: > "$out"
while read -r tagged; do
  tag=${tagged%%_*}; name=${tagged#*_}
  for r in $(seq 1 "$rounds"); do
    for sys in before after; do
      plugin=$before; [ $sys = after ] && plugin=$after
      DIET_PLUGIN=$plugin timeout 600 /usr/bin/python3 "$here/time_any.py" "$here/../${dir[$tag]}" "$name" 2>/dev/null |
        grep '^TIME' | sed "s/^TIME /{\"system\": \"$sys\", \"round\": $r, \"tag\": \"$tag\", \"target\": \"${DIET_AB_TARGET:-B}\", \"r\": /; s/\$/}/" >> "$out"
    done
  done
done < "${CHANGED:-$here/changed.txt}"
