#!/usr/bin/env bash
# Reproducible builds through GenGen's command line, as a team would run them:
#   1. tune: HL_DIET_TRIALS=8 with a tuning log  -> a .schedule.h with the shape dispatch
#   2. rebuild: HL_DIET_TRIALS=0 with the same log -> no measurement, seconds, the same .schedule.h
# Usage: rerun_identical.sh <third_party.generator> <libautoschedule_diet.so> <work dir>
set -euo pipefail
gen=$1 plugin=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir/tune" "$dir/rerun"
export HL_DIET_LOG="$dir/tuning.log" HL_DIET_SAMPLES=4 HL_DIET_SEED=7
run() {  # $1: output dir, $2: trials
    HL_DIET_TRIALS=$2 HL_DIET_REPORT="$1/report.json" "$gen" -g third_party -f tp -n tp -o "$1" \
        -e static_library,h,schedule,featurization -p "$plugin" -s Diet \
        target="${DIET_TARGET:?set DIET_TARGET (diet_target prints it)}" auto_schedule=true machine_params=2,1048576,40
}
run "$dir/tune" 8 2> "$dir/tune.stderr" || { cat "$dir/tune.stderr"; exit 1; }
lines_after_tuning=$(wc -l < "$HL_DIET_LOG")
start=$(date +%s)
run "$dir/rerun" 0 2> "$dir/rerun.stderr" || { cat "$dir/rerun.stderr"; exit 1; }
seconds=$(( $(date +%s) - start ))
fail() { echo "FAIL: $*"; exit 1; }
grep -q '"kind":"dispatch"' "$HL_DIET_LOG" || fail "the tuning run recorded no dispatch decision"
[ "$(wc -l < "$HL_DIET_LOG")" = "$lines_after_tuning" ] || fail "the rerun wrote to the tuning log (it measured)"
grep -q '"measurements": 0' "$dir/rerun/report.json" || fail "the rerun's report does not say 0 measurements"
grep -q "applying the dispatch recorded in" "$dir/rerun.stderr" || fail "the rerun did not apply the recorded dispatch"
grep -q "chosen by tuning" "$dir/tune/tp.schedule.h" || fail "the tuned schedule does not say it was tuned"
cmp "$dir/tune/tp.schedule.h" "$dir/rerun/tp.schedule.h" || fail "the schedules differ"
# -e featurization: the chosen micro-kernels' feature rows.
grep -q '"micro_kernels"' "$dir/tune/tp.featurization" || fail "the featurization names no micro-kernel"
grep -q '"ansor"' "$dir/tune/tp.featurization" || fail "the featurization has no feature rows"
[ "$seconds" -le 60 ] || fail "the rerun took ${seconds}s"
echo "PASS: byte-identical schedule ($(wc -l < "$dir/tune/tp.schedule.h") lines) rebuilt in ${seconds}s with no measurement"
