#!/bin/bash
# usage: strict_float22.sh GEN TGT(A|B) 'ARGS...' ['ARGS...' ...]: builds GEN's Diet and reference libraries with the
# strict_float target feature into /tmp/rt22/work/sf/GEN, links the harness (Mullapudi/Adams stubbed out: ONLY=ref,diet)
# and runs `check` at each shape given (the harness's ARG=SPEC list).
W=/tmp/rt22/work; R=/work/main/apps/results/cpu/redteam22_2026-12-07
GEN=$1; T=$2; shift 2
case $T in
  A) TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41-strict_float;;
  B) TGT=x86-64-linux-avx-avx2-f16c-fma-sse41-strict_float;;
esac
D=$W/sf/$GEN; mkdir -p $D
nice -n 19 $W/gens22.generator -g $GEN -f ${GEN}_ref -n ${GEN}_ref -o $D -e static_library,h target=$TGT auto_schedule=false sym=false root_all=true
nice -n 19 $W/gens22.generator -g $GEN -f ${GEN}_diet -n ${GEN}_diet -o $D -e static_library,h target=$TGT -p /tmp/rt22/libautoschedule_diet.so -s Diet auto_schedule=true sym=true machine_params=2,1048576,40 2>/dev/null
cat > $D/stubs.cpp <<EOS
extern "C" const void *${GEN}_ref_metadata(void);
extern "C" int ${GEN}_mull_argv(void **) { return -1; }
extern "C" const void *${GEN}_mull_metadata(void) { return ${GEN}_ref_metadata(); }
extern "C" int ${GEN}_adams_argv(void **) { return -1; }
extern "C" const void *${GEN}_adams_metadata(void) { return ${GEN}_ref_metadata(); }
EOS
nice -n 19 g++ -O2 -std=c++17 -DGEN=$GEN -I/usr/include/halide14 $R/harness/harness.cpp $D/stubs.cpp $D/${GEN}_ref.a $D/${GEN}_diet.a -o $D/h -lpthread -ldl
for a in "$@"; do echo "shape: $a"; ONLY=ref,diet HL_NUM_THREADS=2 nice -n 19 $D/h check $a; done
