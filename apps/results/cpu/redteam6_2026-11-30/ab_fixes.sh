#!/bin/bash
# After the session's fixes: Diet before (/tmp/rt6_diet.so, 695406c's plugin) and after ($1) against
# Mullapudi2016, 3 alternating rounds, timing only -> ab_fixes.jsonl. usage: ab_fixes.sh AFTER_PLUGIN PIPELINE...
cd "$(dirname "$0")"
after=$1; shift
export RT6_TIME_ONLY=1
for p in "$@"; do
  for round in 1 2 3; do
    for sys in before after Mullapudi2016; do
      case $sys in
        before) DIET_PLUGIN=/tmp/rt6_diet.so timeout 600 /usr/bin/python3 run6.py $p Diet ;;
        after) DIET_PLUGIN=$after timeout 600 /usr/bin/python3 run6.py $p Diet ;;
        *) timeout 600 /usr/bin/python3 run6.py $p $sys ;;
      esac 2>>logs/ab_fixes.err | grep '^RESULT' | sed "s/^RESULT {/{\"round\": $round, \"system\": \"$sys\", /" >> ab_fixes.jsonl
    done
  done
done
