// A small CART classification tree that maps a shape (integer features such as output extents) to
// the kernel it should run, learned from the per-shape votes (dispatch/Votes.h).
//
// The dispatch code emitted into the binary is this tree written as nested ifs, so it has to be
// small (at most max_leaves leaves), exact where the vote map allows it, and deterministic (the same
// votes always give the same generated code). Pure std code (no Halide) so it can be tested alone.
//
// Split semantics: a split node sends x to its left child when x[feature] <= threshold, else right.
// Thresholds are feature values of training samples: between two consecutive distinct training
// values a < b the threshold is a. Hence a value never seen in training goes with the smallest
// training value if it is below the training range, with the largest if above it (the nearest
// leaf), and with b, the value above it, if it falls inside a gap (a, b).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace diet {

struct TreeNode {
    bool leaf = true;
    size_t label = 0;        // leaves: the kernel to run
    int feature = -1;        // splits: go left when x[feature] <= threshold
    int64_t threshold = 0;
    int left = -1, right = -1;  // splits: indices into DecisionTree::nodes
    double weight = 0;       // training weight that reached this node
};

struct DecisionTree {
    std::vector<TreeNode> nodes;  // nodes[0] is the root; in pre-order (a node before its children)
    size_t num_features = 0;      // predict() wants feature vectors of exactly this size

    size_t leaf_count() const;
    std::set<size_t> labels_used() const;  // the labels of the leaves
};

// Fits a tree with at most max_leaves leaves to samples[i] -> labels[i], each sample counting
// weights[i] (empty: 1 each). The tree minimizes the weighted misclassified weight (what the
// dispatch costs: the weight of shapes that do not run their winner), then the number of leaves:
//  1. Small inputs (product over features of (distinct values)^2/2 up to 20000 regions, and a
//     bounded amount of work): an exact search, by dynamic programming over the boxes a tree can
//     carve out, for the least-error tree within the cap. So any labeling that some tree with at
//     most max_leaves leaves reproduces is reproduced exactly (e.g. a guillotine partition of a
//     2-D vote map into as many rectangles as leaves).
//     Larger inputs: greedy growth by weighted Gini impurity until the leaves are pure or cannot be
//     split (identical features). Gini rather than misclassification to grow, because it is
//     strictly concave: a split that changes no majority still counts, and its best cuts fall on
//     label boundaries, so a piecewise-constant labeling along one axis is grown as exactly its
//     pieces. When no split lowers the Gini impurity at all (a perfectly balanced XOR /
//     checkerboard), the split is chosen by a one-level lookahead (least impurity after splitting
//     each child once more). Greedy growth is exact in 1-D; in 2-D and up a poor first cut can
//     cost leaves that the cap then lacks.
//  2. Prune the grown tree to the subtree with at most max_leaves leaves and the least
//     misclassified weight (exact, by dynamic programming over the grown tree); ties: fewer leaves.
//  3. A split whose two children are leaves with the same label collapses into a leaf.
// Leaf label: the weighted majority of its samples (ties: the lowest label). Ties between splits go
// to the larger Gini decrease, then the lowest feature, then the lowest threshold, so the result is
// deterministic (and does not depend on the order of the samples).
// Throws std::invalid_argument if there are no samples, max_leaves == 0, the sizes disagree, or a
// weight is negative or not finite.
DecisionTree fit_tree(const std::vector<std::vector<int64_t>> &samples, const std::vector<size_t> &labels,
                      const std::vector<double> &weights, size_t max_leaves);

// The label of the leaf that x reaches. Throws std::invalid_argument if x.size() != num_features.
size_t predict(const DecisionTree &tree, const std::vector<int64_t> &x);

// Total weight of the samples that the tree does not give their label (weights empty: 1 each).
double misclassified_weight(const DecisionTree &tree, const std::vector<std::vector<int64_t>> &samples,
                            const std::vector<size_t> &labels, const std::vector<double> &weights);

// The tree as nested if/else text, e.g.
//     if (N <= 64) {
//         kernel 2  // weight 3
//     } else {
//         kernel 0  // weight 5
//     }
// feature_names[f] names feature f; missing names print as x<f>.
std::string describe(const DecisionTree &tree, const std::vector<std::string> &feature_names);

}  // namespace diet
