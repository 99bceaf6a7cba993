#!/bin/bash
# usage: run_all17.sh pipelines...: round 11's run_all.sh steps through rt21.py, per pipeline one niced process at a time:
#  1. rt21.py grid NAME Diet ${GRID_N:-30} -> ${GRID_OUT:-grid.txt}, logs/NAME.grid.{out,err}
#  2. rt21.py run NAME Diet (5 harness shapes, Diet schedule/compile s) -> results.jsonl, logs/NAME.Diet.{out,err}
#  3. rt21.py ab NAME ${ROUNDS:-2} -> ${AB_OUT:-ab_results}.jsonl, ${AB_OUT:-ab}_compile.jsonl  (NO_AB=1 skips 3, NO_CHECK=1 skips 1-2)
# logs/loadavg.txt gets /proc/loadavg before each pipeline
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt21/libautoschedule_diet.so} HL_NUM_PASSES=${HL_NUM_PASSES:-1}
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")}
for p in $names; do
  echo "$(date +%T) $p $(cat /proc/loadavg)" >> logs/loadavg.txt
  if [ -z "$NO_CHECK" ]; then
  nice -n ${NICE:-19} timeout ${TMO:-400} /usr/bin/python3 -W ignore rt21.py grid $p Diet ${GRID_N:-30} > logs/$p.grid.out 2>logs/$p.grid.err
  echo "$p rc=$? $(tail -1 logs/$p.grid.out)" >> ${GRID_OUT:-grid.txt}
  nice -n ${NICE:-19} timeout ${TMO:-400} /usr/bin/python3 -W ignore rt21.py run $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  rc=$?
  if grep -q '^RESULT' logs/$p.Diet.out; then grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
  else echo "{\"pipeline\": \"$p\", \"sched\": \"Diet\", \"status\": \"crash rc=$rc: $(tail -c 300 logs/$p.Diet.err | tr -d '\"\\\n' )\"}" >> results.jsonl; fi
  fi
  [ -n "$NO_AB" ] || { nice -n ${NICE:-10} timeout ${AB_TIMEOUT:-400} /usr/bin/python3 -W ignore rt21.py ab $p ${ROUNDS:-2} > logs/$p.${AB_OUT:-ab}.out 2> logs/$p.${AB_OUT:-ab}.err
  grep '^AB ' logs/$p.${AB_OUT:-ab}.out | sed 's/^AB //' >> ${AB_OUT:-ab_results}.jsonl
  grep '^CT ' logs/$p.${AB_OUT:-ab}.out | sed 's/^CT //' >> ${AB_OUT:-ab}_compile.jsonl; }
  echo "$(date +%T) $p done" >> logs/progress.txt
done
