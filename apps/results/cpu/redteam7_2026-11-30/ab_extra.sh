#!/bin/bash
# extra alternating rounds 4 and 5 with Diet, Adams2019c, Adams2019c@small (so that Adams2019c has n=3 where
# round 1 of ab_all.sh ran it once), for every pipeline except the first five (which ran 3 full rounds)
cd "$(dirname "$0")"
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes7; print(' '.join(pipes7.SPECS))" 2>/dev/null)
SKIP="einsum_k_split_strided three_operand_one_func conv3x3_dilation_param conv_s2_valid_cxy_out grouped_conv_cpg_param"
for p in $names; do
  if [[ " $SKIP " == *" $p "* ]]; then continue; fi
  ROUNDS="4 5" AB_TIMEOUT=100 ./ab_time.sh $p Diet Adams2019c Adams2019c@small Mullapudi2016
  echo "$(date +%T) abx $p" >> logs/progress.txt
done
