#!/bin/bash
cd "$(dirname "$0")"
for p in "$@"; do
  DIET_PLUGIN=/work/main/build/libautoschedule_diet.so timeout 600 /usr/bin/python3 check_grid5.py $p > logs/$p.grid.out 2>logs/$p.grid.err
  echo "$p rc=$? $(tail -1 logs/$p.grid.out)" >> grid.txt
done
