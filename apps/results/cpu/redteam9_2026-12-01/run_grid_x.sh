#!/bin/bash
# usage: run_grid_x.sh: check_grid9.py with Diet for every pipeline at the OTHER target (spec 'A' -> AVX2, 'B' -> AVX-512,
# 'Bs' -> AVX-512 + strict_float), GRID_N (default 25) shapes -> grid_x.txt, logs/NAME.gridx.{out,err}
cd "$(dirname "$0")"
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41; B=x86-64-linux-avx-avx2-f16c-fma-sse41
/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes9; print('\n'.join('%s %s' % (n, s['target']) for n, s in pipes9.SPECS.items()))" | while read p t; do
  case $t in A) x=$B;; B) x=$A;; Bs) x=$A-strict_float;; esac
  RT9_TARGET=$x GRID_OUT=grid_x.txt LOGTAG=x GRID_N=${GRID_N:-25} ./run_grid.sh $p
done
