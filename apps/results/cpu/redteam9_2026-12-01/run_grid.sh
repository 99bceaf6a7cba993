#!/bin/bash
# usage: run_grid.sh pipelines...: check_grid9.py with Diet per pipeline (GRID_N shapes, default 50: both ends of every
# range, each Param at lo with the others at hi and the reverse, then random in-range combos incl. primes 3,5,7,17,31,...)
# -> ${GRID_OUT:-grid.txt}, logs/NAME.grid${LOGTAG}.{out,err}. RT9_TARGET overrides the spec's target.
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt9_diet.so}
for p in "$@"; do
  nice -n 10 timeout ${TMO:-600} /usr/bin/python3 check_grid9.py $p Diet ${GRID_N:-50} > logs/$p.grid${LOGTAG}.out 2>logs/$p.grid${LOGTAG}.err
  echo "$p rc=$? $(tail -1 logs/$p.grid${LOGTAG}.out)" >> ${GRID_OUT:-grid.txt}
done
