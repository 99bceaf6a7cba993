#!/bin/bash
# Grid-check every red-team pipeline whose Diet schedule the clamped tiles changed (list: changed.txt,
# lines "r1_name" / "r3_name" / "r5_name"), with the plugin $DIET_PLUGIN.
here=$(cd "$(dirname "$0")" && pwd)
declare -A dir=([r1]=redteam_2026-11-30 [r3]=redteam3_fixes_2026-11-30 [r5]=redteam5_2026-11-30)
while read -r tagged; do
  tag=${tagged%%_*}; name=${tagged#*_}
  timeout 900 /usr/bin/python3 "$here/grid_any.py" "$here/../${dir[$tag]}" "$name" 2>&1 | grep -E "^GRID|^BAD|Error|error" | head -5 | sed "s/^/$tag /"
done < "$here/changed.txt"
