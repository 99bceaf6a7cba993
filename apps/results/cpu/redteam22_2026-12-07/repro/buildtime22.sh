#!/bin/bash
# usage: buildtime22.sh GEN A|B: rebuilds GEN with Diet, Mullapudi2016 and Adams2019 one at a time (nice 19, -e static_library,h
# into /tmp/rt22/work/bt), then Diet again emitting only the schedule (-e schedule: Diet's scheduling without LLVM),
# appending wall seconds to logs/buildtime_recheck.jsonl
R=/work/main/apps/results/cpu/redteam22_2026-12-07; W=/tmp/rt22/work; PL=/usr/lib/x86_64-linux-gnu/halide14
GEN=$1; case $2 in A) TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41;; B) TGT=x86-64-linux-avx-avx2-f16c-fma-sse41;; esac
mkdir -p $W/bt
run() { local tag=$1 emit=$2; shift 2; t0=$(date +%s.%N); HL_NUM_PASSES=1 nice -n 19 ${GENBIN:-$W/gens22.generator} -g $GEN -f ${GEN}_$tag -n ${GEN}_$tag -o $W/bt -e $emit target=$TGT machine_params=2,1048576,40 "$@" > /dev/null 2> $W/bt/$GEN.$tag.err; rc=$?
  echo "{\"gen\": \"$GEN\", \"build\": \"$tag\", \"emit\": \"$emit\", \"rc\": $rc, \"secs\": $(echo "$(date +%s.%N) - $t0" | bc | sed 's/^\./0./'), \"load1\": $(cut -d' ' -f1 /proc/loadavg), \"end\": \"$(date +%T)\"}" >> $R/logs/buildtime_recheck.jsonl; }
run diet static_library,h -p /tmp/rt22/libautoschedule_diet.so -s Diet auto_schedule=true sym=true
run mull static_library,h -p $PL/libautoschedule_mullapudi2016.so -s Mullapudi2016 auto_schedule=true sym=false
run adams static_library,h -p $PL/libautoschedule_adams2019.so -s Adams2019 auto_schedule=true sym=false
run diet_schedonly schedule -p /tmp/rt22/libautoschedule_diet.so -s Diet auto_schedule=true sym=true
grep "scheduled in" $W/bt/$GEN.diet.err | tail -1 | sed "s/^/$GEN: /" >> $R/logs/buildtime_recheck_diet_sched.txt
