#!/usr/bin/env bash
# A tuning run killed by SIGTERM (and one killed by SIGINT) once its log holds a few records:
#   - the log is intact (every line parses with Diet's own reader, diet_log_check);
#   - no measurement child of the killed run is left running (best effort here: a child that had
#     nearly finished is gone anyway; test_files' "a measurement child does not outlive its killed
#     tuner" checks it deterministically with a candidate that sleeps a minute);
#   - rerun with the same settings, it resumes: every record the killed run logged is reused, its
#     fresh measurements plus log hits cover the budget, and no (kernel, shape) is measured twice;
#   - its final schedule is the one an uninterrupted run of the same seed makes from the same
#     measurements: a fresh, never interrupted run with the same trials and seed over a copy of the
#     resumed run's log reuses every measurement (measures nothing) and writes the same
#     .schedule.h, byte for byte. (Measured times are noisy, so two runs that each measure
#     independently may legitimately choose differently; what must not depend on the interruption
#     is the decision given the measurements and the seed.)
# Usage: interrupt_resume.sh <dense.generator> <libautoschedule_diet.so> <diet_log_check> <work dir> [TERM|INT ...]
# (signals: default both)
set -euo pipefail
gen=$1 plugin=$2 check=$3 dir=$4
shift 4
signals=${*:-TERM INT}
rm -rf "$dir" && mkdir -p "$dir"
export HL_DIET_SAMPLES=4 HL_DIET_SEED=11
trials=12
set -m  # background jobs get their own process group and do not ignore SIGINT
fail() { echo "FAIL: $*"; exit 1; }

run() {  # $1: output dir, $2: log (a subshell that becomes the generator)
    mkdir -p "$1"
    (HL_DIET_TRIALS=$trials HL_DIET_LOG=$2 HL_DIET_REPORT="$1/report.json" exec "$gen" -g dense -f dense -n dense \
        -o "$1" -e schedule -p "$plugin" -s Diet \
        target="${DIET_TARGET:?set DIET_TARGET (diet_target prints it)}" auto_schedule=true machine_params=2,1048576,40 K=40 N=200 2> "$1/stderr")
}
field() {  # $1: diet_log_check output, $2: field name
    awk -v f="$2" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' <<< "$1" | head -1
}
report_int() {  # $1: report.json, $2: key (the first occurrence)
    grep -o "\"$2\": *[0-9]*" "$1" | head -1 | grep -o '[0-9]*$'
}

for sig in $signals; do
    d=$dir/$sig log=$dir/$sig/tuning.log
    mkdir -p "$d"
    start=$(date +%s)
    mkdir -p "$d/killed"
    (HL_DIET_TRIALS=$trials HL_DIET_LOG=$log HL_DIET_REPORT="$d/killed/report.json" exec "$gen" -g dense -f dense \
        -n dense -o "$d/killed" -e schedule -p "$plugin" -s Diet \
        target="${DIET_TARGET:?set DIET_TARGET (diet_target prints it)}" auto_schedule=true machine_params=2,1048576,40 K=40 N=200 2> "$d/killed/stderr") &
    pid=$!
    # Kill it once the log holds 4 records, preferably while a measurement child is running.
    children=""
    for _ in $(seq 1 1200); do
        kill -0 "$pid" 2> /dev/null || { cat "$d/killed/stderr"; fail "the run ended before it could be killed"; }
        n=$(grep -c '"micro_kernel"' "$log" 2> /dev/null || true)
        if [ "${n:-0}" -ge 4 ]; then
            children=$(pgrep -P "$pid" || true)
            [ -n "$children" ] && break
        fi
        sleep 0.05
    done
    [ "${n:-0}" -ge 4 ] || fail "the log did not reach 4 records"
    kill -s "$sig" "$pid"
    status=0
    wait "$pid" || status=$?
    [ "$status" -ne 0 ] || fail "SIG$sig: the run was not interrupted (it finished)"
    sleep 0.2
    [ "$(ps -o comm= -p "$pid" 2> /dev/null)" = "" ] || fail "SIG$sig: the tuner $pid is still there"
    for c in $children; do  # gone, or a zombie nobody reaps yet
        state=$(ps -o stat= -p "$c" 2> /dev/null || true)
        if [ -n "$state" ] && [ "${state:0:1}" != Z ]; then
            ps -o pid,ppid,stat,cmd -p "$c" || true
            fail "SIG$sig: measurement child $c outlived the killed tuner"
        fi
    done
    [ -z "$(find "$(dirname "$log")" -name 'tuning.log.*')" ] || fail "stray files next to the log"
    out=$("$check" "$log")
    echo "SIG$sig after $(( $(date +%s) - start ))s (exit status $status, children at the kill: ${children:-none}): $out"
    [ "$(field "$out" skipped)" = 0 ] || fail "SIG$sig: the log is not intact: $out"
    [ "$(field "$out" foreign)" = 0 ] || fail "SIG$sig: the log is no longer a Diet log"
    [ "$(field "$out" dispatches)" = 0 ] || fail "SIG$sig: the killed run had already finished"
    logged=$(field "$out" records)
    [ "$logged" -ge 4 ] || fail "SIG$sig: $logged records in the log"

    # Resume: the same settings and log.
    run "$d/resumed" "$log" || { cat "$d/resumed/stderr"; fail "SIG$sig: the resumed run failed"; }
    fresh=$(report_int "$d/resumed/report.json" measurements)
    hits=$(report_int "$d/resumed/report.json" log_hits)
    out=$("$check" "$log")
    echo "SIG$sig resumed: $hits log hits + $fresh measurements; log: $out"
    [ "$hits" -ge "$logged" ] || fail "SIG$sig: only $hits of the $logged logged measurements were reused"
    [ $(( hits + fresh )) -ge $trials ] || fail "SIG$sig: $hits hits + $fresh measurements do not cover $trials trials"
    [ "$(field "$out" skipped)" = 0 ] || fail "SIG$sig: the log is not intact after the resume"
    [ "$(field "$out" duplicates)" = 0 ] || fail "SIG$sig: a (kernel, shape) pair was measured twice"
    [ "$(field "$out" dispatches)" = 1 ] || fail "SIG$sig: the resumed run recorded no dispatch"
    [ "$(field "$out" records)" = $(( logged + fresh )) ] || fail "SIG$sig: the log has not grown by the new measurements"
    grep -q "chosen by tuning" "$d/resumed/dense.schedule.h" || fail "SIG$sig: the resumed schedule is not tuned"

    # An uninterrupted run of the same seed over the same measurements.
    cp "$log" "$d/replay.log"
    run "$d/replay" "$d/replay.log" || { cat "$d/replay/stderr"; fail "SIG$sig: the replay failed"; }
    [ "$(report_int "$d/replay/report.json" measurements)" = 0 ] || fail "SIG$sig: the replay measured something"
    cmp "$d/resumed/dense.schedule.h" "$d/replay/dense.schedule.h" ||
        { diff "$d/resumed/dense.schedule.h" "$d/replay/dense.schedule.h" | head -20; fail "SIG$sig: the schedules differ"; }
    echo "PASS SIG$sig: resumed after $logged logged records; final schedule byte-identical to an uninterrupted run's ($(( $(date +%s) - start ))s)"
done
