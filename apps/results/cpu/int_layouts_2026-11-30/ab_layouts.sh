#!/bin/bash
# alternate old (packed, before) and new plugin per form; 2 rounds each
T=$1; shift
for r in 1 2; do for f in "$@"; do
  for which in old new; do
    plug=${BEFORE:?before plugin}; [ $which = new ] && plug=${AFTER:?after plugin}
    echo -n "r$r $which "; /usr/bin/python3 $(dirname "$0")/probe.py $plug $T $f 2>/dev/null
  done
done; done
