#!/bin/bash
# Grid-check every red-team pipeline whose Diet schedule the clamped tiles changed (list: changed.txt,
# lines "r1_name" ... "r8_name"; CHANGED= another list), with the plugin $DIET_PLUGIN, on the target
# DIET_AB_TARGET (A: AVX-512, B: AVX2, the default).
here=$(cd "$(dirname "$0")" && pwd)
declare -A dir=([r1]=redteam_2026-11-30 [r3]=redteam3_fixes_2026-11-30 [r4]=redteam4_contractions_2026-11-30 [r5]=redteam5_2026-11-30 [r6]=redteam6_2026-11-30 [r7]=redteam7_2026-11-30 [r8]=redteam8_2026-12-01 [r9]=redteam9_2026-12-01 [scan]=scan_lanes_2026-12-01)
while read -r tagged; do
  tag=${tagged%%_*}; name=${tagged#*_}
  timeout 900 /usr/bin/python3 "$here/grid_any.py" "$here/../${dir[$tag]}" "$name" 2>&1 | grep -E "^GRID|^BAD|Error|error" | head -5 | sed "s/^/${DIET_AB_TARGET:-B} $tag /"
done < "${CHANGED:-$here/changed.txt}"
