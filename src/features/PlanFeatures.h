// Plan features: one row per stage group of a pipeline plan (space/StagePlan.h) at one shape,
// computed from Diet's own description of the plan, the way Adams2019 featurizes its LoopNest:
// the rule and its parameters, and the terms of the rules' own estimate for that group's tile
// (space/rules/RuleContext.h's TileCost: work, recomputation, tiles, tasks against cores, the
// members' buffers against the L2, page faults, wasted lanes, overheads). No lowering: a plan of a
// 10-stage pipeline is featurized in about a millisecond. A pack-sum model over these rows ranks
// the plans of one pipeline at one shape (search/PlanSearch.cpp).
#pragma once

#include "cost/PackSumModel.h"
#include "space/rules/RuleContext.h"

#include <string>
#include <vector>

namespace diet {

const std::vector<std::string> &plan_feature_names();

// One row per group of `plan` (same order), at the shape of `cx`.
FeatureRows plan_features(const RuleContext &cx, const PipelinePlan &plan);

// The analytic estimate of the plan: the sum of its groups' costs (the rules' heuristic, as a
// ranking baseline). Infinite when a group's region is unbounded.
double plan_estimate(const RuleContext &cx, const PipelinePlan &plan);

}  // namespace diet
