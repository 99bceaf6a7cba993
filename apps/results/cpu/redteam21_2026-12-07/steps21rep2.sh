#!/bin/bash
# after REPROS DONE: repro_shapes21.py on the video median (Diet >= 1.5x Adams2019c at the small shape in both passes),
# default threads and HL_NUM_THREADS=1; nice 10, one process at a time
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "REPROS DONE" logs/progress.txt; do sleep 5; done
S="W=81,H=61,T=2 W=161,H=121,T=2 W=320,H=240,T=4 W=640,H=480,T=8"
nice -n 10 timeout 600 /usr/bin/python3 -W ignore repro_shapes21.py video_temporal $S > repro_video21.out 2> logs/repro_video21.err
HL_NUM_THREADS=1 nice -n 10 timeout 600 /usr/bin/python3 -W ignore repro_shapes21.py video_temporal W=81,H=61,T=2 W=640,H=480,T=8 >> repro_video21.out 2>> logs/repro_video21.err
echo "$(date +%T) REPRO VIDEO DONE rc=$?" >> logs/progress.txt
