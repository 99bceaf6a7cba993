#!/bin/bash
# usage: build22.sh GEN TGT(A|B) [SYSTEMS...]: builds GEN for ref / diet / mull / adams into /tmp/rt22/work/lib/GEN,
# logs (stderr, time) into logs/build/GEN.SYS.{err,time}, Diet's schedule into sched/GEN.diet.schedule.h
R=/work/main/apps/results/cpu/redteam22_2026-12-07
W=/tmp/rt22/work
GEN=$1; T=$2; shift 2
SYS=${@:-ref diet mull adams adamss}
case $T in
  A) TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41;;
  B) TGT=x86-64-linux-avx-avx2-f16c-fma-sse41;;
esac
PL=/usr/lib/x86_64-linux-gnu/halide14
mkdir -p $W/lib/$GEN $R/logs/build $R/sched
export HL_NUM_PASSES=1
for s in $SYS; do
  case $s in
    ref)   ARGS="auto_schedule=false sym=false root_all=true";;
    diet)  ARGS="-p /tmp/rt22/libautoschedule_diet.so -s Diet auto_schedule=true sym=true machine_params=2,1048576,40";;
    mull)  ARGS="-p $PL/libautoschedule_mullapudi2016.so -s Mullapudi2016 auto_schedule=true sym=false machine_params=2,1048576,40";;
    adams) ARGS="-p $PL/libautoschedule_adams2019.so -s Adams2019 auto_schedule=true sym=false machine_params=2,1048576,40";;
    adamss) ARGS="-p $PL/libautoschedule_adams2019.so -s Adams2019 auto_schedule=true sym=false est_small=true machine_params=2,1048576,40";;
  esac
  EMIT=static_library,h
  [ $s != ref ] && EMIT=static_library,h,schedule
  rm -f $W/lib/$GEN/${GEN}_$s.a
  t0=$(date +%s.%N)
  nice -n 19 timeout 900 ${GENBIN:-$W/gens22.generator} -g $GEN -f ${GEN}_$s -n ${GEN}_$s -o $W/lib/$GEN -e $EMIT target=$TGT $ARGS $EXTRA \
     > $R/logs/build/$GEN.$s.out 2> $R/logs/build/$GEN.$s.err
  rc=$?
  t1=$(date +%s.%N)
  echo "{\"gen\": \"$GEN\", \"sys\": \"$s\", \"target\": \"$T\", \"rc\": $rc, \"secs\": $(echo "$t1 - $t0" | bc | sed "s/^\./0./"), \"lib\": $( [ -f $W/lib/$GEN/${GEN}_$s.a ] && echo true || echo false), \"end\": \"$(date +%T)\"}" >> $R/logs/builds.jsonl
  [ -f $W/lib/$GEN/${GEN}_$s.schedule.h ] && cp $W/lib/$GEN/${GEN}_$s.schedule.h $R/sched/
done
