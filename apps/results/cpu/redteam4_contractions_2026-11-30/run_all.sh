#!/bin/bash
# Every pipeline of pipes.py with Diet (the plugin in $DIET_PLUGIN, default build/), Adams2019 at
# the range's top and at the small timed shape, Mullapudi2016 at the top; one run each, appended
# to results.jsonl as {"system": ..., "r": run4.py's RESULT}.
cd "$(dirname "$0")"
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes; print(' '.join(pipes.SPECS))")
: > results.jsonl
for p in $names; do
  for sys in Diet Adams2019 Adams2019@small Mullapudi2016; do
    timeout 900 /usr/bin/python3 run4.py $p $sys 2>/dev/null | grep '^RESULT' | sed "s/^RESULT /{\"system\": \"$sys\", \"round\": 1, \"r\": /; s/\$/}/" >> results.jsonl
  done
done
