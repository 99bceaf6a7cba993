#!/bin/bash
# usage: ab_time.sh PIPELINE SCHED...: 3 rounds, systems alternating, timing only (RT8_TIME_ONLY=1) -> ab_results.jsonl
# Adams2019 runs with HL_NUM_PASSES=1 (its beam search took ~80 s per pass on conv3x3_dilation_param); every run has a
# ${AB_TIMEOUT:-150} s limit (a run that times out leaves a "timeout/crash" line). Schedulers listed in $ONCE run in
# round 1 only (ROUNDS, default "1 2 3", names the rounds; rounds 4+ are extra rounds run later, see ab_extra.sh) (used, after the first 5 pipelines, for Adams2019c and Adams2019c@small, to fit the time budget).
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt8_diet.so} RT8_TIME_ONLY=1 HL_NUM_PASSES=${HL_NUM_PASSES:-1}
p=$1; shift
for round in ${ROUNDS:-1 2 3}; do
  for s in "$@"; do
    if [ $round -gt 1 ] && [ $round -lt 4 ] && [[ " $ONCE " == *" $s "* ]]; then continue; fi
    out=$(nice -n 10 timeout ${AB_TIMEOUT:-150} /usr/bin/python3 run8.py $p $s 2>>logs/ab.err | grep '^RESULT')
    if [ -n "$out" ]; then echo "$out" | sed "s/^RESULT {/{\"round\": $round, /" >> ab_results.jsonl
    else echo "{\"round\": $round, \"pipeline\": \"$p\", \"sched\": \"$s\", \"status\": \"timeout/crash\", \"times\": {}}" >> ab_results.jsonl; fi
  done
done
