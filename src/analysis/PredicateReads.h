// Whether an update's reduction-domain predicate (RDom::where) loads memory at a coordinate that
// moves with one of the Func's pure variables: `r.where(in(r, t) > 0); a(t) += in(r, t)`.
// Halide 14 evaluates such a predicate on every lane of a vector split of that variable, the
// lanes past a GuardWithIf tail included, and bounds the loaded buffer by the rounded-up region:
// the pipeline then requires its input past the end (a red-team probe's sum of positive values
// per row, "Input buffer inp is accessed at 15, which is beyond the max (8)"). Such a variable is
// not split into guarded vectors (schedule/ApplyGroupLoops.cpp update_loops).
#pragma once

#include "Halide.h"

#include <string>

namespace diet {

bool predicate_loads_along(const Halide::Internal::Definition &update, const std::string &pure_var);

}  // namespace diet
