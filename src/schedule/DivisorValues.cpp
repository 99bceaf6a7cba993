// A group scheduled once per value of a run-time divisor (analysis/RuntimeDivisors.h), then as
// usual (schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"
#include "analysis/RuntimeDivisors.h"
#include "space/Rules.h"

namespace diet {

using namespace Halide;
using FuncRef = GroupApplier::FuncRef;

// Where the group's Funcs divide by a scalar Param of a small declared range (an upsample by FAC
// in [1, 5], a polyphase filter's L in [1, 4]): the whole group is scheduled first under
// specialize(P == v) for each value v of the range (every stage of its root and members, so each
// branch is a complete schedule), then once more for the stages' unspecialized definitions.
// Halide substitutes v in each branch: the division becomes a multiply and a shift, an upsample's
// gather a dense load and a shuffle. Red-team rounds 8 and 9: built with constant factors, the
// upsample and Kronecker product ran 3.7x faster; polyphase upsampling ran 2.1x the unscheduled
// pipeline's time (apps/results/cpu/scan_lanes_2026-12-01/). Not for rules that make Funcs
// (rfactor, a row reduction's lanes): they would be made once per value; nor where a member's
// storage is reordered (a Func-level call, not specialized).
void GroupApplier::per_divisor_value(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    if (g.rule == RuleKind::RFactor || g.row_lanes() || !g.member_lane_rvars.empty() || !g.member_vector_dims.empty() || g.members_per_point) return;
    const auto inlined = [this](const std::string &f) { return inlined_.count(f) > 0; };
    std::set<std::string> group(g.members.begin(), g.members.end());
    group.insert(g.root);
    std::optional<RuntimeDivisor> divisor;
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

}  // namespace diet
