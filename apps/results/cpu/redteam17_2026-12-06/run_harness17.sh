#!/bin/bash
# step 2 of run_all17.sh only (5-shape harness + Diet schedule/compile s), rerun after creating sched/ and sched_avx512/
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt17/libautoschedule_diet.so HL_NUM_PASSES=1
for p in $(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes17; print(' '.join(pipes17.SPECS))"); do
  echo "$(date +%T) run $p $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 400 /usr/bin/python3 -W ignore rt17.py run $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  rc=$?
  if grep -q '^RESULT' logs/$p.Diet.out; then grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
  else echo "{\"pipeline\": \"$p\", \"sched\": \"Diet\", \"status\": \"crash rc=$rc: $(tail -c 300 logs/$p.Diet.err | tr -d '\"\\\n' )\"}" >> results.jsonl; fi
done
echo "$(date +%T) HARNESS DONE" >> logs/progress.txt
