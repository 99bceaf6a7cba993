#!/usr/bin/env bash
# Alternating systems, $1 rounds (default 3), one process per (pipeline, system, round); nothing else
# should run. Usage: bash run.sh [rounds] > timings.txt (schedules and errors: run_stderr.log)
cd "$(dirname "$0")"
rounds=${1:-3}
echo "# $(date -u); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores,$(grep -q avx512f /proc/cpuinfo && echo ' AVX-512' || echo ' no AVX-512'); commit $(git rev-parse --short HEAD); target x86-64-linux-avx-avx2-f16c-fma-sse41; median of 101 realizes"
for r in $(seq "$rounds"); do
    for p in depthwise maxpool param_mod; do
        others=Adams2019
        [ "$p" = param_mod ] && others="Adams2019 Mullapudi2016"
        for s in Diet $others; do
            /usr/bin/python3 bench.py "$p" "$s" 2>>run_stderr.log | grep RESULT
        done
    done
done
