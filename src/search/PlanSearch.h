// The measured search over the stage rules' parameters (issue 14): whole-pipeline candidates that
// differ from the best so far in one group's choice (its tile width or height, a member moved out
// into a group of its own, a group fused into the one group that consumes it), each compiled and
// timed at a few training shapes against the heuristic plan's time there. Each round draws a pool
// of such candidates and measures the ones a cost model ranks first: the plan features
// (features/PlanFeatures.h, no lowering) under a pairwise pack-sum model trained on this run's
// measurements, ordered within each shape; before it has data, the rules' analytic estimate.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "options/Options.h"
#include "schedule/ApplySchedule.h"
#include "space/Hardware.h"
#include "space/Rules.h"
#include "space/StagePlan.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace diet {

// Returns the best plan found within opts.trials measurements (the heuristic `start` when none is
// better, or when nothing can be measured). Deterministic for a given opts.seed; progress on stderr.
// `pin`: what the plan was made from (its shape is replaced by each search shape's, for the features).
// `report` (may be null) receives the search's figures: measurements, the model's quality (Kendall's
// tau within a shape, cross-validated and online, against the analytic estimate's), the time split.
PipelinePlan search_plan(const std::vector<Halide::Internal::Function> &outputs, const std::vector<KernelChoice> &kernels,
                         const PipelinePlan &start, const std::vector<Shape> &training, const Halide::Target &target,
                         const CpuLimits &cpu, const Options &opts, const PlanInputs &pin, nlohmann::json *report);

// One random change of one group (exposed for tests): false when the plan offers no such change.
bool mutate_plan(PipelinePlan &plan, uint64_t &rng_state);

}  // namespace diet
