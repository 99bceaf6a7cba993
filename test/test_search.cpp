// The evolutionary search on synthetic cost landscapes: it finds known optima, respects the budget
// exactly, never measures a pair twice, and survives failed measurements.
#include <catch2/catch.hpp>

#include "search/Evolution.h"
#include "search/ModelTraining.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace diet;

namespace {

std::vector<MicroKernel> cpu_space() {
    std::vector<MicroKernel> s;
    for (int v = 1; v <= 4; v++) {
        for (int r = 1; r <= 8; r++) {
            for (int p : {1, 2, 4, 8}) {
                for (int ku : {1, 2, 4}) {
                    MicroKernel k;
                    k.cpu = {16, v, r, p, ku, true};
                    s.push_back(k);
                }
            }
        }
    }
    return s;
}

// Throughput of kernel k at shape s: a smooth landscape whose optimum moves with the shape.
double landscape(const MicroKernel &k, size_t s) {
    const int best_rows = s == 0 ? 2 : s == 1 ? 5 : 8;
    const int best_vectors = s == 0 ? 1 : 3;
    double v = 100.0 - 6.0 * std::abs(k.cpu.rows - best_rows) - 9.0 * std::abs(k.cpu.vectors - best_vectors) -
               2.0 * std::abs(std::log2((double)k.cpu.panel_tiles) - 2) - 1.0 * std::abs(k.cpu.k_unroll - 4);
    return std::max(1.0, v);
}

}  // namespace

TEST_CASE("neighbors differ in exactly one field", "[search]") {
    auto space = cpu_space();
    auto nb = neighbors(space, 0);
    CHECK(nb.size() == 3 + 7 + 3 + 2);  // vectors, rows, panel, k_unroll alternatives
}

TEST_CASE("the search finds the known optimum of every shape within the budget", "[search]") {
    auto space = cpu_space();
    const std::vector<double> weights = {1, 1, 1};
    int measured = 0;
    Predict predict = [&](const std::vector<size_t> &ks) {
        std::vector<std::vector<double>> s;
        for (size_t k : ks) s.push_back({landscape(space[k], 0), landscape(space[k], 1), landscape(space[k], 2)});
        return s;
    };
    Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
        std::vector<std::optional<double>> t;
        for (auto [k, s] : batch) {
            measured++;
            t.push_back(1.0 / landscape(space[k], s));
        }
        return t;
    };
    SearchParams p;
    p.budget = 48;
    p.seed = 11;
    std::vector<std::string> progress;
    SearchResult r = evolutionary_search(space, weights, predict, measure, {}, p,
                                         [&](const std::string &l) { progress.push_back(l); });
    CHECK(measured == 48);
    CHECK(r.trials.size() == 48);
    CHECK(!progress.empty());
    for (size_t s = 0; s < 3; s++) {
        double best = 0;
        for (const auto &k : space) best = std::max(best, landscape(k, s));
        INFO("shape " << s);
        CHECK(landscape(space[r.best_kernel[s]], s) == best);
    }
}

TEST_CASE("budgets are exact, pairs are never measured twice, failures are kept", "[search]") {
    auto space = cpu_space();
    for (int budget : {0, 1, 7, 30}) {
        std::map<std::pair<size_t, size_t>, int> seen;
        Predict predict = [&](const std::vector<size_t> &ks) {
            return std::vector<std::vector<double>>(ks.size(), std::vector<double>{1.0, 2.0});
        };
        Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
            std::vector<std::optional<double>> t;
            for (auto key : batch) {
                seen[key]++;
                // Every third measurement fails (a crash or a timeout in the real runner).
                t.push_back(seen.size() % 3 == 0 ? std::nullopt : std::optional<double>(1.0 + key.first));
            }
            return t;
        };
        int learned = 0;
        SearchParams p;
        p.budget = budget;
        p.measures_per_round = 4;
        SearchResult r = evolutionary_search(space, {1, 1}, predict, measure,
                                             [&](const std::vector<Trial> &) { learned++; }, p);
        INFO("budget " << budget);
        CHECK((int)r.trials.size() == budget);
        CHECK((int)seen.size() == budget);
        for (auto &kv : seen) CHECK(kv.second == 1);
        CHECK(learned == (budget + 3) / 4);
        int failures = 0;
        for (const Trial &t : r.trials) failures += !t.seconds;
        CHECK(failures == budget / 3);
    }
}

TEST_CASE("the search is deterministic for a seed", "[search]") {
    auto space = cpu_space();
    Predict predict = [&](const std::vector<size_t> &ks) {
        std::vector<std::vector<double>> s;
        for (size_t k : ks) s.push_back({landscape(space[k], 0), landscape(space[k], 2)});
        return s;
    };
    Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
        std::vector<std::optional<double>> t;
        for (auto [k, s] : batch) t.push_back(1.0 / landscape(space[k], s == 0 ? 0 : 2));
        return t;
    };
    SearchParams p;
    p.budget = 20;
    p.seed = 5;
    auto a = evolutionary_search(space, {1, 3}, predict, measure, {}, p);
    auto b = evolutionary_search(space, {1, 3}, predict, measure, {}, p);
    REQUIRE(a.trials.size() == b.trials.size());
    for (size_t i = 0; i < a.trials.size(); i++) {
        CHECK(a.trials[i].kernel == b.trials[i].kernel);
        CHECK(a.trials[i].shape == b.trials[i].shape);
    }
}

TEST_CASE("seeded kernels start in the population and are measured first where predicted best", "[search]") {
    // A column kernel space plus one dot-product kernel with the same sizes as the first column
    // kernel: two kernels of the space, told apart by the search (neighbors, crossover).
    auto space = cpu_space();
    MicroKernel dot = space[0];
    dot.cpu.dot = true;
    space.push_back(dot);
    const size_t dot_index = space.size() - 1;
    const auto nb = neighbors(space, 0);
    CHECK(std::find(nb.begin(), nb.end(), dot_index) != nb.end());
    // The predictor ranks the dot-product kernel far ahead at shape 0 only.
    Predict predict = [&](const std::vector<size_t> &ks) {
        std::vector<std::vector<double>> s;
        for (size_t k : ks) s.push_back({k == dot_index ? 1000.0 : landscape(space[k], 0), landscape(space[k], 2)});
        return s;
    };
    std::vector<std::pair<size_t, size_t>> first_round;
    Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
        if (first_round.empty()) first_round = batch;
        std::vector<std::optional<double>> t;
        for (auto [k, s] : batch) t.push_back(1.0 / (k == dot_index && s == 0 ? 1000.0 : landscape(space[k], s == 0 ? 0 : 2)));
        return t;
    };
    SearchParams p;
    p.budget = 4;
    p.measures_per_round = 4;
    p.eps_greedy = 0;
    p.seed = 3;
    p.seeds = {dot_index};
    SearchResult r = evolutionary_search(space, {1, 1}, predict, measure, {}, p);
    CHECK(std::find(first_round.begin(), first_round.end(), std::make_pair(dot_index, (size_t)0)) != first_round.end());
    CHECK(r.best_kernel[0] == dot_index);
}

TEST_CASE("the first-round pairs are measured first, and no shape ends slower than its pair", "[search]") {
    // The untuned choice at each shape (PatternTuner::search) is the fastest kernel there, but the
    // predictor (a misled online model) ranks it last: the search must still measure it first and
    // keep it as that shape's best.
    auto space = cpu_space();
    const std::vector<size_t> untuned = {5, 77};
    Predict predict = [&](const std::vector<size_t> &ks) {
        std::vector<std::vector<double>> s;
        for (size_t k : ks) {
            s.push_back({k == untuned[0] ? 0.5 : landscape(space[k], 0), k == untuned[1] ? 0.5 : landscape(space[k], 2)});
        }
        return s;
    };
    std::vector<std::vector<std::pair<size_t, size_t>>> rounds;
    Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
        rounds.push_back(batch);
        std::vector<std::optional<double>> t;
        for (auto [k, s] : batch) t.push_back(k == untuned[s] ? 1e-6 : 1.0 / landscape(space[k], s == 0 ? 0 : 2));
        return t;
    };
    for (int budget : {1, 2, 12}) {
        rounds.clear();
        SearchParams p;
        p.budget = budget;
        p.measures_per_round = 4;
        p.seed = 9;
        p.first_round = {{untuned[0], 0}, {untuned[1], 1}};
        SearchResult r = evolutionary_search(space, {1, 1}, predict, measure, {}, p);
        INFO("budget " << budget);
        REQUIRE(!rounds.empty());
        CHECK((int)r.trials.size() == budget);
        // The first round is exactly the given pairs (as many as the budget holds).
        const std::vector<std::pair<size_t, size_t>> want(p.first_round.begin(), p.first_round.begin() + std::min(budget, 2));
        CHECK(rounds[0] == want);
        for (size_t s = 0; s < want.size(); s++) CHECK(r.best_kernel[s] == untuned[s]);
        // Later rounds go back to the evolved picks (the predictor's favourites), never repeating a pair.
        std::set<std::pair<size_t, size_t>> seen;
        for (const auto &b : rounds) {
            for (const auto &key : b) CHECK(seen.insert(key).second);
        }
    }
}

// The plan model's labels (search/ModelTraining.h): a plan's rank by time within its own group,
// in (0, 1], higher for faster (the fastest 1), ties sharing a rank, groups independent.
TEST_CASE("rank labels order each group by time, independently of the other groups", "[search][unit]") {
    const std::vector<size_t> group = {0, 0, 0, 1, 1, 0};
    const std::vector<double> seconds = {3.0, 1.0, 2.0, 100.0, 50.0, 2.0};
    const std::vector<float> y = diet::rank_labels_within_groups(group, seconds);
    REQUIRE(y.size() == group.size());
    CHECK(y[1] == Approx(1.0));    // the fastest of group 0
    CHECK(y[2] == Approx(0.625));  // the two 2 s plans share a rank
    CHECK(y[5] == Approx(0.625));
    CHECK(y[0] == Approx(0.25));   // the slowest of four
    CHECK(y[4] == Approx(1.0));    // group 1's times do not matter to group 0's labels
    CHECK(y[3] == Approx(0.5));
    CHECK(diet::plan_model_params().objective == diet::Objective::PairwiseRank);
}
