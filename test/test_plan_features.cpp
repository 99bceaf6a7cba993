// Plan features (features/PlanFeatures.h): computed from Diet's own plan and the rules' estimate,
// they must tell apart every plan the stage-rule search can reach, and the estimate they carry
// must be the one the planner minimized (tile_cost and choose_tile agree).
#include <catch2/catch.hpp>

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "features/PlanFeatures.h"
#include "options/Options.h"
#include "search/PlanSearch.h"
#include "space/Hardware.h"
#include "space/rules/RuleContext.h"

#include <set>

using namespace Halide;
using namespace diet;

namespace {

// An unsharp-like pipeline over a W x (W/2) image: a separable blur, a difference, a gain.
struct Unsharp {
    ImageParam in{Float(32), 2, "in"};
    Param<int> W{"W", 256, 64, 1024};
    Func clamped{"clamped"}, bx{"bx"}, by{"by"}, detail{"detail"}, out{"out"};
    Var x{"x"}, y{"y"};
    Unsharp() {
        clamped = BoundaryConditions::repeat_edge(in);
        bx(x, y) = (clamped(x - 2, y) + clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y) + clamped(x + 2, y)) / 5;
        by(x, y) = (bx(x, y - 2) + bx(x, y - 1) + bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 5;
        detail(x, y) = clamped(x, y) - by(x, y);
        out(x, y) = clamped(x, y) + 1.5f * detail(x, y) * detail(x, y);
        in.set_estimates({{0, W}, {0, W / 2}});
        out.set_estimates({{0, W}, {0, W / 2}});
    }
};

}  // namespace

TEST_CASE("plan features tell apart every plan the search reaches and carry the planner's estimate",
          "[features][plan]") {
    Unsharp u;
    const std::vector<Internal::Function> outputs = {u.out.function()};
    FunctionDAG dag(outputs);
    ShapeFamily fam = read_shape_family(outputs, Options{});
    const Target t("x86-64-linux-avx2-fma");
    const PlanInputs pin = plan_inputs(dag, fam, CpuLimits::for_target(t, 2, 0), {});
    const PipelinePlan start = plan_pipeline(pin);
    REQUIRE(!start.groups.empty());
    RuleContext cx(pin);

    const FeatureRows rows = plan_features(cx, start);
    REQUIRE(rows.size() == start.groups.size());
    for (const auto &r : rows) CHECK(r.size() == plan_feature_names().size());

    // The estimate in the features is the planner's: each tiled group's cost at its tile is what
    // choose_tile found for it, and the plan's estimate is their sum.
    double sum = 0;
    for (const GroupPlan &g : start.groups) {
        const TileCost c = tile_cost(cx, dag.node(g.root), g.members, g.members_per_step, g.tile_x, g.tile_y);
        REQUIRE(c.bounded);
        if (g.rule == RuleKind::TiledGroup) {
            const TileChoice best = fit_group(cx, g, g.members);
            CHECK(best.tile_x == g.tile_x);
            CHECK(best.tile_y == g.tile_y);
            CHECK(c.cost == Approx(best.cost));
        }
        sum += c.cost;
    }
    CHECK(plan_estimate(cx, start) == Approx(sum));

    // Distinct plans, distinct features: 200 random moves of the search from the heuristic plan.
    std::map<std::string, FeatureRows> by_key;
    uint64_t rng = 7;
    PipelinePlan p = start;
    for (int i = 0; i < 200; i++) {
        if (i % 10 == 0) p = start;
        if (!mutate_plan(p, rng)) continue;
        by_key[plan_key(p)] = plan_features(cx, p);
    }
    REQUIRE(by_key.size() >= 10);
    std::set<FeatureRows> distinct;
    for (const auto &[key, f] : by_key) distinct.insert(f);
    CHECK(distinct.size() == by_key.size());
}
