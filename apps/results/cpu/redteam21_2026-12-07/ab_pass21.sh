#!/bin/bash
# usage: ab_pass17.sh pipelines...: the ab step of run_all17.sh (ROUNDS, AB_OUT as there), through ab21.py so that a
# scheduler that does not finish scheduling / compiling within AB_TIMEOUT (default 240 s) is dropped: the scheduler
# after the last 'CT' line is taken as the one that hung, recorded in ${AB_OUT}_hung.txt, and the ab process rerun
# without it (at most twice). logs/loadavg.txt gets /proc/loadavg before each pipeline.
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt21/libautoschedule_diet.so} HL_NUM_PASSES=${HL_NUM_PASSES:-1}
AB_OUT=${AB_OUT:-ab}; RES=${AB_RES:-ab_results}
for p in "$@"; do
  echo "$(date +%T) $p $(cat /proc/loadavg)" >> logs/loadavg.txt
  scheds="Diet,Mullapudi2016,Adams2019c,Adams2019c@small,ref"
  for attempt in 1 2 3; do
    AB_SCHEDS=$scheds nice -n ${NICE:-10} timeout ${AB_TIMEOUT:-240} /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/ab21.py $p ${ROUNDS:-2} > logs/$p.$AB_OUT.out 2> logs/$p.$AB_OUT.err
    rc=$?
    if [ $rc -ne 124 ] && [ $rc -ne 137 ]; then break; fi
    done_s=$(grep '^CT ' logs/$p.$AB_OUT.out | /usr/bin/python3 -c "import sys, json; print(','.join(json.loads(l[3:])['sched'] for l in sys.stdin))")
    hung=$(/usr/bin/python3 -c "a='$scheds'.split(','); d=[x for x in '$done_s'.split(',') if x]; print([x for x in a if x not in d][0])")
    echo "$p attempt $attempt rc=$rc hung=$hung (finished: $done_s)" >> ${AB_OUT}_hung.txt
    cp logs/$p.$AB_OUT.err logs/$p.$AB_OUT.hung$attempt.err
    scheds=$(/usr/bin/python3 -c "print(','.join(x for x in '$scheds'.split(',') if x != '$hung'))")
  done
  grep '^AB ' logs/$p.$AB_OUT.out | sed 's/^AB //' >> $RES.jsonl
  grep '^CT ' logs/$p.$AB_OUT.out | sed 's/^CT //' >> ${AB_OUT}_compile.jsonl
  echo "$(date +%T) $p ab($AB_OUT) done rc=$rc" >> logs/progress.txt
done
