#!/bin/bash
# usage: run_grid_wide.sh pipelines...: check_grid7.py with Diet, GRID_N (default 250) shapes -> grid_wide.txt, logs/NAME.gridwide.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt7_diet.so}
for p in "$@"; do
  timeout 900 /usr/bin/python3 check_grid7.py $p Diet ${GRID_N:-250} > logs/$p.gridwide.out 2>logs/$p.gridwide.err
  echo "$p rc=$? $(tail -1 logs/$p.gridwide.out)" >> grid_wide.txt
done
