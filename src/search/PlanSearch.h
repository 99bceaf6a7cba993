// The measured search over the stage rules' parameters (issue 14): whole-pipeline candidates that
// differ from the best so far in one group's choice (its tile width or height, a member moved out
// into a group of its own, a group fused into the one group that consumes it), each compiled and
// timed at a few training shapes against the heuristic plan's time there. There is no learned
// model for stage groups yet (the cost model ranks micro-kernels): every candidate is measured.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "options/Options.h"
#include "schedule/ApplySchedule.h"
#include "space/Hardware.h"
#include "space/Rules.h"
#include "space/StagePlan.h"

#include <vector>

namespace diet {

// Returns the best plan found within opts.trials measurements (the heuristic `start` when none is
// better, or when nothing can be measured). Deterministic for a given opts.seed; progress on stderr.
PipelinePlan search_plan(const std::vector<Halide::Internal::Function> &outputs, const std::vector<KernelChoice> &kernels,
                         const PipelinePlan &start, const std::vector<Shape> &training, const Halide::Target &target,
                         const CpuLimits &cpu, const Options &opts);

// One random change of one group (exposed for tests): false when the plan offers no such change.
bool mutate_plan(PipelinePlan &plan, uint64_t &rng_state);

}  // namespace diet
