#!/bin/bash
# Before/after the square deep-tile variants (cdbdc6b): two forms_bench binaries, the one built
# from the commit before (9176b28, a clean clone's build) and the one after, run alternately,
# three rounds each, crops (the default) and dense inputs. Usage: ab.sh BEFORE_BIN AFTER_BIN OUT_DIR
set -e
before=$1; after=$2; out=$3
forms=bmm_nt/canonical,bmm_nt/batch_innermost,bmm_nn/canonical,bmm_nn/batch_innermost
for round in 1 2 3; do
  for which in before after; do
    bin=$before; [ $which = after ] && bin=$after
    for inputs in crops dense; do
      flag=""; [ $inputs = dense ] && flag="--dense-inputs"
      d=$out/${which}_${inputs}_r$round
      mkdir -p $d
      $bin --families bmm --forms $forms --ts 1,2,3,4,5,6,16,43,128 --reps 5 --check-ts 1,2,3,4,5 $flag --out-dir $d > $d/stdout.txt 2> $d/stderr.txt
    done
  done
done
