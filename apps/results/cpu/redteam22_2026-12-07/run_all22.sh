#!/bin/bash
# Reruns round 22: compile the generators, build every generator 5 ways (ref, diet, mull, adams, adamss), link the
# harnesses, run the correctness grids (18 and 40 shapes), the cross-target grid, the variants and the C++-idiom
# generators, then (when /tmp/s10/CPU_FREE exists, or with FORCE_TIME=1) two timing passes.
# Everything before the timing runs at nice 19.
set -u
R=/work/main/apps/results/cpu/redteam22_2026-12-07
W=/tmp/rt22/work
cd $R
mkdir -p $W
G="nice -n 19 g++ -std=c++17 -O1 -fno-rtti -I/usr/include/halide14"
L="/usr/src/halide14/GenGen.cpp /usr/lib/x86_64-linux-gnu/libHalide14.so -lpthread -ldl -lz"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  $G gens/gens22.cpp $L -o $W/gens22.generator
  $G repro/variants22.cpp $L -o $W/variants22.generator
  $G gens/breakers22.cpp $L -o $W/breakers22.generator
  xargs -P 2 -L 1 ./build22.sh < gens_table.txt
  GENBIN=$W/variants22.generator xargs -P 2 -L 1 ./build22.sh < repro/variants_table.txt
  grep -v array_io breakers_table.txt | GENBIN=$W/breakers22.generator xargs -P 2 -L 1 ./build22.sh
  EXTRA="ins.size=3 outs.size=3" GENBIN=$W/breakers22.generator ./build22.sh array_io B
fi
for g in $(cut -d' ' -f1 gens_table.txt repro/variants_table.txt breakers_table.txt); do /usr/bin/python3 run22.py harness $g; done
if [ "${SKIP_GRID:-0}" != 1 ]; then
  while read g t; do
    /usr/bin/python3 run22.py grid $g 18
    GRID_OUT=grid40.jsonl /usr/bin/python3 run22.py grid $g 40
    ./xtarget22.sh $g $t
  done < gens_table.txt
  while read g t; do GRID_OUT=grid_variants.jsonl /usr/bin/python3 run22.py grid $g 10; done < repro/variants_table.txt
  while read g t; do GRID_OUT=grid_breakers.jsonl /usr/bin/python3 run22.py grid $g 18; done < breakers_table.txt
  repro/strict_float22.sh resize A "in=[1024,1024,3] scale=1.7 IW=1024 IH=1024 OW=1 OH=1024 out=[1,1024,3]"
  repro/strict_float22.sh camera_pipe A "raw=[1024,768]@0:1023 ccm=[4,3]@0:1 gamma=2.2 W=1024 H=768 out=[1024,768,3]"
fi
if [ -e /tmp/s10/CPU_FREE ] || [ "${FORCE_TIME:-0}" = 1 ]; then
  NICE=${NICE:-10}
  for p in 1 2; do
    ./time_pass.sh $NICE times_rerun_p${p}.jsonl
    for g in $(cut -d' ' -f1 repro/variants_table.txt breakers_table.txt) lens_blur stft argmax_gather nl_means; do
      NICE=$NICE TIMES_OUT=times_rerun_extra_p${p}.jsonl /usr/bin/python3 run22.py time $g
    done
  done
  /usr/bin/python3 mk_table22.py times_rerun_p1.jsonl tables_rerun.md times_rerun_p2.jsonl
fi
