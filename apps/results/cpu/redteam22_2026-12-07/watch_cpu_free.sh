#!/bin/bash
# used in this round: waits (until 16:50) for /tmp/s10/CPU_FREE, then runs two timing passes at nice 10, one process at a time
cd /work/main/apps/results/cpu/redteam22_2026-12-07
until [ -e /tmp/s10/CPU_FREE ]; do
  [ $(date +%H%M) -ge 1650 ] && { echo "watch: no CPU_FREE by $(date +%T)" >> logs/progress.txt; exit 0; }
  sleep 10
done
echo "watch: CPU_FREE seen at $(date +%T) (file mtime $(stat -c %y /tmp/s10/CPU_FREE))" >> logs/progress.txt
for p in 3 4; do
  ./time_pass.sh 10 times_p${p}_nice10.jsonl > logs/time_p${p}_nice10.out 2>&1
  for g in lens_blur lens_blur_padded stft stft_bins32 argmax_gather argmax_t_inner max_only nl_means nl_means_padded interleaved_io sobel_wrappers tuple_output no_input_estimates; do
    NICE=10 TIMES_OUT=times_extra_p${p}_nice10.jsonl /usr/bin/python3 run22.py time $g >> logs/time_p${p}_nice10.out 2>&1
  done
  echo "extra pass $p end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> logs/progress.txt
done
echo WATCH_DONE >> logs/progress.txt
