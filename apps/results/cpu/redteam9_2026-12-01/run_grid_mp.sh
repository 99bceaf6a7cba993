#!/bin/bash
# usage: run_grid_mp.sh: every pipeline, GRID_N (default 20) shapes, under MachineParams(1, 256K, 40) and (64, 32M, 40),
# own target -> grid_mp.txt, logs/NAME.gridmpP.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt9_diet.so}
for p in $(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes9; print(' '.join(n for n in pipes9.SPECS if not n.startswith('wavenet')))"); do
  for mp in "1 262144" "64 33554432"; do
    set -- $mp
    nice -n 10 timeout 600 /usr/bin/python3 check_grid9_mp.py $1 $2 $p Diet ${GRID_N:-20} > logs/$p.gridmp$1.out 2> logs/$p.gridmp$1.err
    echo "MP($1,$2) $p rc=$? $(tail -1 logs/$p.gridmp$1.out)" >> grid_mp.txt
  done
done
