#!/bin/bash
# one line per (target, tag_name): runs the grid check with the new plugin
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
declare -A DIR=([r1]=redteam_2026-11-30 [r3]=redteam3_fixes_2026-11-30 [r4]=redteam4_contractions_2026-11-30 [r5]=redteam5_2026-11-30 [r6]=redteam6_2026-11-30 [r7]=redteam7_2026-11-30 [r8]=redteam8_2026-12-01 [r9]=redteam9_2026-12-01 [r10]=redteam10_2026-12-01 [scan]=scan_lanes_2026-12-01)
declare -A MOD=([r1]=pipes [r3]=pipes [r4]=pipes [r5]=pipes [r6]=pipes6 [r7]=pipes7 [r8]=pipes8 [r9]=pipes9 [r10]=pipes10 [scan]=pipes)
t=$1; tn=$2; tag=${tn%%_*}; name=${tn#*_}
tgt=$A; [ $t = B ] && tgt=$B
out=$(DIET_PLUGIN=/tmp/new3.so RT9_TARGET=$tgt HL_NUM_PASSES=1 timeout 300 /usr/bin/python3 /tmp/ab2/gridone.py ${DIR[$tag]} ${MOD[$tag]} $name 10 2>/tmp/grid/$t.$tn.err | tail -1)
echo "$t $tn rc=$? $out" >> /tmp/grid/results.txt
