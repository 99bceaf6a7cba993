#!/bin/bash
# usage: ab_time.sh PIPELINE SCHED...: 3 rounds, systems alternating, timing only (RT6_TIME_ONLY=1) -> ab_results.jsonl
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt6_diet.so} RT6_TIME_ONLY=1
p=$1; shift
for round in 1 2 3; do
  for s in "$@"; do
    timeout 600 /usr/bin/python3 run6.py $p $s 2>>logs/ab.err | grep '^RESULT' | sed "s/^RESULT {/{\"round\": $round, /" >> ab_results.jsonl
  done
done
