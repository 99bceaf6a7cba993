#!/bin/bash
# the 5-shape harness (rt21.py run NAME Diet) for every pipeline, after REPRO LLAP DONE (the first harness pass in steps21.sh
# failed on every pipeline because ./sched and ./sched_avx512 did not exist; logs/results_nosched_dir.jsonl); nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "REPRO LLAP DONE" logs/progress.txt; do sleep 10; done
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")
for p in $names; do
  nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py run $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  rc=$?
  if grep -q '^RESULT' logs/$p.Diet.out; then grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
  else echo "{\"pipeline\": \"$p\", \"sched\": \"Diet\", \"status\": \"crash rc=$rc: $(tail -c 300 logs/$p.Diet.err | tr -d '\"\\\n' )\"}" >> results.jsonl; fi
done
echo "$(date +%T) HARNESS DONE" >> logs/progress.txt
