#!/usr/bin/env bash
# Issue 14's benchmark suite: 12 image-processing pipelines (apps/pipelines/*.cpp), each built with
# its hand schedule, Diet and Halide's autoschedulers, run interleaved on this CPU and checked
# against the hand schedule's output.
#
#   bash scripts/pipelines_bench.sh                       # build everything, estimate + dynamic runs
#   bash scripts/pipelines_bench.sh --mode smoke          # 1 round at one small shape (a check)
#   bash scripts/pipelines_bench.sh --systems hand,diet_default,diet_tuned --pipelines unsharp,harris
#   bash scripts/pipelines_bench.sh --build-only | --run-only
#
# Options:
#   --pipelines a,b     default: all 12
#   --systems a,b       default: hand,diet_default,adams2019,adams2019_max,mullapudi2016,li2018
#                       (also: diet_tuned, built with HL_DIET_TRIALS=$DIET_TUNED_TRIALS, default 64)
#   --mode M            estimate (every system at the generator's estimate shape), dynamic (every
#                       system at 5 shapes across the range: "Adams2019 scheduled at the largest
#                       shape and used everywhere" vs Diet), both (default), smoke
#   --rounds N          timed rounds (median of the per-round times; default 7)
#   --threads N         threads each pipeline runs with (default 2)
#   --build-timeout S   per-variant build limit (default 1800 s: local_laplacian tuned with 64 trials takes ~860 s on 2 cores)
#   --build-mem-kb K    per-variant virtual memory cap, ulimit -v (default 8000000)
#   --run-timeout S     per-run limit in the runner (default 300 s)
#   --rebuild           regenerate every selected variant (otherwise an up-to-date variant is not
#                       rebuilt and keeps the build time recorded when it was)
#
# Build directory: build-pipelines/ (DIET_PIPELINES_BUILD to change). Results go to
# apps/results/cpu/pipelines/ (DIET_PIPELINES_OUT to change): build.csv (seconds and status per
# variant), raw.csv (one row per pipeline, shape and system; raw_smoke.csv for --mode smoke),
# <mode>.md, <mode>_ratio.csv, summary.md, plots.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${DIET_PIPELINES_BUILD:-$root/build-pipelines}
out=${DIET_PIPELINES_OUT:-$root/apps/results/cpu/pipelines}
pipelines="unsharp,harris,stencil_chain,max_filter,iir_blur,hist_eq,bilateral_grid,camera_pipe,local_laplacian,interpolate,nl_means,conv_layer"
systems="hand,diet_default,adams2019,adams2019_max,mullapudi2016,li2018"
mode=both
rounds=7
threads=2
build_timeout=1800
build_mem_kb=8000000
run_timeout=300
do_build=1
do_run=1
rebuild=0
while (($#)); do
    case "$1" in
        --pipelines) pipelines=$2; shift 2 ;;
        --systems) systems=$2; shift 2 ;;
        --mode) mode=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --build-timeout) build_timeout=$2; shift 2 ;;
        --build-mem-kb) build_mem_kb=$2; shift 2 ;;
        --run-timeout) run_timeout=$2; shift 2 ;;
        --build-only) do_run=0; shift ;;
        --rebuild) rebuild=1; shift ;;
        --run-only) do_build=0; shift ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [[ ",$systems," != *",hand,"* ]]; then
    echo "note: 'hand' is not in --systems: outputs cannot be checked" >&2
fi
IFS=, read -r -a plist <<<"$pipelines"
IFS=, read -r -a slist <<<"$systems"
mkdir -p "$out/logs"
modules=$build/apps/pipelines/modules
stamps=$build/apps/pipelines/build_status
jobs=${DIET_PIPELINES_JOBS:-2}

if ((do_build)); then
    echo "== configure $build"
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DDIET_BUILD_TESTS=OFF \
        -DDIET_BUILD_PIPELINES_BENCH=ON >"$out/logs/configure.log" 2>&1 \
        || { tail -30 "$out/logs/configure.log"; exit 1; }
    echo "== build the plugin, the generators, the shared runtime and the runner (-j$jobs)"
    start=$(date +%s)
    cmake --build "$build" -j "$jobs" --target autoschedule_diet pipelines_generators \
        >"$out/logs/build_common.log" 2>&1 || { tail -40 "$out/logs/build_common.log"; exit 1; }
    echo "   $(( $(date +%s) - start )) s"
    mkdir -p "$stamps"
    # Every variant on its own, under a timeout and a memory cap: a failure is recorded, not fatal.
    for p in "${plist[@]}"; do
        for s in "${slist[@]}"; do
            t=plm_${p}_${s}
            log=$out/logs/build_${p}_${s}.log
            rm -f "$modules/$t.so"
            if ((rebuild)); then
                rm -f "$build/apps/pipelines/pl_${p}_${s}".{o,h,schedule.h}
            fi
            env_prefix=()
            if [[ $s == diet_tuned ]]; then
                env_prefix=(env HL_DIET_TRIALS="${DIET_TUNED_TRIALS:-64}" HL_DIET_LOG="$out/logs/${p}_diet_tuned.tuning.jsonl")
            fi
            # Dependencies first, untimed and uncapped: the plugin (rebuilt if src/ changed since
            # the step above) and the generator, so that the time below is the variant's own.
            cmake --build "$build" -j "$jobs" --target autoschedule_diet "pl_${p}.generator" \
                >>"$out/logs/build_common.log" 2>&1 || { tail -40 "$out/logs/build_common.log"; exit 1; }
            start=$(date +%s.%N)
            timeout --kill-after=30 "$build_timeout" bash -c \
                'ulimit -v '"$build_mem_kb"'; exec "$@"' _ "${env_prefix[@]}" \
                cmake --build "$build" -j 1 --target "$t" >"$log" 2>&1
            rc=$?
            secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
            if ((rc == 0)) && [[ -f $modules/$t.so ]]; then
                status=ok
                # Up to date (nothing rebuilt): keep the time of the build that made it.
                if ! grep -q "Generating pl_${p}_${s}" "$log" && [[ -f $stamps/$t ]]; then
                    IFS=, read -r _ _ status secs <"$stamps/$t"
                fi
            elif ((rc == 124 || rc == 137)); then
                status="failed: build timeout (${build_timeout} s)"
            else
                reason=$(grep -v -E '^(make|gmake|\[|Scanning|Consolidate)' "$log" |
                         grep -m1 -i -E 'error|terminate|bad_alloc|assert|killed|segmentation|abort|memory' |
                         tr ',"' ';' | cut -c1-160)
                status="failed: ${reason:-build exited with $rc}"
                if [[ $reason == *bad_alloc* || $reason == *[Mm]emory* || $reason == *Killed* ]]; then
                    status="$status (out of memory under ulimit -v $build_mem_kb KB)"
                fi
                rm -f "$modules/$t.so"
            if ((rebuild)); then
                rm -f "$build/apps/pipelines/pl_${p}_${s}".{o,h,schedule.h}
            fi
            fi
            echo "$p,$s,$status,$secs" >"$stamps/$t"
            printf '   %-16s %-14s %8s s  %s\n' "$p" "$s" "$secs" "$status"
        done
    done
    echo "pipeline,system,status,build_s" >"$out/build.csv"
    for f in "$stamps"/plm_*; do cat "$f"; done | sort >>"$out/build.csv"
fi

if ((do_run)); then
    runner=$build/apps/pipelines/pipelines_runner
    [[ -x $runner ]] || { echo "no $runner: build first" >&2; exit 1; }
    case "$mode" in
        both) runs=(estimate dynamic) ;;
        estimate|dynamic|smoke) runs=("$mode") ;;
        *) echo "unknown mode $mode" >&2; exit 2 ;;
    esac
    raw=$out/raw.csv
    [[ $mode == smoke ]] && raw=$out/raw_smoke.csv
    rm -f "$raw"
    for m in "${runs[@]}"; do
        shapes=$m; r=$rounds
        [[ $m == smoke ]] && { shapes=small; r=1; }
        echo "== run: $m ($r rounds, $threads threads)"
        for p in "${plist[@]}"; do
            "$runner" --pipeline "$p" --systems "$systems" --shapes "$shapes" --rounds "$r" \
                --threads "$threads" --timeout "$run_timeout" --module-dir "$modules" \
                --csv "$raw" --tag "$m" || echo "runner failed on $p (exit $?)" >&2
        done
    done
    /usr/bin/python3 "$root/scripts/pipelines_report.py" "$raw" "$out/build.csv" "$out"
fi
