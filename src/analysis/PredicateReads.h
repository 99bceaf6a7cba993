// Whether an update's reduction-domain predicate (RDom::where) loads memory at a coordinate that
// moves with one of the Func's pure variables: `r.where(in(r, t) > 0); a(t) += in(r, t)`.
// Halide 14 evaluates such a predicate on every lane of a vector split of that variable, the
// lanes past a GuardWithIf tail included, and bounds the loaded buffer by the rounded-up region:
// the pipeline then requires its input past the end (a red-team probe's sum of positive values
// per row, "Input buffer inp is accessed at 15, which is beyond the max (8)"). Such a variable is
// not split into guarded vectors (schedule/ApplyGroupLoops.cpp update_loops).
#pragma once

#include "Halide.h"
#include "analysis/FunctionDAG.h"

#include <set>

#include <string>

namespace diet {

bool predicate_loads_along(const Halide::Internal::Definition &update, const std::string &pure_var);

// The Funcs whose region at run time may be smaller than the analysis' (analysis/Regions.h, which
// reads an RDom whole): those an update with a reduction-domain predicate reads (`r.where(r <= x)`
// narrows the reads to a triangle), and, their region being derived from it, those Funcs'
// producers, transitively. Outputs are not narrowed (their region is their buffer). A Func computed at root whose region is narrowed must not take a tile or a vector shifted
// inwards by the analysis' extent: the shifted tile would start before the region (test_fuzz seed
// 20270179: a 4-wide vector shifted inwards over 3 columns read an input at -1).
std::set<std::string> regions_narrowed_by_predicates(const FunctionDAG &dag);

}  // namespace diet
