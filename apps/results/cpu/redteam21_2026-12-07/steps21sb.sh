#!/bin/bash
# sobel spec changed at 12:55 (TH range 0..255 -> 0..254: at TH = 255 Adams2019c's constant build folds the whole
# pipeline away); rerun its grid (18 and 40 shapes) and harness after the triage; nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "TRIAGE DONE" logs/progress.txt; do sleep 5; done
p=sobel_l1_magnitude_batch_planar_u8_global_in_wrapper_repeat_edge_per_consumer_func_in_wrappers_u16_arith_absd_u8_sat_threshold_param_plus_per_image_edge_count_u32
GRID_N=18 NICE=19 NO_AB=1 TMO=600 GRID_OUT=grid_sobel_th254.txt ./run_all21.sh $p
nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/check_grid21.py $p Diet 40 > logs/$p.grid40b.out 2> logs/$p.grid40b.err
echo "$p rc=$? $(tail -1 logs/$p.grid40b.out) (TH 0..254)" >> grid40.txt
echo "$(date +%T) SOBEL DONE" >> logs/progress.txt
