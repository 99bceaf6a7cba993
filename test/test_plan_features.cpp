// Plan features (features/PlanFeatures.h): computed from Diet's own plan and the rules' estimate,
// they must tell apart every plan the stage-rule search can reach, and the estimate they carry
// must be the one the planner minimized (tile_cost and choose_tile agree).
#include <catch2/catch.hpp>

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "cost/BaseModel.h"
#include "cost/PackSumModel.h"
#include "features/PlanFeatures.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "search/ModelTraining.h"
#include "search/PlanSearch.h"
#include "space/Hardware.h"
#include "space/HostCpu.h"
#include "space/rules/RuleContext.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

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

TEST_CASE("the stage-rule search starts from the shipped plan model, and refuses a kernel model in its place",
          "[plan_features][plans][base_model]") {
    const Target target = runnable_host_target();
    // A plan model (as `diet_model train-plans` writes it) for this target's class, trained on
    // arbitrary plan rows: what is checked is that the search loads and uses it, not its quality.
    std::vector<FeatureRows> rows;
    std::vector<float> labels;
    for (int i = 0; i < 24; i++) {
        rows.push_back({std::vector<float>(plan_feature_names().size(), (float)(i % 5))});
        labels.push_back((float)(i % 5));
    }
    PackSumModel m(plan_model_params());
    m.train(rows, labels, std::vector<size_t>(24, 0));
    ModelInfo info = shipped_model_info(m.info(), target_class(target), "plan", 24);
    m.set_info(info);
    const std::string dir = "/tmp/diet_test_plan_model_" + std::to_string((long)::getpid());
    REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
    const std::string plans = dir + "/plans.json", report = dir + "/report.json";
    m.save(plans);
    auto run = [&](const std::string &model) {
        Unsharp u;
        std::remove(report.c_str());
        autoschedule(Pipeline(u.out), target, 2, 0,
                     Options::from_map({{"trials", "9"}, {"samples", "3"}, {"seed", "2"}, {"report", report}, {"base_plan_model", model}}));
        std::ifstream in(report);
        REQUIRE(in.good());
        const nlohmann::json r = nlohmann::json::parse(in);
        REQUIRE(r.contains("stage_rule_search"));
        return r["stage_rule_search"];
    };
    const nlohmann::json with_model = run(plans);
    CHECK(with_model["shipped_plan_model"] == plans);
    CHECK(with_model["plans_measured"].get<int>() >= 2);
    // A kernel model named as the plan model: one warning, the rules' estimate ranks instead.
    info.features = "kernel";
    m.set_info(info);
    const std::string kernels = dir + "/kernels.json";
    m.save(kernels);
    CHECK(run(kernels)["shipped_plan_model"] == "");
    CHECK(run("none")["shipped_plan_model"] == "");
    std::remove(plans.c_str());
    std::remove(kernels.c_str());
    std::remove(report.c_str());
    ::rmdir(dir.c_str());
}
