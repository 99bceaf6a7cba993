#!/bin/bash
# usage: run_grid.sh pipelines...: check_grid8.py with Diet per pipeline (GRID_N shapes, default 60; both ends of every
# range, each Param at lo with the others at hi and the reverse, then random in-range combos) -> grid.txt, logs/NAME.grid.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt8_diet.so}
for p in "$@"; do
  nice -n 10 timeout ${TMO:-900} /usr/bin/python3 check_grid8.py $p Diet ${GRID_N:-60} > logs/$p.grid.out 2>logs/$p.grid.err
  echo "$p rc=$? $(tail -1 logs/$p.grid.out)" >> grid.txt
done
