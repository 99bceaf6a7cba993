// A reduction window whose extent is a scalar Param of a small declared range (a morphology's or
// a blur's run-time radius R in [1, 4], RDom(-R, 2 R + 1)^2): in a specialization per value of R
// the window's loops have constant extents, so they can run unrolled (the accumulator in
// registers, each tap a load and an operation) and a where() predicate that reads only R and the
// reduction variables (a diamond's |r.x| + |r.y| <= R) folds to a constant per tap, which drops
// the taps outside it. Halide substitutes the value in each specialization
// (schedule/ParamValues.cpp unroll_window_per_value).
#pragma once

#include "Halide.h"
#include "analysis/ParamRanges.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace diet {

// The first scalar Param of a small declared range (small_range_param) that the extent of one of
// `update`'s reduction variables reads.
std::optional<SmallRangeParam> window_param(const Halide::Internal::Definition &update);

// The extent of each reduction variable of `update` (by name, in its RDom's order) at `param` =
// `value`; empty where one is no constant there.
std::optional<std::vector<std::pair<std::string, int64_t>>> window_extents_at(const Halide::Internal::Definition &update,
                                                                              const SmallRangeParam &param, int64_t value);

// The IR nodes of one step of an update (its values, arguments and where() predicates; a call
// of a Func that `inlined` names counted with that Func's definition, a boundary condition's
// clamps or mirroring, a few levels deep; another Func's call as its arguments): what an
// unrolled window repeats per step. Empty where the step calls the math library (exp, log):
// such a step costs far more than the loop around it, so unrolling gains nothing there, and LLVM
// compiles it slowly (a joint bilateral filter's exp-weighted steps, unrolled over 9 and 25 steps
// of 4 vectors, took 75 s instead of 8 on AVX-512, no faster;
// apps/results/cpu/window_param_values_2026-12-03/). Empty too where a step gathers through an
// index it loads (a bilateral filter's range weight, a LUT read at |I(x + r) - I(x)|): a gather per
// lane per step, which unrolling does not speed up and LLVM compiles slowly unrolled (25 steps of
// a Tuple window per R: 175 s instead of 4 on AVX-512, apps/results/cpu/param_cost_values_2026-12-03/).
std::optional<int64_t> update_step_nodes(const Halide::Internal::Definition &update,
                                         const std::function<bool(const std::string &)> &inlined);

}  // namespace diet
