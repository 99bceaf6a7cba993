#!/bin/bash
# usage: [RERUN_OUT=name] [RERUN_ENV=VAR=value] rerun.sh pipelines...: ab11.py NAME 3 (3 alternating rounds) for the rows above 1.5x -> ${RERUN_OUT:-ab_rerun}.jsonl, ..._compile.jsonl; logs/loadavg.txt gets the load average before each
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt11/libautoschedule_diet.so} HL_NUM_PASSES=${HL_NUM_PASSES:-1}
for p in "$@"; do
  echo "$(date +%T) $p $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 400 env ${RERUN_ENV:-X_UNUSED=1} /usr/bin/python3 ab11.py $p 3 > logs/$p.ab_rerun.out 2> logs/$p.ab_rerun.err
  grep '^AB ' logs/$p.ab_rerun.out | sed 's/^AB //' >> ${RERUN_OUT:-ab_rerun}.jsonl
  grep '^CT ' logs/$p.ab_rerun.out | sed 's/^CT //' >> ${RERUN_OUT:-ab_rerun}_compile.jsonl
  echo "$(date +%T) $p rerun done" >> logs/progress.txt
done
