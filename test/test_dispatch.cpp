// Shape dispatch's decision logic on hand-made data: kernel votes and the kernel cap (the loss of
// dropping a kernel), and the CART tree that maps shapes to kernels (exact on piecewise-constant
// vote maps, leaf cap, weights, determinism, bad arguments).
#include <catch2/catch.hpp>

#include "dispatch/DecisionTree.h"
#include "dispatch/Dispatch.h"
#include "dispatch/Votes.h"

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

using namespace diet;

namespace {

using Samples = std::vector<std::vector<int64_t>>;
using Labels = std::vector<size_t>;

// 1-D samples 1..n labeled by runs: {{label, length}, ...}.
void runs(const std::vector<std::pair<size_t, int>> &pieces, Samples &samples, Labels &labels) {
    int64_t x = 1;
    for (auto [label, length] : pieces) {
        for (int i = 0; i < length; i++) {
            samples.push_back({x++});
            labels.push_back(label);
        }
    }
}

bool reproduces(const DecisionTree &tree, const Samples &samples, const Labels &labels) {
    for (size_t i = 0; i < samples.size(); i++) {
        if (predict(tree, samples[i]) != labels[i]) {
            return false;
        }
    }
    return true;
}

// No split may have two leaf children with the same label (those collapse).
bool collapsed(const DecisionTree &tree) {
    for (const TreeNode &n : tree.nodes) {
        if (!n.leaf) {
            const TreeNode &l = tree.nodes[n.left], &r = tree.nodes[n.right];
            if (l.leaf && r.leaf && l.label == r.label) {
                return false;
            }
        }
    }
    return true;
}

// A deterministic pseudo-random cost table with times in [1, 3).
CostTable pseudo_random_table(size_t shapes, size_t kernels, uint64_t seed) {
    CostTable t(shapes, std::vector<double>(kernels));
    for (auto &row : t) {
        for (double &v : row) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            v = 1.0 + 2.0 * static_cast<double>(seed >> 11) / static_cast<double>(1ULL << 53);
        }
    }
    return t;
}

size_t best_single_kernel(const CostTable &t, const std::vector<double> &w) {
    size_t best = 0;
    for (size_t k = 1; k < t[0].size(); k++) {
        if (relative_loss(t, w, {k}) < relative_loss(t, w, {best})) {
            best = k;
        }
    }
    return best;
}

// The least weighted error of any tree with at most `leaves` leaves over `members`, by brute
// force (no memo): for tiny inputs only.
double brute_force_error(const Samples &x, const Labels &y, const std::vector<double> &w,
                         const std::vector<size_t> &members, size_t leaves) {
    std::map<size_t, double> per_label;
    double total = 0;
    for (size_t i : members) {
        per_label[y[i]] += w[i];
        total += w[i];
    }
    double majority = 0;
    for (auto [label, weight] : per_label) {
        majority = std::max(majority, weight);
    }
    double best = total - majority;
    for (size_t f = 0; leaves > 1 && f < x[0].size(); f++) {
        std::set<int64_t> values;
        for (size_t i : members) {
            values.insert(x[i][f]);
        }
        for (int64_t threshold : values) {
            std::vector<size_t> left, right;
            for (size_t i : members) {
                (x[i][f] <= threshold ? left : right).push_back(i);
            }
            if (right.empty()) {
                continue;
            }
            for (size_t k_left = 1; k_left < leaves; k_left++) {
                best = std::min(best, brute_force_error(x, y, w, left, k_left) +
                                          brute_force_error(x, y, w, right, leaves - k_left));
            }
        }
    }
    return best;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Votes
// ---------------------------------------------------------------------------------------------

TEST_CASE("vote picks each shape's fastest kernel, ties to the lowest index", "[dispatch][votes]") {
    const CostTable t = {
        {3.0, 1.0, 2.0},
        {1.0, 1.0, 2.0},                  // tie: kernel 0
        {INFINITY, 5.0, 4.0},
        {INFINITY, INFINITY, INFINITY},   // nothing runs: kernel 0
    };
    CHECK(vote(t) == std::vector<size_t>{1, 0, 2, 0});
    CHECK(vote({}).empty());
}

TEST_CASE("vote_among picks the fastest allowed kernel whatever the order of allowed", "[dispatch][votes]") {
    const CostTable t = {
        {3.0, 1.0, 2.0, 2.0},
        {1.0, 4.0, 3.0, 3.0},
        {2.0, 2.0, 9.0, 1.0},
    };
    CHECK(vote_among(t, {3, 2}) == std::vector<size_t>{2, 2, 3});
    CHECK(vote_among(t, {2, 0}) == std::vector<size_t>{2, 0, 0});
    CHECK(vote_among(t, {1, 0}) == std::vector<size_t>{1, 0, 0});  // shape 2: tie, lowest index
    CHECK_THROWS_AS(vote_among(t, {}), std::invalid_argument);
    CHECK_THROWS_AS(vote_among(t, {4}), std::invalid_argument);
}

TEST_CASE("cap_kernels keeps all winners when the cap allows it", "[dispatch][votes]") {
    const CostTable t = {
        {1.0, 2.0, 3.0},
        {3.0, 1.0, 2.0},
        {1.0, 3.0, 2.0},
    };
    CHECK(cap_kernels(t, {}, 2) == std::vector<size_t>{0, 1});  // kernel 2 never wins
    CHECK(cap_kernels(t, {}, 5) == std::vector<size_t>{0, 1});
    CHECK(relative_loss(t, {}, {0, 1}) == Approx(3.0));          // every shape runs its winner
    CHECK(cap_kernels({}, {}, 1).empty());
    CHECK(cap_kernels({{INFINITY, INFINITY}}, {}, 1) == std::vector<size_t>{0});
}

TEST_CASE("cap_kernels drops first the kernel that is almost as good as another everywhere",
          "[dispatch][votes]") {
    // Kernel 1 wins shape 2 by 1% over kernel 0; kernels 0 and 2 win their shapes by 2x.
    const CostTable t = {
        {1.0, 1.01, 2.0},
        {1.0, 1.01, 2.0},
        {1.01, 1.0, 2.0},
        {2.0, 2.0, 1.0},
        {2.0, 2.0, 1.0},
    };
    CHECK(cap_kernels(t, {}, 3) == std::vector<size_t>{0, 1, 2});
    const auto kept = cap_kernels(t, {}, 2);
    CHECK(kept == std::vector<size_t>{0, 2});
    CHECK(relative_loss(t, {}, kept) == Approx(5.01));
    CHECK(vote_among(t, kept) == std::vector<size_t>{0, 0, 0, 2, 2});
    // Cap 1: kernel 0 loses 2x on shapes 3 and 4 (loss 1+1+1.01+2+2); kernel 2 loses 2x on three.
    CHECK(cap_kernels(t, {}, 1) == std::vector<size_t>{0});
}

TEST_CASE("cap_kernels with cap 1 picks the kernel with the least total relative loss", "[dispatch][votes]") {
    SECTION("a generalist that never wins beats the specialists") {
        const CostTable t = {
            {1.0, 3.0, 1.1},
            {3.0, 1.0, 1.1},
            {1.0, 3.0, 1.1},
            {3.0, 1.0, 1.1},
        };
        CHECK(vote(t) == std::vector<size_t>{0, 1, 0, 1});
        CHECK(cap_kernels(t, {}, 1) == std::vector<size_t>{2});
        CHECK(relative_loss(t, {}, {2}) == Approx(4.4));
    }
    SECTION("against brute force on pseudo-random tables") {
        for (uint64_t seed = 1; seed <= 20; seed++) {
            const CostTable t = pseudo_random_table(12, 7, seed);
            std::vector<double> w(12);
            for (size_t s = 0; s < w.size(); s++) {
                w[s] = 1.0 + static_cast<double>((s * seed) % 5);
            }
            CAPTURE(seed);
            CHECK(cap_kernels(t, w, 1) == std::vector<size_t>{best_single_kernel(t, w)});
        }
    }
}

TEST_CASE("cap_kernels respects the cap and never loses to its own greedy start", "[dispatch][votes]") {
    const CostTable t = pseudo_random_table(30, 12, 7);
    const auto winners = cap_kernels(t, {}, 12);
    const double best_possible = relative_loss(t, {}, winners);
    CHECK(best_possible == Approx(30.0));
    for (size_t cap = 1; cap <= 12; cap++) {
        const auto kept = cap_kernels(t, {}, cap);
        CAPTURE(cap);
        CHECK(!kept.empty());
        CHECK(kept.size() <= cap);
        CHECK(std::is_sorted(kept.begin(), kept.end()));
        CHECK(std::adjacent_find(kept.begin(), kept.end()) == kept.end());
        CHECK(relative_loss(t, {}, kept) >= best_possible - 1e-9);
        if (cap >= winners.size()) {
            CHECK(kept == winners);
        }
    }
}

TEST_CASE("cap_kernels keeps every shape runnable when it can", "[dispatch][votes]") {
    // Kernel 0 is the fastest almost everywhere but fails at shape 3; only kernel 1 runs there.
    const CostTable t = {
        {1.0, 2.0, 1.5},
        {1.0, 2.0, 1.5},
        {1.0, 2.0, 1.5},
        {INFINITY, 2.0, INFINITY},
    };
    CHECK(cap_kernels(t, {}, 1) == std::vector<size_t>{1});
    CHECK(cap_kernels(t, {}, 2) == std::vector<size_t>{0, 1});
    CHECK(relative_loss(t, {}, {0}) == INFINITY);
    CHECK(relative_loss(t, {}, {0, 2}) == INFINITY);
}

TEST_CASE("cap_kernels follows the shape weights", "[dispatch][votes]") {
    const CostTable t = {
        {1.0, 2.0},
        {1.0, 2.0},
        {2.0, 1.0},
    };
    CHECK(cap_kernels(t, {}, 1) == std::vector<size_t>{0});
    CHECK(cap_kernels(t, {1.0, 1.0, 5.0}, 1) == std::vector<size_t>{1});
    CHECK(relative_loss(t, {1.0, 1.0, 5.0}, {1}) == Approx(9.0));
}

TEST_CASE("votes reject bad arguments", "[dispatch][votes]") {
    const CostTable t = {{1.0, 2.0}, {2.0, 1.0}};
    CHECK_THROWS_AS(cap_kernels(t, {}, 0), std::invalid_argument);
    CHECK_THROWS_AS(cap_kernels(t, {1.0}, 1), std::invalid_argument);          // one weight, two shapes
    CHECK_THROWS_AS(cap_kernels(t, {1.0, -1.0}, 1), std::invalid_argument);
    CHECK_THROWS_AS(cap_kernels(t, {1.0, NAN}, 1), std::invalid_argument);
    CHECK_THROWS_AS(vote({{1.0, 2.0}, {1.0}}), std::invalid_argument);         // ragged
    CHECK_THROWS_AS(vote({{}}), std::invalid_argument);                        // no kernels
    CHECK_THROWS_AS(vote({{1.0, NAN}}), std::invalid_argument);
    CHECK_THROWS_AS(vote({{1.0, 0.0}}), std::invalid_argument);
    CHECK_THROWS_AS(vote({{1.0, -2.0}}), std::invalid_argument);
    CHECK_THROWS_AS(relative_loss(t, {}, {2}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Decision tree
// ---------------------------------------------------------------------------------------------

TEST_CASE("the tree reproduces a 1-D labeling of three pieces exactly", "[dispatch][tree]") {
    Samples x;
    Labels y;
    runs({{7, 10}, {4, 20}, {7, 5}}, x, y);  // A*10 + B*20 + A*5
    const DecisionTree tree = fit_tree(x, y, {}, 3);
    CHECK(reproduces(tree, x, y));
    CHECK(tree.leaf_count() == 3);
    CHECK(tree.labels_used() == std::set<size_t>{4, 7});
    CHECK(misclassified_weight(tree, x, y, {}) == 0);
    // Thresholds are training values: x <= 10 and x <= 30.
    CHECK(predict(tree, {10}) == 7);
    CHECK(predict(tree, {11}) == 4);
    CHECK(predict(tree, {30}) == 4);
    CHECK(predict(tree, {31}) == 7);
    // Outside the training range: the nearest leaf.
    CHECK(predict(tree, {-100}) == 7);
    CHECK(predict(tree, {1000}) == 7);
    CHECK(collapsed(tree));
}

TEST_CASE("the tree reproduces 1-D labelings of many pieces, on uneven feature values", "[dispatch][tree]") {
    // Power-of-two extents 1..2^15 with five runs.
    Samples x;
    Labels y;
    const Labels pieces = {3, 1, 4, 1, 5};
    const int lengths[] = {2, 4, 3, 1, 6};
    int64_t v = 1;
    for (size_t p = 0; p < pieces.size(); p++) {
        for (int i = 0; i < lengths[p]; i++) {
            x.push_back({v});
            y.push_back(pieces[p]);
            v *= 2;
        }
    }
    const DecisionTree tree = fit_tree(x, y, {}, 5);
    CHECK(reproduces(tree, x, y));
    CHECK(tree.leaf_count() == 5);
    CHECK(tree.labels_used() == std::set<size_t>{1, 3, 4, 5});
    // A gap between training values goes with the value above it: 2 is label 3, 4 is label 1.
    CHECK(predict(tree, {3}) == 1);
    // More leaves allowed than pieces: still exactly the pieces.
    CHECK(fit_tree(x, y, {}, 100).leaf_count() == 5);
}

TEST_CASE("the tree reproduces 2-D rectangular labelings exactly", "[dispatch][tree]") {
    const std::vector<int64_t> extents = {16, 32, 48, 64, 96, 128, 192, 256};
    auto grid = [&](auto label_of, Samples &x, Labels &y) {
        for (int64_t m : extents) {
            for (int64_t n : extents) {
                x.push_back({m, n});
                y.push_back(label_of(m, n));
            }
        }
    };
    SECTION("three rectangles") {
        Samples x;
        Labels y;
        grid([](int64_t m, int64_t n) -> size_t { return m <= 48 ? (n <= 96 ? 0 : 1) : 2; }, x, y);
        const DecisionTree tree = fit_tree(x, y, {}, 3);
        CHECK(reproduces(tree, x, y));
        CHECK(tree.leaf_count() == 3);
        INFO(describe(tree, {"M", "N"}));
        CHECK(predict(tree, {1, 1}) == 0);
        CHECK(predict(tree, {1, 100000}) == 1);
        CHECK(predict(tree, {100000, 1}) == 2);
    }
    SECTION("a guillotine partition into five rectangles") {
        Samples x;
        Labels y;
        grid([](int64_t m, int64_t n) -> size_t {
                 if (n <= 32) {
                     return 3;
                 }
                 if (m <= 64) {
                     return n <= 128 ? 0 : 1;
                 }
                 return m <= 128 ? 2 : 0;
             },
             x, y);
        const DecisionTree tree = fit_tree(x, y, {}, 5);
        CHECK(reproduces(tree, x, y));
        CHECK(tree.leaf_count() <= 5);
        CHECK(collapsed(tree));
    }
    SECTION("a checkerboard, where no first split lowers the misclassification") {
        Samples x;
        Labels y;
        grid([](int64_t m, int64_t n) -> size_t { return (m <= 64) == (n <= 64) ? 0 : 1; }, x, y);
        const DecisionTree tree = fit_tree(x, y, {}, 4);
        CHECK(reproduces(tree, x, y));
        CHECK(tree.leaf_count() == 4);
        CHECK(fit_tree(x, y, {}, 3).leaf_count() <= 3);
    }
}

TEST_CASE("the tree respects the leaf cap with the least weighted error", "[dispatch][tree]") {
    // A*10 B*2 A*10 C*5: two leaves can at best cut before the C run (error 2: the B run).
    Samples x;
    Labels y;
    runs({{0, 10}, {1, 2}, {0, 10}, {2, 5}}, x, y);
    const DecisionTree two = fit_tree(x, y, {}, 2);
    CHECK(two.leaf_count() == 2);
    CHECK(misclassified_weight(two, x, y, {}) == 2);
    CHECK(predict(two, {22}) == 0);
    CHECK(predict(two, {23}) == 2);
    // One leaf: the majority A, error 7.
    const DecisionTree one = fit_tree(x, y, {}, 1);
    CHECK(one.leaf_count() == 1);
    CHECK(predict(one, {11}) == 0);
    CHECK(misclassified_weight(one, x, y, {}) == 7);
    // Four leaves: exact.
    CHECK(misclassified_weight(fit_tree(x, y, {}, 4), x, y, {}) == 0);

    // Alternating labels (12 pieces) under caps 1..12: the cap holds and the error never grows.
    Samples alt_x;
    Labels alt_y;
    for (int p = 0; p < 12; p++) {
        runs({{static_cast<size_t>(p % 3), 3}}, alt_x, alt_y);
    }
    for (size_t i = 0; i < alt_x.size(); i++) {
        alt_x[i][0] = static_cast<int64_t>(i);  // runs() restarts at 1 on each call
    }
    double previous_error = INFINITY;
    for (size_t cap = 1; cap <= 12; cap++) {
        const DecisionTree tree = fit_tree(alt_x, alt_y, {}, cap);
        const double error = misclassified_weight(tree, alt_x, alt_y, {});
        CAPTURE(cap);
        CHECK(tree.leaf_count() <= cap);
        CHECK(error <= previous_error);
        CHECK(collapsed(tree));
        previous_error = error;
    }
    CHECK(previous_error == 0);
}

TEST_CASE("on small inputs the tree has the least error of any tree within the leaf cap", "[dispatch][tree]") {
    uint64_t seed = 12345;
    auto next = [&](uint64_t n) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return (seed >> 33) % n;
    };
    for (int trial = 0; trial < 40; trial++) {
        Samples x;
        Labels y;
        std::vector<double> w;
        const size_t n = 3 + next(5);
        for (size_t i = 0; i < n; i++) {
            x.push_back({static_cast<int64_t>(next(4)), static_cast<int64_t>(next(3))});
            y.push_back(next(3));
            w.push_back(1.0 + static_cast<double>(next(4)));
        }
        std::vector<size_t> all(n);
        for (size_t i = 0; i < n; i++) {
            all[i] = i;
        }
        for (size_t leaves = 1; leaves <= 4; leaves++) {
            const DecisionTree tree = fit_tree(x, y, w, leaves);
            CAPTURE(trial, leaves);
            CHECK(tree.leaf_count() <= leaves);
            CHECK(misclassified_weight(tree, x, y, w) == Approx(brute_force_error(x, y, w, all, leaves)));
            CHECK(collapsed(tree));
        }
    }
}

TEST_CASE("on large inputs (greedy growth) the tree is still exact on simple vote maps", "[dispatch][tree]") {
    SECTION("1-D, 400 values, five pieces") {
        Samples x;
        Labels y;
        runs({{0, 50}, {1, 120}, {2, 30}, {1, 100}, {0, 100}}, x, y);
        const DecisionTree tree = fit_tree(x, y, {}, 5);
        CHECK(reproduces(tree, x, y));
        CHECK(tree.leaf_count() == 5);
        // Three leaves: the best gives up the short piece of label 2 (weight 30).
        const DecisionTree three = fit_tree(x, y, {}, 3);
        CHECK(three.leaf_count() == 3);
        CHECK(misclassified_weight(three, x, y, {}) == 30);
    }
    SECTION("2-D, 24x24: three rectangles and a checkerboard") {
        Samples x;
        Labels rectangles, checkerboard;
        for (int64_t m = 1; m <= 24; m++) {
            for (int64_t n = 1; n <= 24; n++) {
                x.push_back({m * 8, n * 8});
                rectangles.push_back(m <= 10 ? (n <= 7 ? 0 : 1) : 2);
                checkerboard.push_back((m <= 12) == (n <= 12) ? 0 : 1);
            }
        }
        const DecisionTree r = fit_tree(x, rectangles, {}, 3);
        CHECK(reproduces(r, x, rectangles));
        CHECK(r.leaf_count() == 3);
        // No first cut lowers the Gini impurity: the lookahead finds the checkerboard's own lines.
        const DecisionTree c = fit_tree(x, checkerboard, {}, 4);
        CHECK(reproduces(c, x, checkerboard));
        CHECK(c.leaf_count() == 4);
    }
}

TEST_CASE("the tree follows the sample weights", "[dispatch][tree]") {
    SECTION("majority of a single leaf") {
        const Samples x = {{1}, {2}, {3}, {4}};
        const Labels y = {5, 5, 9, 9};
        CHECK(predict(fit_tree(x, y, {}, 1), {1}) == 5);  // tie: the lowest label
        CHECK(predict(fit_tree(x, y, {1, 1, 1, 1.5}, 1), {1}) == 9);
    }
    SECTION("which pieces two leaves keep") {
        Samples x;
        Labels y;
        runs({{0, 4}, {1, 4}, {2, 4}}, x, y);
        std::vector<double> w(12, 1.0);
        for (size_t i = 4; i < 8; i++) {
            w[i] = 10.0;  // B is heavy
        }
        for (size_t i = 8; i < 12; i++) {
            w[i] = 3.0;   // C weighs more than A
        }
        // Best: give up A (weight 4), not C (weight 12).
        const DecisionTree tree = fit_tree(x, y, w, 2);
        CHECK(misclassified_weight(tree, x, y, w) == Approx(4.0));
        CHECK(predict(tree, {1}) == 1);
        CHECK(predict(tree, {12}) == 2);
    }
    SECTION("zero-weight samples do not count") {
        const Samples x = {{1}, {2}, {3}, {4}};
        const Labels y = {0, 1, 0, 0};
        const DecisionTree tree = fit_tree(x, y, {1, 0, 1, 1}, 8);
        CHECK(tree.leaf_count() == 1);
        CHECK(predict(tree, {2}) == 0);
    }
    SECTION("identical features with different labels: the weighted majority") {
        const Samples x = {{1, 1}, {1, 1}, {2, 2}};
        const Labels y = {3, 4, 3};
        const DecisionTree tree = fit_tree(x, y, {1, 2, 1}, 8);
        CHECK(predict(tree, {1, 1}) == 4);
        CHECK(predict(tree, {2, 2}) == 3);
    }
}

TEST_CASE("the tree is deterministic, also under a permutation of the samples", "[dispatch][tree]") {
    Samples x;
    Labels y;
    for (int64_t m = 1; m <= 9; m++) {
        for (int64_t n = 1; n <= 9; n++) {
            x.push_back({m, n});
            y.push_back((m * 7 + n * 3) % 4);  // no simple structure: many ties and a deep tree
        }
    }
    const std::string first = describe(fit_tree(x, y, {}, 6), {"M", "N"});
    CHECK(describe(fit_tree(x, y, {}, 6), {"M", "N"}) == first);
    Samples rx(x.rbegin(), x.rend());
    Labels ry(y.rbegin(), y.rend());
    CHECK(describe(fit_tree(rx, ry, {}, 6), {"M", "N"}) == first);
}

TEST_CASE("describe prints the tree as nested if/else", "[dispatch][tree]") {
    Samples x;
    Labels y;
    runs({{2, 3}, {0, 2}, {1, 4}}, x, y);
    const DecisionTree tree = fit_tree(x, y, {}, 3);
    // Gini's first cut is N <= 5 (left 3+2 mixed, right pure), then N <= 3.
    CHECK(describe(tree, {"N"}) ==
          "if (N <= 5) {\n"
          "    if (N <= 3) {\n"
          "        kernel 2  // weight 3\n"
          "    } else {\n"
          "        kernel 0  // weight 2\n"
          "    }\n"
          "} else {\n"
          "    kernel 1  // weight 4\n"
          "}\n");
    CHECK(describe(tree, {}).find("if (x0 <= 5)") == 0);
}

TEST_CASE("the tree rejects bad arguments", "[dispatch][tree]") {
    const Samples x = {{1}, {2}};
    const Labels y = {0, 1};
    CHECK_THROWS_AS(fit_tree({}, {}, {}, 2), std::invalid_argument);
    CHECK_THROWS_AS(fit_tree(x, y, {}, 0), std::invalid_argument);
    CHECK_THROWS_AS(fit_tree(x, {0}, {}, 2), std::invalid_argument);
    CHECK_THROWS_AS(fit_tree(x, y, {1.0}, 2), std::invalid_argument);
    CHECK_THROWS_AS(fit_tree(x, y, {1.0, -1.0}, 2), std::invalid_argument);
    CHECK_THROWS_AS(fit_tree({{1}, {2, 3}}, y, {}, 2), std::invalid_argument);
    const DecisionTree tree = fit_tree(x, y, {}, 2);
    CHECK_THROWS_AS(predict(tree, {1, 2}), std::invalid_argument);
    CHECK_THROWS_AS(predict(tree, {}), std::invalid_argument);
}

TEST_CASE("votes, cap and tree together reproduce a capped 2-D vote map", "[dispatch]") {
    // Four kernels over a 6x6 grid of (M, N): kernels 0, 1, 2 own bands of M; kernel 3 wins the
    // shapes with N = 256 by 0.1% and loses 3x elsewhere, so cap 3 drops it. Then a tree with at
    // most 3 leaves.
    const std::vector<int64_t> extents = {8, 16, 32, 64, 128, 256};
    Samples x;
    CostTable t;
    for (size_t i = 0; i < extents.size(); i++) {
        for (int64_t n : extents) {
            x.push_back({extents[i], n});
            std::vector<double> row(4, 3.0);
            row[i / 2] = 1.0;
            row[3] = n == 256 ? 0.999 : 3.0;
            t.push_back(row);
        }
    }
    CHECK(cap_kernels(t, {}, 4) == std::vector<size_t>{0, 1, 2, 3});
    const auto kept = cap_kernels(t, {}, 3);
    CHECK(kept == std::vector<size_t>{0, 1, 2});
    const Labels votes = vote_among(t, kept);
    const DecisionTree tree = fit_tree(x, votes, {}, 3);
    CHECK(reproduces(tree, x, votes));
    CHECK(tree.leaf_count() == 3);
    CHECK(tree.labels_used() == std::set<size_t>{0, 1, 2});
    CHECK(predict(tree, {4096, 4096}) == 2);
}

// decide_dispatch's merge: near-ties over the family are merged, but a kernel that only a few
// shapes need (several times faster there) is kept although the family's mean barely moves.
TEST_CASE("the merge keeps a kernel that few shapes need but that is much faster there", "[dispatch]") {
    DispatchProblem p;
    MicroKernel small, large, tie;
    small.cpu.dot = true;
    small.cpu.vector_width = 16;
    large.cpu.vector_width = 16;
    large.cpu.vectors = 4;
    tie.cpu.vector_width = 16;
    tie.cpu.vectors = 3;
    p.candidates = {small, large, tie};
    for (int t = 1; t <= 128; t++) {
        p.shapes.push_back(Shape{{"T", t}});
        p.extents.push_back({64, 16 * t});
        // small: 1.5x faster at T <= 2, 2x slower elsewhere; tie: 1% slower than large everywhere
        // but 1% faster at T >= 100 (a near-tie the merge removes).
        const double base = (double)t;
        p.seconds.push_back({t <= 2 ? base / 1.5 : 2 * base, base, t >= 100 ? 0.99 * base : 1.01 * base});
    }
    p.merge_tolerance = 0.03;
    const Dispatch d = decide_dispatch(p);
    std::set<std::string> kernels;
    for (const DispatchLeaf &l : d.leaves) kernels.insert(l.kernel.to_string());
    CHECK(kernels.count(small.to_string()) == 1);  // 2 of 128 shapes, mean loss 0.8%: kept
    CHECK(kernels.count(tie.to_string()) == 0);    // 1% everywhere: merged away
    CHECK(d.leaves[d.leaf_for({64, 16})].kernel == small);
    CHECK(d.leaves[d.leaf_for({64, 16 * 64})].kernel == large);

    p.max_shape_slowdown = 10.0;  // without the per-shape bound, the mean decides: merged
    const Dispatch merged = decide_dispatch(p);
    CHECK(merged.leaves.size() == 1);
}
