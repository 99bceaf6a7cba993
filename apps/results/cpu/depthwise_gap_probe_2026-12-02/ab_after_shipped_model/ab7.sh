#!/bin/bash
# ../ab_after/ab6.sh with plugin copies that have build/diet_models/ beside them (the shipped
# cost model): /tmp/pm_base4/ (ba6fd4f's plugin) and /tmp/pm_new7/ (e8d9380's); output /tmp/ab7.
sed 's#/tmp/base4.so#/tmp/pm_base4/libautoschedule_diet.so#; s#/tmp/new6.so#/tmp/pm_new7/libautoschedule_diet.so#; s#O=/tmp/ab6#O=/tmp/ab7#' \
    "$(dirname "$0")/../ab_after/ab6.sh" | bash
