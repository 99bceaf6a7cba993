#!/bin/bash
# usage: run_all.sh pipelines...: per pipeline, one niced process each, never two at once:
#  1. check_grid11.py with Diet (GRID_N shapes, default 30) -> ${GRID_OUT:-grid.txt}, logs/NAME.grid.{out,err}
#  2. run11.py NAME Diet (the 5 harness shapes + Diet's schedule/compile s) -> results.jsonl, logs/NAME.Diet.{out,err}
# (NO_AB=1 skips 3; NO_CHECK=1 skips 1 and 2)
#  3. ab11.py NAME ${ROUNDS:-2} (Diet/Mullapudi2016/Adams2019c/ref timing) -> ab_results.jsonl, ab_compile.jsonl
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt11/libautoschedule_diet.so} HL_NUM_PASSES=${HL_NUM_PASSES:-1}
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes11; print(' '.join(pipes11.SPECS))")}
for p in $names; do
  if [ -z "$NO_CHECK" ]; then
  nice -n 10 timeout ${TMO:-300} /usr/bin/python3 check_grid11.py $p Diet ${GRID_N:-30} > logs/$p.grid.out 2>logs/$p.grid.err
  echo "$p rc=$? $(tail -1 logs/$p.grid.out)" >> ${GRID_OUT:-grid.txt}
  nice -n 10 timeout ${TMO:-300} /usr/bin/python3 run11.py $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  rc=$?
  if grep -q '^RESULT' logs/$p.Diet.out; then grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
  else echo "{\"pipeline\": \"$p\", \"sched\": \"Diet\", \"status\": \"crash rc=$rc: $(tail -c 300 logs/$p.Diet.err | tr -d '\"\\\n' )\"}" >> results.jsonl; fi
  fi
  [ -n "$NO_AB" ] || { nice -n 10 timeout ${AB_TIMEOUT:-300} /usr/bin/python3 ab11.py $p ${ROUNDS:-2} > logs/$p.ab.out 2> logs/$p.ab.err
  grep '^AB ' logs/$p.ab.out | sed 's/^AB //' >> ab_results.jsonl
  grep '^CT ' logs/$p.ab.out | sed 's/^CT //' >> ab_compile.jsonl; }
  echo "$(date +%T) $p done" >> logs/progress.txt
done
