#!/bin/bash
# Before/after timing (Diet's harness shapes, interleaved rounds) of red-team pipelines whose
# schedule a change alters. Usage: ab.sh BEFORE_SO AFTER_SO OUT.jsonl ROUNDS T:rN_name ...
# (T is A or B; rN_ names as in changed_{A,B}.txt, schedall_any.py's prefixes.)
cd /work/main/apps/results/cpu
before=$1; after=$2; out=$3; rounds=$4; shift 4
declare -A DIR=([r1]=redteam_2026-11-30:pipes [r3]=redteam3_fixes_2026-11-30:pipes [r4]=redteam4_contractions_2026-11-30:pipes
  [r5]=redteam5_2026-11-30:pipes [r6]=redteam6_2026-11-30:pipes6 [r7]=redteam7_2026-11-30:pipes7 [r8]=redteam8_2026-12-01:pipes8
  [r9]=redteam9_2026-12-01:pipes9 [scan]=scan_lanes_2026-12-01:pipes [r10]=redteam10_2026-12-01:pipes10 [r11]=redteam11_2026-12-02:pipes11 [r12]=redteam12_2026-12-02:pipes12)
declare -A TGT=([A]=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41 [B]=x86-64-linux-avx-avx2-f16c-fma-sse41)
mkdir -p /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
for item in "$@"; do
  t=${item%%:*}; full=${item#*:}; tag=${full%%_*}; name=${full#*_}; dm=${DIR[$tag]}
  for round in $(seq 1 "$rounds"); do
    for sys in before after; do
      so=$before; [ $sys = after ] && so=$after
      RT_DIR=${dm%%:*} RT_MOD=${dm##*:} RT9_TARGET=${TGT[$t]} DIET_PLUGIN=$so HL_NUM_PASSES=1 timeout 600 \
        /usr/bin/python3 long_steps_grain_2026-12-02/runany.py $name Diet 2>/dev/null | grep '^RESULT' |
        sed "s/^RESULT /{\"system\": \"$sys\", \"target\": \"$t\", \"tag\": \"$tag\", \"round\": $round, \"r\": /; s/\$/}/" >> "$out"
    done
  done
done
