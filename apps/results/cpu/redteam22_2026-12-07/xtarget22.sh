#!/bin/bash
# usage: xtarget22.sh GEN TGT: builds GEN's reference and Diet libraries for the OTHER target (A<->B) into
# /tmp/rt22/work/xt/GEN, links the harness (Mullapudi/Adams stubbed), runs the 18-shape grid (ref vs Diet) -> grid_xtarget.jsonl
R=/work/main/apps/results/cpu/redteam22_2026-12-07; W=/tmp/rt22/work
GEN=$1; case $2 in A) T=B; TGT=x86-64-linux-avx-avx2-f16c-fma-sse41;; B) T=A; TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41;; esac
D=$W/xt/$GEN; mkdir -p $D $W/xt/bin $R/logs/xtarget $R/sched_xtarget
nice -n 19 $W/gens22.generator -g $GEN -f ${GEN}_ref -n ${GEN}_ref -o $D -e static_library,h target=$TGT auto_schedule=false sym=false root_all=true 2> $R/logs/xtarget/$GEN.ref.err
t0=$(date +%s.%N)
nice -n 19 $W/gens22.generator -g $GEN -f ${GEN}_diet -n ${GEN}_diet -o $D -e static_library,h,schedule target=$TGT -p /tmp/rt22/libautoschedule_diet.so -s Diet auto_schedule=true sym=true machine_params=2,1048576,40 2> $R/logs/xtarget/$GEN.diet.err
echo "{\"gen\": \"$GEN\", \"target\": \"$T\", \"diet_rc\": $?, \"secs\": $(echo "$(date +%s.%N) - $t0" | bc | sed 's/^\./0./')}" >> $R/logs/xtarget/builds.jsonl
cp $D/${GEN}_diet.schedule.h $R/sched_xtarget/ 2>/dev/null
cat > $D/stubs.cpp <<EOS
extern "C" const void *${GEN}_ref_metadata(void);
extern "C" int ${GEN}_mull_argv(void **) { return -1; }
extern "C" const void *${GEN}_mull_metadata(void) { return ${GEN}_ref_metadata(); }
extern "C" int ${GEN}_adams_argv(void **) { return -1; }
extern "C" const void *${GEN}_adams_metadata(void) { return ${GEN}_ref_metadata(); }
extern "C" int ${GEN}_adamss_argv(void **) { return -1; }
extern "C" const void *${GEN}_adamss_metadata(void) { return ${GEN}_ref_metadata(); }
EOS
nice -n 19 g++ -O2 -std=c++17 -DGEN=$GEN -I/usr/include/halide14 $R/harness/harness.cpp $D/stubs.cpp $D/${GEN}_ref.a $D/${GEN}_diet.a -o $W/xt/bin/$GEN -lpthread -ldl
cd $R && BIN_DIR=$W/xt/bin ONLY=ref,diet GRID_OUT=grid_xtarget.jsonl /usr/bin/python3 run22.py grid $GEN 18
