#include "search/PlanSearch.h"
#include "cost/BaseModel.h"
#include "cost/Dataset.h"
#include "cost/PackSumModel.h"
#include "features/PlanFeatures.h"
#include "search/ModelTraining.h"
#include "space/rules/RuleContext.h"
#include "measure/Fingerprint.h"
#include "measure/Inputs.h"
#include "measure/Measure.h"
#include "schedule/Instantiate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <iostream>
#include <random>
#include <memory>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

constexpr int kCandidatesPerRound = 8;
constexpr int kPoolPerRound = 48;  // candidates drawn and ranked per round; the best ranked are measured
constexpr int kMaxSearchShapes = 3;  // smallest, middle and largest training shapes
// The shipped plan model ranks the pools until the run has measured this many plans; then the
// run's own model, trained on this pipeline, takes over (a heuristic threshold: two rounds).
constexpr int kBasePlanModelPlans = 1 + 2 * kCandidatesPerRound;

uint64_t next(uint64_t &s) {  // splitmix64: deterministic across platforms
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
int pick(uint64_t &s, int n) { return n <= 0 ? 0 : (int)(next(s) % (uint64_t)n); }

void sort_groups(PipelinePlan &p) {
    auto pos = [&](const std::string &n) { return p.facts.count(n) ? p.facts.at(n).position : 0; };
    std::sort(p.groups.begin(), p.groups.end(), [&](const GroupPlan &a, const GroupPlan &b) { return pos(a.root) < pos(b.root); });
    for (GroupPlan &g : p.groups) {
        std::sort(g.members.begin(), g.members.end(), [&](const std::string &a, const std::string &b) { return pos(a) < pos(b); });
    }
}

std::map<std::string, std::vector<std::string>> producers_of(const PipelinePlan &p) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto &[name, f] : p.facts) out[name] = f.producers;
    return out;
}

void set_tile_y(GroupPlan &g, const FuncFacts &f, int ty) {
    g.tile_y = ty;
    g.tile_y_shift = ty > 0 && ty <= f.narrowest_y;
}

bool change_tile(PipelinePlan &p, GroupPlan &g, uint64_t &rng) {
    const FuncFacts &f = p.facts.at(g.root);
    if (pick(rng, 2) == 0) {
        // As the planner's candidates (space/rules/TiledGroup.cpp root_facts): within dim 0 at
        // the smallest shape, or min(row, tile) where the root may take them (FuncFacts).
        std::vector<int> xs = {0};
        for (int k : {2, 4, 8, 16, 32}) {
            if ((int64_t)k * f.lanes <= f.narrowest_x || f.tiles_may_clamp) xs.push_back(k * f.lanes);
        }
        const int tx = xs[pick(rng, (int)xs.size())];
        if (tx == g.tile_x) return false;
        g.tile_x = tx;
        g.tile_x_clamped = f.tiles_may_clamp && tx > f.narrowest_x;
    } else {
        static const int ys[] = {0, 1, 2, 4, 8, 16, 32, 64, 128};
        const int ty = ys[pick(rng, 9)];
        if (ty == g.tile_y) return false;
        set_tile_y(g, f, ty);
    }
    return true;
}

// A member becomes a group of its own, computed at root, and so does every member it reads
// (directly or through members): those are computed per tile of the old root, which the new
// root's loops are no longer inside. Always valid; the fusing move can merge them back.
bool split_member(PipelinePlan &p, size_t gi, uint64_t &rng) {
    GroupPlan &g = p.groups[gi];
    if (g.members.empty()) return false;
    const std::string m = g.members[pick(rng, (int)g.members.size())];
    std::set<std::string> moved = member_ancestors(g, m, producers_of(p));
    moved.insert(m);
    const int ty = g.tile_y ? g.tile_y : 16;
    const std::vector<std::string> shift = g.shift_inwards;
    std::vector<std::string> keep;
    for (const std::string &x : g.members) {
        if (!moved.count(x)) keep.push_back(x);
    }
    g.members = keep;
    for (const std::string &x : moved) {
        GroupPlan ng;
        ng.root = x;
        ng.rule = p.facts.at(x).pure ? RuleKind::TiledGroup : RuleKind::UpdateLoops;
        ng.vector_lanes = p.facts.at(x).lanes;
        if (ng.rule == RuleKind::TiledGroup) set_tile_y(ng, p.facts.at(x), ty);
        if (std::find(shift.begin(), shift.end(), x) != shift.end()) ng.shift_inwards.push_back(x);
        ng.why = "split out by the search";
        p.groups.push_back(ng);
    }
    return true;
}

// A root group whose consumers all lie in one tiled group joins it (with its members).
bool fuse_group(PipelinePlan &p, size_t gi) {
    const GroupPlan g = p.groups[gi];
    const FuncFacts &f = p.facts.at(g.root);
    if (f.output || f.feeds.empty() || (g.rule != RuleKind::TiledGroup && g.rule != RuleKind::UpdateLoops)) return false;
    int target = -1;
    for (const std::string &c : f.feeds) {
        int found = -1;
        for (size_t k = 0; k < p.groups.size(); k++) {
            const GroupPlan &h = p.groups[k];
            if (h.root == c || std::find(h.members.begin(), h.members.end(), c) != h.members.end()) found = (int)k;
        }
        if (found < 0 || (target >= 0 && found != target)) return false;
        target = found;
    }
    if (target < 0 || target == (int)gi || p.groups[target].rule != RuleKind::TiledGroup) return false;
    GroupPlan &t = p.groups[target];
    t.members.push_back(g.root);
    t.members.insert(t.members.end(), g.members.begin(), g.members.end());
    t.shift_inwards.insert(t.shift_inwards.end(), g.shift_inwards.begin(), g.shift_inwards.end());
    p.groups.erase(p.groups.begin() + (long)gi);
    return true;
}

Pipeline instantiate_plan(const std::vector<Function> &outputs, const std::vector<KernelChoice> &kernels,
                          const PipelinePlan &plan, const Target &target, const CpuLimits &cpu, const Shape &shape) {
    Candidate c{kernels};
    for (KernelChoice &k : c.kernels) k.dispatch = {};
    c.plan = std::make_shared<const PipelinePlan>(plan);
    return instantiate(outputs, c, target, cpu, shape);
}

std::vector<Shape> search_shapes(const std::vector<Shape> &training) {
    if ((int)training.size() <= kMaxSearchShapes) return training;
    return {training.front(), training[training.size() / 2], training.back()};
}

}  // namespace

bool mutate_plan(PipelinePlan &plan, uint64_t &rng) {
    for (int attempt = 0; attempt < 16; attempt++) {
        if (plan.groups.empty()) return false;
        const size_t gi = (size_t)pick(rng, (int)plan.groups.size());
        bool changed = false;
        switch (pick(rng, 4)) {
        case 0:
        case 1:
            if (plan.groups[gi].rule == RuleKind::TiledGroup || !plan.groups[gi].members.empty()) changed = change_tile(plan, plan.groups[gi], rng);
            break;
        case 2: changed = split_member(plan, gi, rng); break;
        default: changed = fuse_group(plan, gi); break;
        }
        if (changed) {
            sort_groups(plan);
            return true;
        }
    }
    return false;
}

namespace {

// The plan cost model of one search: pairwise pack-sum over the plan features, one group per
// search shape, labelled by rank within its shape (search/ModelTraining.h plan_model_params,
// rank_labels_within_groups: derived from the measured times whenever the model is fitted).
struct PlanModel {
    std::vector<FeatureRows> rows;
    std::vector<size_t> shape;
    std::vector<double> seconds, estimates;
    std::unique_ptr<PackSumModel> model;
    double seconds_training = 0;

    void add(const FeatureRows &r, size_t s, double secs, double estimate) {
        rows.push_back(r);
        shape.push_back(s);
        seconds.push_back(secs);
        estimates.push_back(estimate);
    }
    static PackSumModelParams params() { return plan_model_params(); }
    std::vector<float> labels() const { return rank_labels_within_groups(shape, seconds); }
    void retrain() {
        const auto t0 = std::chrono::steady_clock::now();
        auto m = std::make_unique<PackSumModel>(params());
        m->train(rows, labels(), shape);
        model = m->trained() ? std::move(m) : nullptr;
        seconds_training += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // Kendall's tau within each shape of `score` (higher: predicted faster) against the measured times.
    double tau_within_shape(const std::vector<double> &score) const {
        std::vector<double> neg;
        for (double x : score) neg.push_back(-x);
        return mean_tau_within_shape(shape, neg, seconds);
    }
    // 8-fold cross-validation of the model over the measured plans.
    double cross_validated_tau(uint64_t seed) const {
        std::vector<double> pred = cross_validated_scores(rows, labels(), shape, 8, seed, params());
        return pred.empty() ? 0.0 : tau_within_shape(pred);
    }
};

}  // namespace

PipelinePlan search_plan(const std::vector<Function> &outputs, const std::vector<KernelChoice> &kernels,
                         const PipelinePlan &start, const std::vector<Shape> &training, const Target &target,
                         const CpuLimits &cpu, const Options &opts, const PlanInputs &pin, nlohmann::json *report) {
    const std::vector<Shape> shapes = search_shapes(training.empty() ? std::vector<Shape>{Shape{}} : training);
    const int budget_candidates = opts.trials / (int)shapes.size();
    if (budget_candidates < 1) return start;
    const auto t0 = std::chrono::steady_clock::now();
    MeasureSetup setup = MeasureSetup::from_options(opts, target);
    Measurer measurer(setup);
    SavedEstimates saved(outputs);
    const std::string fingerprint = pipeline_fingerprint(outputs, target);

    // The rules' view of the pipeline at each search shape, for the plan features.
    std::deque<PlanInputs> inputs;
    std::vector<std::unique_ptr<RuleContext>> contexts;
    for (const Shape &sh : shapes) {
        inputs.push_back(pin);
        inputs.back().shape = sh;
        inputs.back().shape.insert(pin.params.representative.begin(), pin.params.representative.end());
        contexts.push_back(std::make_unique<RuleContext>(inputs.back()));
    }
    double featurize_seconds = 0;
    int featurized = 0;
    auto featurize = [&](const PipelinePlan &p, size_t s, double *estimate) {
        const auto f0 = std::chrono::steady_clock::now();
        FeatureRows rows = plan_features(*contexts[s], p);
        *estimate = plan_estimate(*contexts[s], p);
        featurize_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - f0).count();
        featurized++;
        return rows;
    };

    // Seconds per shape of a list of plans (infinity where any shape failed); the heuristic plan is
    // the reference every output is checked against.
    double measure_seconds = 0;
    auto measure = [&](const std::vector<PipelinePlan> &plans) {
        const auto m0 = std::chrono::steady_clock::now();
        std::vector<std::vector<double>> secs(plans.size(), std::vector<double>(shapes.size(), INFINITY));
        for (size_t s = 0; s < shapes.size(); s++) {
            saved.restore();
            Pipeline reference = instantiate_plan(outputs, kernels, start, target, cpu, shapes[s]);
            std::vector<Variant> variants;
            for (const PipelinePlan &p : plans) {
                saved.restore();
                variants.push_back({"plan:" + plan_key(p), instantiate_plan(outputs, kernels, p, target, cpu, shapes[s]), ""});
            }
            std::vector<TuningRecord> got = measurer.measure_variants(reference, variants, shapes[s], fingerprint);
            for (size_t i = 0; i < got.size(); i++) {
                if (got[i].ok()) secs[i][s] = got[i].median_seconds;
                else std::cerr << "[diet] stage-rule candidate skipped (" << got[i].error.substr(0, 120) << ")\n";
            }
        }
        saved.restore();
        measure_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - m0).count();
        return secs;
    };
    // Geometric mean over the shapes of the time relative to the heuristic's.
    std::vector<double> base;
    auto score = [&](const std::vector<double> &t) {
        double log_sum = 0;
        for (size_t s = 0; s < t.size(); s++) {
            if (!std::isfinite(t[s]) || !(base[s] > 0)) return (double)INFINITY;
            log_sum += std::log(t[s] / base[s]);
        }
        return std::exp(log_sum / (double)t.size());
    };
    PlanModel pm;
    // The shipped plan model (cost/BaseModel.h), if there is one for this target class.
    std::unique_ptr<BaseModel> shipped;
    {
        const std::string path = base_plan_model_path(opts.base_plan_model, target);
        std::string why;
        shipped = BaseModel::load(path, target_class(target), &why, "plan");
        if (!why.empty()) {
            std::cerr << "[diet] warning: the shipped plan model " << path << " is not used: it is " << why
                      << "; the rules' estimate ranks the first plans\n";
        } else if (!shipped && !opts.base_plan_model.empty() && opts.base_plan_model != "none") {
            std::cerr << "[diet] warning: no plan model at " << path << " (HL_DIET_BASE_PLAN_MODEL); the rules' estimate ranks the first plans\n";
        }
    }
    std::vector<PlanRecord> data;
    // Learns from measured plans (and keeps them for the dataset).
    auto learn = [&](const std::vector<PipelinePlan> &plans, const std::vector<std::vector<double>> &secs) {
        for (size_t i = 0; i < plans.size(); i++) {
            for (size_t s = 0; s < shapes.size(); s++) {
                double est = 0;
                FeatureRows rows = featurize(plans[i], s, &est);
                if (std::isfinite(secs[i][s])) pm.add(rows, s, secs[i][s], est);
                if (!opts.dataset_path.empty()) {
                    PlanRecord r{fingerprint, "", target.to_string(), ShapeFamily::to_string(shapes[s]), plan_key(plans[i]), rows, est, std::nullopt};
                    if (std::isfinite(secs[i][s])) r.seconds = secs[i][s];
                    data.push_back(r);
                }
            }
        }
        // Each round's records go out as soon as they are measured: a search cut short (a
        // generator's timeout) still leaves what it measured.
        if (!data.empty()) append_plan_dataset(opts.dataset_path, data);
        data.clear();
        pm.retrain();
    };
    std::vector<std::vector<double>> start_secs = measure({start});
    base = start_secs[0];
    for (double b : base) {
        if (!std::isfinite(b)) {
            std::cerr << "[diet] stage-rule search: the heuristic plan could not be measured; kept\n";
            return start;
        }
    }
    learn({start}, start_secs);
    PipelinePlan best = start;
    double best_score = 1.0;
    std::set<std::string> seen = {plan_key(start)};
    uint64_t rng = opts.seed * 0x2545f4914f6cdd1dull + 17;
    int measured = 1;
    // Online quality: each measured candidate's predicted score (model, else the estimate) before
    // it was measured, per shape.
    std::vector<size_t> online_shape;
    std::vector<double> online_pred, online_secs;
    while (measured < budget_candidates) {
        const int want = std::min(kCandidatesPerRound, budget_candidates - measured);
        std::vector<PipelinePlan> pool;
        for (int tries = 0; (int)pool.size() < kPoolPerRound && tries < 8 * kPoolPerRound; tries++) {
            PipelinePlan p = best;
            const int changes = 1 + pick(rng, 2);
            bool ok = false;
            for (int c = 0; c < changes; c++) ok |= mutate_plan(p, rng);
            if (ok && seen.insert(plan_key(p)).second) pool.push_back(p);
        }
        if (pool.empty()) break;
        // Predicted speed of each pooled plan per shape (higher: faster).
        std::vector<std::vector<double>> pred(pool.size(), std::vector<double>(shapes.size()));
        for (size_t s = 0; s < shapes.size(); s++) {
            std::vector<FeatureRows> rows;
            std::vector<double> est(pool.size());
            for (size_t i = 0; i < pool.size(); i++) rows.push_back(featurize(pool[i], s, &est[i]));
            const bool use_shipped = shipped && measured < kBasePlanModelPlans;
            std::vector<float> m = use_shipped ? shipped->predict_plans(rows) : pm.model ? pm.model->predict(rows) : std::vector<float>{};
            for (size_t i = 0; i < pool.size(); i++) pred[i][s] = !m.empty() ? (double)m[i] : -std::log(std::max(est[i], 1e-30));
        }
        // Rank by the mean predicted speed over the shapes; all but one pick from the top, one at
        // random from the rest (exploration, so the model sees plans it ranks low).
        std::vector<size_t> order(pool.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = i;
        auto mean = [&](size_t i) {
            double x = 0;
            for (double v : pred[i]) x += v;
            return x;
        };
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return mean(a) > mean(b); });
        std::vector<size_t> picks(order.begin(), order.begin() + std::min<size_t>(order.size(), std::max(1, want - 1)));
        if ((int)picks.size() < want && order.size() > picks.size()) {
            picks.push_back(order[picks.size() + (size_t)pick(rng, (int)(order.size() - picks.size()))]);
        }
        std::vector<PipelinePlan> round;
        for (size_t i : picks) round.push_back(pool[i]);
        // Pooled plans not measured may be drawn again in a later round.
        for (size_t i = 0; i < pool.size(); i++) {
            if (std::find(picks.begin(), picks.end(), i) == picks.end()) seen.erase(plan_key(pool[i]));
        }
        std::vector<std::vector<double>> secs = measure(round);
        for (size_t j = 0; j < picks.size(); j++) {
            for (size_t s = 0; s < shapes.size(); s++) {
                if (!std::isfinite(secs[j][s])) continue;
                online_shape.push_back(s);
                online_pred.push_back(-pred[picks[j]][s]);
                online_secs.push_back(secs[j][s]);
            }
        }
        learn(round, secs);
        measured += (int)round.size();
        for (size_t i = 0; i < round.size(); i++) {
            const double sc = score(secs[i]);
            if (sc < best_score) {
                best_score = sc;
                best = round[i];
            }
        }
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cerr << "[diet] stage-rule search: " << measured << "/" << budget_candidates << " plans measured at "
                  << shapes.size() << " shape(s), best " << best_score << "x the heuristic's time, ETA "
                  << (int)(elapsed / measured * (budget_candidates - measured)) << " s\n";
    }
    if (best_score < 1.0) {
        for (GroupPlan &g : best.groups) {
            if (g.why.empty() || g.why == "split out by the search") g.why = "chosen by measurement";
        }
    }
    std::vector<double> est_score;
    for (double e : pm.estimates) est_score.push_back(-std::log(std::max(e, 1e-30)));
    const double tau_cv = pm.cross_validated_tau(opts.seed), tau_est = pm.tau_within_shape(est_score);
    const double tau_online = mean_tau_within_shape(online_shape, online_pred, online_secs);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "[diet] stage-rule search: best plan " << best_score << "x the heuristic's time (geomean over "
              << shapes.size() << " shape(s)); plan model tau within a shape: " << tau_cv
              << " cross-validated, " << tau_online << " online (analytic estimate: " << tau_est << "); "
              << featurized << " plans featurized in " << featurize_seconds << " s\n";
    if (report) {
        (*report)["plans_measured"] = measured;
        (*report)["shipped_plan_model"] = shipped ? shipped->path() : "";
        (*report)["shapes"] = shapes.size();
        (*report)["best_relative_time"] = best_score;
        (*report)["model_tau_within_shape_cross_validated"] = tau_cv;
        (*report)["model_tau_within_shape_online"] = tau_online;
        (*report)["estimate_tau_within_shape"] = tau_est;
        (*report)["plans_featurized"] = featurized;
        (*report)["seconds_featurizing"] = featurize_seconds;
        (*report)["seconds_model"] = featurize_seconds + pm.seconds_training;
        (*report)["seconds_measuring"] = measure_seconds;
        (*report)["seconds_compiling"] = measurer.seconds_compiling();
        (*report)["seconds_total"] = total;
    }
    return best;
}

}  // namespace diet
