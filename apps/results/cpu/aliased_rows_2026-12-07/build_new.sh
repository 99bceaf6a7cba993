#!/bin/bash
# build_new.sh GEN A|B GENBIN PLUGIN_DIR OUTTAG : Diet lib of a round-22 generator with another plugin, and a harness binary
GEN=$1; T=$2; GENBIN=$3; PD=$4; TAG=$5
case $T in
  A) TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41;;
  B) TGT=x86-64-linux-avx-avx2-f16c-fma-sse41;;
esac
W=/tmp/rt22/work; O=/tmp/s12/rt/$TAG/$GEN; mkdir -p $O
$GENBIN -g $GEN -f ${GEN}_diet -n ${GEN}_diet -o $O -e static_library,h,schedule target=$TGT -p $PD/libautoschedule_diet.so -s Diet auto_schedule=true sym=true machine_params=2,1048576,40 2> $O/diet.err || { echo build failed; tail $O/diet.err; exit 1; }
libs="$W/lib/$GEN/${GEN}_ref.a $O/${GEN}_diet.a"
for s in mull adams adamss; do [ -f $W/lib/$GEN/${GEN}_$s.a ] && libs="$libs $W/lib/$GEN/${GEN}_$s.a"; done
stubs=""; [ -f $W/bin/${GEN}_stubs.c ] && stubs=$W/bin/${GEN}_stubs.c
g++ -O2 -std=c++17 -DGEN=$GEN -I/usr/include/halide14 -I$O /work/main/apps/results/cpu/redteam22_2026-12-07/harness/harness.cpp $stubs $libs -o $O/bin -lpthread -ldl
echo built $O/bin
