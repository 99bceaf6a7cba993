#!/bin/bash
# Diet before (plugin built from 9176b28, the commit before this session's image-rule fixes) and
# after (the working tree's build) against the best other scheduler of the round-3 probe, three
# alternating rounds per pipeline. Usage: ab.sh BEFORE_PLUGIN AFTER_PLUGIN OUT.jsonl
# (run_one.py writes schedules under /tmp/redteam3_rerun/sched; /usr/bin/python3 has the bindings)
set -u
before=$1; after=$2; out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p /tmp/redteam3_rerun/sched
: > "$out"
for spec in grouped_conv:Adams2019@small morph_open_rdom:Adams2019@small concat_two_inputs:Mullapudi2016@small \
            guided_filter:Adams2019 detail_enhance:Adams2019 lens_remap:Adams2019 rgb_hsv_roundtrip:Adams2019@small; do
  p=${spec%%:*}; other=${spec##*:}
  for round in 1 2 3; do
    for sys in before after other; do
      case $sys in
        before) env DIET_PLUGIN=$before /usr/bin/python3 "$here/run_one.py" $p Diet ;;
        after) env DIET_PLUGIN=$after /usr/bin/python3 "$here/run_one.py" $p Diet ;;
        other) /usr/bin/python3 "$here/run_one.py" $p $other ;;
      esac 2>/dev/null | grep '^RESULT' | sed "s/^RESULT /{\"system\": \"$sys\", \"round\": $round, \"r\": /; s/\$/}/" >> "$out"
    done
  done
done
