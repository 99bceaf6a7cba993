#!/bin/bash
# while waiting for /tmp/s9/CPU_FREE: the 18-shape grid on the OTHER target (A pipelines on B, B on A; RT9_TARGET) ->
# grid_xtarget.txt, logs/NAME.gridx.{out,err}; stops before the next pipeline once CPU_FREE exists or at 13:48; nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
TA=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
TB=x86-64-linux-avx-avx2-f16c-fma-sse41
for pt in $(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(n + ':' + s['target'] for n, s in pipes21.SPECS.items()))"); do
  p=${pt%:*}; t=${pt##*:}
  if [ -e /tmp/s9/CPU_FREE ] || [ "$(date +%H%M)" -ge 1348 ]; then echo "$(date +%T) xtarget grid stopped before $p" >> logs/progress.txt; break; fi
  if [ "$t" = "A" ]; then X=$TB; else X=$TA; fi
  RT9_TARGET=$X nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/check_grid21.py $p Diet 18 > logs/$p.gridx.out 2> logs/$p.gridx.err
  echo "$p on $X rc=$? $(tail -1 logs/$p.gridx.out)" >> grid_xtarget.txt
done
echo "$(date +%T) XGRID DONE" >> logs/progress.txt
