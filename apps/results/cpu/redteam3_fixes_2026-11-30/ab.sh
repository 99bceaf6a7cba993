#!/bin/bash
# Diet before (plugin built from 9176b28, the commit before this session's image-rule fixes) and
# after (the working tree's build) against the best other scheduler of the round-3 probe, three
# alternating rounds per pipeline. Usage: ab.sh BEFORE_PLUGIN AFTER_PLUGIN OUT.jsonl
# (the same loop as ../channel_selects_2026-11-30/ab.sh, which takes the rounds and pipelines as
# arguments; run_one.py writes schedules under /tmp/redteam3_rerun/sched)
set -u
exec "$(cd "$(dirname "$0")" && pwd)/../channel_selects_2026-11-30/ab.sh" "$1" "$2" "$3" 3 \
  grouped_conv:Adams2019@small morph_open_rdom:Adams2019@small concat_two_inputs:Mullapudi2016@small \
  guided_filter:Adams2019 detail_enhance:Adams2019 lens_remap:Adams2019 rgb_hsv_roundtrip:Adams2019@small
