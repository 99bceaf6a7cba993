#!/usr/bin/env bash
# usage: diff_sched.sh DIR_BEFORE DIR_AFTER: the pipelines whose Diet schedule differs (Func-name numbers normalized).
norm() { grep -v "^//" "$1" | sed -E 's/(_|\$)[0-9]+//g; s/get_func\([0-9]+\)/get_func()/g'; }
for f in "$1"/*.txt; do
    b=$(basename "$f")
    if ! cmp -s <(norm "$f") <(norm "$2/$b"); then echo "${b%.txt}"; fi
done
