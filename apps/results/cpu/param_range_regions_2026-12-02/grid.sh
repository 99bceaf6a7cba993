#!/bin/bash
# Round 6's grid check (every Param at its ends, then random in-range shapes, against the
# unscheduled reference) with one plugin on red-team pipelines. Usage: grid.sh PLUGIN OUT.txt N T:rN_name ...
cd /work/main/apps/results/cpu
plugin=$1; out=$2; n=$3; shift 3
declare -A DIR=([r1]=redteam_2026-11-30:pipes [r3]=redteam3_fixes_2026-11-30:pipes [r4]=redteam4_contractions_2026-11-30:pipes
  [r5]=redteam5_2026-11-30:pipes [r6]=redteam6_2026-11-30:pipes6 [r7]=redteam7_2026-11-30:pipes7 [r8]=redteam8_2026-12-01:pipes8
  [r9]=redteam9_2026-12-01:pipes9 [scan]=scan_lanes_2026-12-01:pipes [r10]=redteam10_2026-12-01:pipes10 [r11]=redteam11_2026-12-02:pipes11 [r12]=redteam12_2026-12-02:pipes12)
declare -A TGT=([A]=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41 [B]=x86-64-linux-avx-avx2-f16c-fma-sse41)
for item in "$@"; do
  t=${item%%:*}; full=${item#*:}; tag=${full%%_*}; name=${full#*_}; dm=${DIR[$tag]}
  res=$(DIET_PLUGIN=$plugin RT9_TARGET=${TGT[$t]} HL_NUM_PASSES=1 timeout 600 nice -n 5 /usr/bin/python3 \
        long_steps_grain_2026-12-02/gridone.py ${dm%%:*} ${dm##*:} $name $n 2>/dev/null | tail -1)
  echo "$t $full rc=$? $res" >> "$out"
done
