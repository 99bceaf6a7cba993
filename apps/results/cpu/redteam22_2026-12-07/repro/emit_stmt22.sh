#!/bin/bash
# usage: emit_stmt22.sh GEN A|B SYS [extra generator args]: writes the lowered Stmt (and schedule) of one build to repro/stmt/
R=/work/main/apps/results/cpu/redteam22_2026-12-07; W=/tmp/rt22/work
GEN=$1; T=$2; S=$3; shift 3
case $T in
  A) TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41;;
  B) TGT=x86-64-linux-avx-avx2-f16c-fma-sse41;;
esac
PL=/usr/lib/x86_64-linux-gnu/halide14
case $S in
  diet) ARGS="-p /tmp/rt22/libautoschedule_diet.so -s Diet auto_schedule=true sym=true";;
  mull) ARGS="-p $PL/libautoschedule_mullapudi2016.so -s Mullapudi2016 auto_schedule=true sym=false";;
  adams) ARGS="-p $PL/libautoschedule_adams2019.so -s Adams2019 auto_schedule=true sym=false";;
esac
mkdir -p $R/repro/stmt $W/stmt
HL_NUM_PASSES=1 nice -n 19 ${GENBIN:-$W/gens22.generator} -g $GEN -f ${GEN}_$S -n ${GEN}_$S -o $W/stmt -e stmt,schedule target=$TGT $ARGS machine_params=2,1048576,40 "$@" 2> $R/repro/stmt/${GEN}_$S.err
cp $W/stmt/${GEN}_$S.stmt $R/repro/stmt/ 2>/dev/null
ls -la $R/repro/stmt/${GEN}_$S.stmt
