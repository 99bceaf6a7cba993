#!/bin/bash
# usage: run_all.sh [pipelines...]: each pipeline with $SCHEDS (default "Diet"), one process each (timeout ${TMO:-300} s),
# niced; RESULT lines -> ${RESULTS:-results.jsonl}, stdout/stderr -> logs/NAME.SCHED.{out,err} (stderr has Diet's [diet] log)
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt9_diet.so} HL_NUM_PASSES=${HL_NUM_PASSES:-1}
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes9; print(' '.join(pipes9.SPECS))")}
for p in $names; do
  for s in ${SCHEDS:-Diet}; do
    t0=$(date +%s.%N)
    nice -n 10 timeout ${TMO:-300} /usr/bin/python3 run9.py $p $s 2>logs/$p.$s${LOGTAG}.err > logs/$p.$s${LOGTAG}.out
    rc=$?
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    if grep -q '^RESULT' logs/$p.$s${LOGTAG}.out; then grep '^RESULT' logs/$p.$s${LOGTAG}.out | sed 's/^RESULT //' >> ${RESULTS:-results.jsonl}
    else echo "{\"pipeline\": \"$p\", \"sched\": \"$s\", \"status\": \"crash rc=$rc: $(tail -c 300 logs/$p.$s${LOGTAG}.err | tr -d '\"\\\n' )\"}" >> ${RESULTS:-results.jsonl}; fi
    echo "$(date +%T) $p $s rc=$rc wall=$wall" >> logs/progress.txt
  done
done
