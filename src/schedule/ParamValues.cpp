// Specializations per value of a scalar Param of a small declared range: a group whose Funcs
// divide by it (analysis/RuntimeDivisors.h), an update whose reduction window it sizes
// (analysis/WindowParams.h).
#include "schedule/GroupApplier.h"
#include "analysis/RuntimeDivisors.h"
#include "analysis/WindowParams.h"
#include "space/Rules.h"

namespace diet {

using namespace Halide;
using FuncRef = GroupApplier::FuncRef;

// Where the group's Funcs divide by such a Param (an upsample by FAC in [1, 5], a polyphase
// filter's L in [1, 4]): the whole group is scheduled first under specialize(P == v) for each
// value v of the range (every stage of its root and members, so each branch is a complete
// schedule), then once more for the stages' unspecialized definitions. Halide substitutes v in
// each branch: the division becomes a multiply and a shift, an upsample's gather a dense load
// and a shuffle (red-team rounds 8 and 9: built with constant factors, the upsample and
// Kronecker product ran 3.7x faster; polyphase upsampling ran 2.1x the unscheduled pipeline's
// time, apps/results/cpu/scan_lanes_2026-12-01/). Not for rules that make Funcs (rfactor, a row
// reduction's lanes): they would be made once per value; nor where a member's storage is
// reordered (a Func-level call, not specialized).
void GroupApplier::per_divisor_value(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    if (g.rule == RuleKind::RFactor || g.row_lanes() || !g.member_lane_rvars.empty() || !g.member_vector_dims.empty() || g.members_per_point) return;
    const auto inlined = [this](const std::string &f) { return inlined_.count(f) > 0; };
    std::set<std::string> group(g.members.begin(), g.members.end());
    group.insert(g.root);
    std::optional<SmallRangeParam> divisor;
    for (const std::string &f : group) {
        divisor = runtime_divisor(dag_.node(f).func, inlined);
        if (divisor) break;
    }
    if (!divisor) return;
    const SizeExpr value = run_time(divisor->param);
    for (int64_t v = divisor->lo; v <= divisor->hi; v++) {
        w_.open_specialization_scope(group, w_.equal_to(value, v));
        schedule_rule(g, n, root);
        w_.close_specialization_scope();
    }
    const Internal::Variable *param = divisor->param.as<Internal::Variable>();
    note_once("Func " + n.name + ": its group divides by the parameter " + param->name + ", scheduled once per value of it (" +
              std::to_string(divisor->lo) + ".." + std::to_string(divisor->hi) + "), each a specialization.");
}

// An update of a root whose window a small-range Param sizes (a morphology's radius R in [1, 4],
// RDom(-R, 2 R + 1)^2 where |r.x| + |r.y| <= R): after its loops are scheduled (vectors, tasks),
// one specialization per value of R, which copies them, with the whole window unrolled where it
// holds at most kUnrolledWindowTaps steps of kUnrolledWindowNodes nodes in all: the accumulator
// stays in registers across the steps and a predicate of the reduction variables folds per step
// (a diamond keeps 41 of 81). Halide substitutes the value, so the extents are constants there.
// Only the stage's first (widest) leaf gets them, and only the stage, not the whole group: the
// group once per value (as for divisors) took LLVM 17x longer on a guided filter (112 s) and a
// joint bilateral filter (108 s) on AVX-512 (apps/results/cpu/window_param_values_2026-12-03/).
// Unrolling only the innermost 9 steps at R = 4 gained nothing (3.26 ms against 3.03).
// The values of the Param sizing an update's window under which unroll_window_per_value
// unrolls it, with the window's extents at each (none: the window is not unrolled per value).
std::vector<std::pair<int64_t, std::vector<std::pair<std::string, int64_t>>>>
GroupApplier::window_unroll_values(const StageNode &s, const FuncNode &n) const {
    // Not in a heavy group's members: their code is copied into every specialization of the root (heavy_group).
    if ((heavy_group_ && n.name != group_root_) || !window_may_unroll(s, n)) return {};
    const Internal::Definition &update = n.func.updates()[s.index - 1];
    const std::optional<SmallRangeParam> param = window_param(update);
    if (!param) return {};
    const std::optional<int64_t> step_nodes = update_step_nodes(update, [this](const std::string &f) { return inlined_.count(f) > 0; });
    if (!step_nodes) return {};
    std::vector<std::pair<int64_t, std::vector<std::pair<std::string, int64_t>>>> values;
    for (int64_t v = param->lo; v <= param->hi; v++) {
        const auto extents = window_extents_at(update, *param, v);
        if (!extents) continue;
        int64_t steps = 1;
        for (const auto &[rvar, extent] : *extents) steps *= extent;
        if (steps <= 1 || steps > kUnrolledWindowTaps || steps * *step_nodes > kUnrolledWindowNodes) continue;
        values.emplace_back(v, std::vector<std::pair<std::string, int64_t>>(extents->begin(), extents->end()));
    }
    return values;
}

void GroupApplier::unroll_window_per_value(StageRef &st, const StageNode &s, const FuncNode &n) {
    const auto values = window_unroll_values(s, n);
    if (values.empty() || !windows_per_value_.insert({n.name, s.index}).second) return;
    const std::optional<SmallRangeParam> param = window_param(n.func.updates()[s.index - 1]);
    const Internal::Variable *var = param->param.as<Internal::Variable>();
    const SizeExpr value = run_time(param->param);
    for (const auto &[v, extents] : values) {
        StageRef branch = w_.specialize(st, w_.equal_to(value, v));
        for (const auto &[rvar, extent] : extents) {
            if (extent > 1) w_.unroll(branch, rvar);
        }
    }
    note_once("Func " + n.name + ": its update's window is sized by the parameter " + var->name + ": unrolled under a specialization per value (" +
              (values.size() == 1 ? std::to_string(values[0].first) : std::to_string(values.front().first) + ".." + std::to_string(values.back().first)) + ").");
}

}  // namespace diet
