#!/bin/bash
# after HARNESS DONE: repro_llap21.py (rerun with Adams2019c constants), nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "HARNESS DONE" logs/progress.txt; do sleep 5; done
nice -n 19 timeout 900 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/repro_llap21.py 512 512 20 10 > repro_llap21.out 2> logs/repro_llap21.err
echo "$(date +%T) LLAP2 DONE rc=$?" >> logs/progress.txt
