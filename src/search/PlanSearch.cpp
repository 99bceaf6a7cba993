#include "search/PlanSearch.h"
#include "measure/Fingerprint.h"
#include "measure/Inputs.h"
#include "measure/Measure.h"
#include "schedule/Instantiate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

constexpr int kCandidatesPerRound = 8;
constexpr int kMaxSearchShapes = 3;  // smallest, middle and largest training shapes

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
        std::vector<int> xs = {0};
        for (int k : {2, 4, 8, 16, 32}) {
            if ((int64_t)k * f.lanes <= f.narrowest_x) xs.push_back(k * f.lanes);
        }
        const int tx = xs[pick(rng, (int)xs.size())];
        if (tx == g.tile_x) return false;
        g.tile_x = tx;
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

PipelinePlan search_plan(const std::vector<Function> &outputs, const std::vector<KernelChoice> &kernels,
                         const PipelinePlan &start, const std::vector<Shape> &training, const Target &target,
                         const CpuLimits &cpu, const Options &opts) {
    const std::vector<Shape> shapes = search_shapes(training.empty() ? std::vector<Shape>{Shape{}} : training);
    const int budget_candidates = opts.trials / (int)shapes.size();
    if (budget_candidates < 1) return start;
    const auto t0 = std::chrono::steady_clock::now();
    MeasureSetup setup = MeasureSetup::from_options(opts, target);
    Measurer measurer(setup);
    SavedEstimates saved(outputs);
    const std::string fingerprint = pipeline_fingerprint(outputs, target);

    // Seconds per shape of a list of plans (infinity where any shape failed); the heuristic plan is
    // the reference every output is checked against.
    auto measure = [&](const std::vector<PipelinePlan> &plans) {
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
    base = measure({start})[0];
    for (double b : base) {
        if (!std::isfinite(b)) {
            std::cerr << "[diet] stage-rule search: the heuristic plan could not be measured; kept\n";
            return start;
        }
    }
    PipelinePlan best = start;
    double best_score = 1.0;
    std::set<std::string> seen = {plan_key(start)};
    uint64_t rng = opts.seed * 0x2545f4914f6cdd1dull + 17;
    int measured = 1;
    while (measured < budget_candidates) {
        std::vector<PipelinePlan> round;
        for (int tries = 0; (int)round.size() < std::min(kCandidatesPerRound, budget_candidates - measured) && tries < 64; tries++) {
            PipelinePlan p = best;
            const int changes = 1 + pick(rng, 2);
            bool ok = false;
            for (int c = 0; c < changes; c++) ok |= mutate_plan(p, rng);
            if (ok && seen.insert(plan_key(p)).second) round.push_back(p);
        }
        if (round.empty()) break;
        std::vector<std::vector<double>> secs = measure(round);
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
    std::cerr << "[diet] stage-rule search: best plan " << best_score << "x the heuristic's time (geomean over "
              << shapes.size() << " shape(s))\n";
    return best;
}

}  // namespace diet
