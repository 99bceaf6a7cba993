// The region of a Func that the pipeline computes, in terms of what is known when it runs: the
// outputs' buffer bounds, scalar parameters and input buffers' bounds (Halide's boxes_required
// applied along the DAG, consumers first, nothing bound to a shape). A contraction hosted on an
// intermediate Func (the first layer of an MLP) sizes its tile variants and dispatch on these
// extents, as an output-hosted one does on its output buffer's.
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"

#include <optional>
#include <string>
#include <vector>

namespace diet {

// Whether `e` is a size the schedule can compute before the pipeline runs and spell in C++: an
// integer built with + - * / min max from constants and Variables of parameters (an output's
// `y.extent.1`, an input's `x.extent.0`, a scalar `T`).
bool is_run_time_size(const Halide::Expr &e);

// The extent of every dimension of `func`'s computed region (simplified); empty when some
// dimension is not a run-time size (unbounded, data-dependent). For an output, its buffer's
// extents.
std::vector<Halide::Expr> run_time_extents(const FunctionDAG &dag, const std::string &func);

// A run-time size at a shape of the family: outputs' bounds by their estimates, inputs' by theirs,
// then the shape variables. Empty when it depends on anything else.
std::optional<int64_t> size_at(const Halide::Expr &e, const ShapeFamily &family, const Shape &shape);

}  // namespace diet
