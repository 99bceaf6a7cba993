#!/bin/bash
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "GRID2 DONE" logs/progress.txt; do sleep 5; done
nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/repro_srgb21.py 403 303 > repro_srgb21.out 2> logs/repro_srgb21.err
echo "$(date +%T) SRGB DONE rc=$?" >> logs/progress.txt
