#!/usr/bin/env bash
# Moves Diet's farm rounds (HL_DIET_FARM=slurm with apps/gpu/fake_slurm on PATH) between this
# machine and a GPU machine reached through a tool that copies the repository over and brings
# files back (README, "GPU tuning rounds by hand").
#
#   farm_round.sh run <farm-dir> <out-dir>     ON the GPU machine, from the repository root: runs
#       every shard of every round under <farm-dir> that has no result.json yet (each round's own
#       diet_runner and diet_farm_job.sh, the round path rewritten to this machine's copy) and
#       copies the results to <out-dir>/<round>/shard-<k>/result.json.
#   farm_round.sh import <fetched-dir> <farm-dir>  HERE: puts the fetched result.json files into
#       the rounds the tuner is waiting on, each written whole and renamed (the tuner must never
#       read half a file: it would count the shard as failed).
set -euo pipefail
case "${1:-}" in
run)
    farm=$2 out=$3 ran=0
    for round in "$farm"/round-*/; do
        round=${round%/}
        [ -f "$round/diet_farm_job.sh" ] || continue
        for shard in "$round"/shard-*/; do
            shard=${shard%/}
            k=${shard##*/shard-}
            [ -f "$shard/result.json" ] && continue
            echo "farm_round: $round shard $k"
            # The job script names the round by its absolute path on the build machine.
            sed "s#^round=.*#round='$(cd "$round" && pwd)'#" "$round/diet_farm_job.sh" > "$round/job-here.sh"
            SLURM_ARRAY_TASK_ID=$k bash "$round/job-here.sh" || echo "farm_round: shard $k of $round failed (see its runner.out)"
            mkdir -p "$out/${round##*/}/shard-$k"
            cp "$shard/runner.out" "$out/${round##*/}/shard-$k/" 2>/dev/null || true
            [ -f "$shard/result.json" ] && cp "$shard/result.json" "$out/${round##*/}/shard-$k/"
            ran=$((ran + 1))
        done
    done
    echo "farm_round: ran $ran shard(s)"
    [ $ran -gt 0 ] || { echo "farm_round: nothing to run under $farm" >&2; exit 1; }
    ;;
import)
    from=$2 farm=$3 n=0
    for f in "$from"/round-*/shard-*/result.json; do
        [ -f "$f" ] || continue
        rel=${f#"$from"/}
        dst=$farm/$rel
        [ -d "$(dirname "$dst")" ] || { echo "farm_round: no round $(dirname "$rel") under $farm (finished already?)" >&2; continue; }
        cp "$f" "$dst.tmp$$" && mv "$dst.tmp$$" "$dst"
        n=$((n + 1))
    done
    echo "farm_round: imported $n result file(s)"
    ;;
*)
    sed -n '2,15p' "$0" >&2
    exit 2
    ;;
esac
