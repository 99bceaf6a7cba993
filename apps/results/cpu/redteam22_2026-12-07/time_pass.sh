#!/bin/bash
# usage: time_pass.sh NICE OUTFILE: one timing pass over every generator (small + large shape), one process at a time
cd /work/main/apps/results/cpu/redteam22_2026-12-07
echo "pass nice=$1 out=$2 start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) cpu_free=$([ -e /tmp/s10/CPU_FREE ] && echo yes || echo no)" >> logs/progress.txt
while read g t; do NICE=$1 TIMES_OUT=$2 ROUNDS=${ROUNDS:-10} /usr/bin/python3 run22.py time $g; done < gens_table.txt
echo "pass nice=$1 out=$2 end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> logs/progress.txt
