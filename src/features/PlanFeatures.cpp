#include "features/PlanFeatures.h"

#include "features/Features.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace diet {

namespace {

using Named = std::vector<std::pair<const char *, float>>;

TileCost cost_of(const RuleContext &cx, const GroupPlan &g) {
    return tile_cost(cx, cx.dag.node(g.root), g.members, g.members_per_step, g.tile_x, g.tile_y);
}

Named evaluate(const RuleContext *cx, const GroupPlan &g, const TileCost &c) {
    auto L = [](double x) { return log2p((float)x); };
    auto flag = [](bool b) { return b ? 1.f : 0.f; };
    const double l2 = cx ? (double)cx->in.cpu.l2_bytes : 1.0;
    return {
        // The rule and its parameters.
        {"rule.tiled_group", flag(g.rule == RuleKind::TiledGroup)},
        {"rule.update_loops", flag(g.rule == RuleKind::UpdateLoops)},
        {"rule.rfactor", flag(g.rule == RuleKind::RFactor)},
        {"rule.extern", flag(g.rule == RuleKind::Extern)},
        {"group.members", L((double)g.members.size())},
        {"group.tile_x", L(g.tile_x)},
        {"group.tile_y", L(g.tile_y)},
        {"group.whole_rows", flag(g.tile_x == 0)},
        {"group.members_per_step", flag(g.members_per_step)},
        {"group.transpose_blocks", flag(g.transpose_blocks)},
        {"group.inner_dims", L((double)g.inner_dims.size())},
        {"group.shift_inwards", L((double)g.shift_inwards.size())},
        {"group.vector_lanes", L(g.vector_lanes)},
        {"group.rfactor_chunk", L(g.rfactor_chunk)},
        // The rules' estimate of this group's tile, term by term.
        {"est.root_ops", L(c.root_ops)},
        {"est.member_ops", L(c.member_ops)},
        {"est.recompute", (float)(c.member_ops_once > 0 ? c.member_ops / c.member_ops_once : 0.0)},
        {"est.tiles", L(c.tiles)},
        {"est.tasks", L(c.tasks)},
        {"est.steps", L(c.steps)},
        {"est.footprint_bytes", L(c.footprint_bytes)},
        {"est.footprint_per_l2", (float)(c.footprint_bytes / l2)},
        {"est.members_spill", flag(c.members_spill)},
        {"est.page_faults", L(c.page_faults)},
        {"est.vector_waste", (float)c.vector_waste},
        {"est.overhead", L(c.overhead)},
        {"est.efficiency", (float)c.efficiency},
        {"est.starves_cores", flag(c.starves_cores)},
        {"est.bounded", flag(c.bounded)},
        {"est.cost", L(std::isfinite(c.cost) ? c.cost : 1e30)},
    };
}

}  // namespace

const std::vector<std::string> &plan_feature_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const auto &[name, v] : evaluate(nullptr, GroupPlan{}, TileCost{})) n.push_back(name);
        return n;
    }();
    return names;
}

FeatureRows plan_features(const RuleContext &cx, const PipelinePlan &plan) {
    FeatureRows rows;
    for (const GroupPlan &g : plan.groups) {
        std::vector<float> r;
        for (const auto &[name, v] : evaluate(&cx, g, cost_of(cx, g))) r.push_back(v);
        rows.push_back(std::move(r));
    }
    return rows;
}

double plan_estimate(const RuleContext &cx, const PipelinePlan &plan) {
    double total = 0;
    for (const GroupPlan &g : plan.groups) {
        const TileCost c = cost_of(cx, g);
        if (!c.bounded) return INFINITY;
        total += c.cost;
    }
    return total;
}

}  // namespace diet
