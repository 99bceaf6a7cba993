#!/usr/bin/env bash
# A/B of the stage-rule search's first rounds: ranked by a plan model trained without the pipeline
# (held out) vs the rules' estimate (none). Usage: run_ab.sh OUTDIR DATA... 
set -u
root=/work/main; cd $root
out=$1; shift
mkdir -p $out
target=$(build/diet_target)-no_runtime
for p in unsharp harris iir_blur camera_pipe hist_eq; do
  python3 - "$p" "$out/data_without_$p.jsonl" "$@" <<'PY'
import sys,json,gzip
p,out=sys.argv[1],sys.argv[2]
with open(out,'w') as o:
    for f in sys.argv[3:]:
        op=gzip.open if f.endswith('.gz') else open
        for l in op(f,'rt'):
            j=json.loads(l)
            if j.get('label')==p: continue
            o.write(l if l.endswith('\n') else l+'\n')
PY
  build/apps/diet_model train-plans --data $out/data_without_$p.jsonl --out $out/plans_without_$p.json >/dev/null
  for seed in 1 2; do
    for arm in model none; do
      m=$out/plans_without_$p.json; [ $arm = none ] && m=none
      d=$(mktemp -d)
      HL_DIET_TRIALS=24 HL_DIET_SEED=$seed HL_DIET_BASE_PLAN_MODEL=$m \
        build-pipelines/apps/pipelines/pl_$p.generator -g $p -o $d -e schedule -t 7200 \
        -p build/libautoschedule_diet.so -s Diet target=$target auto_schedule=true \
        machine_params=2,16777216,40 symbolic_estimates=true > $d/log 2>&1
      best=$(grep -o "best plan [0-9.e-]*x" $d/log | tail -1)
      echo "$p seed=$seed arm=$arm $best" | tee -a $out/ab.txt
      rm -rf $d
    done
  done
done
