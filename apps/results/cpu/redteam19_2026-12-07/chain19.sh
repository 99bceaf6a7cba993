#!/bin/bash
# after steps19.sh (grid + harness): sanity19.py (numpy checks of the references), then steps19ab.sh (ab pass 1)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q 'GRID DONE' logs/progress.txt; do sleep 10; done
nice -n 10 /usr/bin/python3 -W ignore rt19.py r11 ../redteam19_2026-12-07/sanity19.py > sanity19.out 2>&1
echo "$(date +%T) SANITY DONE" >> logs/progress.txt
./steps19ab.sh
