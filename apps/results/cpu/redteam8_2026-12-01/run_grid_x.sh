#!/bin/bash
# usage: run_grid_x.sh pipelines...: the grid check at the OTHER target than the spec's (RT8_TARGET override),
# GRID_N shapes (default 40) -> grid_x.txt, logs/NAME.gridx.{out,err}
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt8_diet.so}
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41; B=x86-64-linux-avx-avx2-f16c-fma-sse41
for p in "$@"; do
  t=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes8; print(pipes8.SPECS['$p'].get('target', 'B'))")
  if [ "$t" = A ]; then x=$B; else x=$A; fi
  RT8_TARGET=$x nice -n 10 timeout ${TMO:-900} /usr/bin/python3 check_grid8.py $p Diet ${GRID_N:-40} > logs/$p.gridx.out 2>logs/$p.gridx.err
  echo "$p target=${x:0:40}... rc=$? $(tail -1 logs/$p.gridx.out)" >> grid_x.txt
done
