#!/bin/bash
# usage: run_all.sh [pipelines...]: each pipeline with Diet, Adams2019, Adams2019@small, Mullapudi2016, Mullapudi2016@small
# (one process each, timeout 900 s); RESULT lines -> results.jsonl, stdout/stderr -> logs/NAME.SCHED.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt7_diet.so}
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes7; print(' '.join(pipes7.SPECS))")}
for p in $names; do
  for s in ${SCHEDS:-Diet Adams2019 Adams2019@small Mullapudi2016 Mullapudi2016@small}; do
    timeout 900 /usr/bin/python3 run7.py $p $s 2>logs/$p.$s${LOGTAG}.err > logs/$p.$s${LOGTAG}.out
    rc=$?
    if grep -q '^RESULT' logs/$p.$s${LOGTAG}.out; then grep '^RESULT' logs/$p.$s${LOGTAG}.out | sed 's/^RESULT //' >> ${RESULTS:-results.jsonl}
    else echo "{\"pipeline\": \"$p\", \"sched\": \"$s\", \"status\": \"crash rc=$rc: $(tail -c 300 logs/$p.$s${LOGTAG}.err | tr -d '\"\\\n' )\"}" >> ${RESULTS:-results.jsonl}; fi
    echo "$(date +%T) $p $s rc=$rc" >> logs/progress.txt
  done
done
