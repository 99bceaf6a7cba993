#!/bin/bash
# usage: ab_all.sh pipelines...: ab9.py per pipeline (one process, ${AB_TIMEOUT:-400} s limit, niced, HL_NUM_PASSES=1 for
# Adams2019) -> ${ABOUT:-ab_results}.jsonl (AB lines), ${ABOUT:-ab}_compile.jsonl (CT lines), logs/NAME.${ABOUT:-ab}.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt9_diet.so} HL_NUM_PASSES=${HL_NUM_PASSES:-1}
for p in "$@"; do
  nice -n 10 timeout ${AB_TIMEOUT:-400} /usr/bin/python3 ab9.py $p ${ROUNDS:-3} > logs/$p.${ABOUT:-ab}.out 2> logs/$p.${ABOUT:-ab}.err
  rc=$?
  grep '^AB ' logs/$p.${ABOUT:-ab}.out | sed 's/^AB //' >> ${ABOUT:-ab_results}.jsonl
  grep '^CT ' logs/$p.${ABOUT:-ab}.out | sed 's/^CT //' >> ${ABOUT:-ab}_compile.jsonl
  echo "$(date +%T) ab $p rc=$rc" >> logs/progress.txt
done
