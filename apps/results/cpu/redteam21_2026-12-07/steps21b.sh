#!/bin/bash
# after steps21.sh: the color-grade grid with check_grid21.py (sampled shapes; the full product was killed), sanity21.py,
# repro_llap21.py; one process at a time, nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q 'GRID DONE' logs/progress.txt; do sleep 10; done
p=color_grade_interleaved_rgb_u16_batch_levels_black_white_params_select_chain_per_channel_gains_mux_q8_gamma_lut_func_1024_saturation_q8_param_u16_sat_c_x_y_n
nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/check_grid21.py $p Diet 18 > logs/$p.grid21.out 2> logs/$p.grid21.err
echo "$p rc=$? $(tail -1 logs/$p.grid21.out) (check_grid21.py, sampled)" >> grid.txt
echo "$(date +%T) color_grade grid21 done" >> logs/progress.txt
nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/sanity21.py > sanity21.out 2>&1
echo "$(date +%T) SANITY DONE" >> logs/progress.txt
nice -n 19 timeout 900 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/repro_llap21.py 512 512 20 10 > repro_llap21.out 2> logs/repro_llap21.err
echo "$(date +%T) REPRO LLAP DONE rc=$?" >> logs/progress.txt
