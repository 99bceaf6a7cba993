#!/bin/bash
# Every pipeline of pipes.py with Diet only, one at a time; RESULT lines -> results.jsonl, stderr -> logs/NAME.Diet.err
cd "$(dirname "$0")"
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes; print(' '.join(pipes.SPECS))" 2>/dev/null)}
for p in $names; do
  DIET_PLUGIN=/work/main/build/libautoschedule_diet.so timeout 900 /usr/bin/python3 run5.py $p Diet 2>logs/$p.Diet.err > logs/$p.Diet.out
  rc=$?
  if grep -q '^RESULT' logs/$p.Diet.out; then grep '^RESULT' logs/$p.Diet.out | sed 's/^RESULT //' >> results.jsonl
  else echo "{\"pipeline\": \"$p\", \"sched\": \"Diet\", \"status\": \"crash rc=$rc\"}" >> results.jsonl; fi
  echo "$p rc=$rc" >> logs/progress.txt
done
