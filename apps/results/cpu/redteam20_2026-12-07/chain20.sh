#!/bin/bash
# after steps20.sh (grid + harness): sanity20.py (numpy checks of the references) at nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt20/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q 'GRID DONE' logs/progress.txt; do sleep 10; done
nice -n 19 /usr/bin/python3 -W ignore rt20.py r11 ../redteam20_2026-12-07/sanity20.py > sanity20.out 2>&1
echo "$(date +%T) SANITY DONE" >> logs/progress.txt
