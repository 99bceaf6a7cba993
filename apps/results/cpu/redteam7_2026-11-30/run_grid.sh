#!/bin/bash
# usage: run_grid.sh pipelines...: check_grid7.py with Diet per pipeline -> grid.txt, logs/NAME.grid.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt7_diet.so}
for p in "$@"; do
  timeout 900 /usr/bin/python3 check_grid7.py $p Diet ${GRID_N:-80} > logs/$p.grid.out 2>logs/$p.grid.err
  echo "$p rc=$? $(tail -1 logs/$p.grid.out)" >> grid.txt
done
