// The rules that generate Diet's schedule space for every stage (TVM's sketch rules, held as
// data). A reader finds here, in one table, which rule applies to which kind of stage, what it
// does and where its parameters come from. plan_pipeline() applies them to a pipeline and
// returns the stage groups with each group's rule and parameters (StagePlan.h).
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/ParamRanges.h"
#include "analysis/ShapeFamily.h"
#include "space/Hardware.h"
#include "space/StagePlan.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace diet {

struct RuleInfo {
    RuleKind kind;
    const char *name;
    const char *applies_to;  // which stages
    const char *does;        // the directives it produces
    const char *parameters;  // its parameters, and where they come from
};

// Every rule, in the order the planner tries them on a Func.
const std::vector<RuleInfo> &rule_table();

struct PlanInputs {
    const FunctionDAG *dag = nullptr;
    const ShapeFamily *family = nullptr;
    Shape shape;      // the shape the heuristic costs are evaluated at (the family's representative)
    Shape largest;    // every shape variable at its largest value (allocation limits)
    Shape smallest;   // ... at its smallest value (which vector tails may shift inwards)
    // The values of Params outside the family (a window's radius): bound in shape and largest
    // too, and in every search shape (PlanSearch.cpp); not in smallest (Rules.cpp).
    ParamCostValues params;
    CpuLimits cpu;
    std::set<std::string> contraction_funcs;  // scheduled by the micro-kernel rule
};

// The inputs for a family: its representative shape, every variable at its smallest and largest.
PlanInputs plan_inputs(const FunctionDAG &dag, const ShapeFamily &family, const CpuLimits &cpu,
                       const std::set<std::string> &contraction_funcs);

// The groups and rules for every Func of the pipeline that is neither a contraction's accumulator
// nor its host, chosen by the analytic heuristic of each rule (named in its file under
// space/rules/). Deterministic.
PipelinePlan plan_pipeline(const PlanInputs &in);

// The members of `g` that `f` reads, directly or through other members (`producers`: each Func's
// non-inlined producers). A member moved out of a group takes these along: they are computed per
// tile of the group's root, whose loops the moved member is no longer inside.
std::set<std::string> member_ancestors(const GroupPlan &g, const std::string &f,
                                       const std::map<std::string, std::vector<std::string>> &producers);

// One line per group for the user (rule, root, members, tile).
std::string describe(const GroupPlan &g);

}  // namespace diet
