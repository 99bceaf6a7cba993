// CART for shape dispatch (see DecisionTree.h for the policy and why each criterion): an exact
// search for the least-error tree on small inputs, else greedy Gini growth to purity; then exact
// pruning to at most max_leaves leaves by weighted misclassification, and collapsing of splits
// whose two leaves agree.
#include "dispatch/DecisionTree.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace diet {

namespace {

// The training set, with labels renumbered 0..C-1 in increasing order of the caller's labels (so
// "lowest label id" and "lowest label" agree).
struct TrainingSet {
    const std::vector<std::vector<int64_t>> &samples;
    std::vector<size_t> label_id;       // per sample
    std::vector<double> weight;         // per sample
    std::vector<size_t> label_of_id;    // caller's label of each id, increasing
    size_t num_features = 0;
    double tolerance = 0;               // gains or errors closer than this are ties
};

TrainingSet checked_training_set(const std::vector<std::vector<int64_t>> &samples,
                                 const std::vector<size_t> &labels, const std::vector<double> &weights) {
    if (samples.empty()) {
        throw std::invalid_argument("fit_tree: no samples");
    }
    if (labels.size() != samples.size()) {
        throw std::invalid_argument("fit_tree: " + std::to_string(labels.size()) + " labels for " +
                                    std::to_string(samples.size()) + " samples");
    }
    if (!weights.empty() && weights.size() != samples.size()) {
        throw std::invalid_argument("fit_tree: " + std::to_string(weights.size()) + " weights for " +
                                    std::to_string(samples.size()) + " samples");
    }
    TrainingSet set{samples, {}, {}, {}, samples[0].size(), 0};
    if (set.num_features > static_cast<size_t>(std::numeric_limits<int>::max())) {
        throw std::invalid_argument("fit_tree: too many features");
    }
    for (const auto &x : samples) {
        if (x.size() != set.num_features) {
            throw std::invalid_argument("fit_tree: samples have different numbers of features");
        }
    }
    set.weight = weights.empty() ? std::vector<double>(samples.size(), 1.0) : weights;
    double total = 0;
    for (double w : set.weight) {
        if (!std::isfinite(w) || w < 0) {
            throw std::invalid_argument("fit_tree: weights must be finite and >= 0, got " + std::to_string(w));
        }
        total += w;
    }
    set.tolerance = 1e-9 * std::max(1.0, total);

    set.label_of_id = labels;
    std::sort(set.label_of_id.begin(), set.label_of_id.end());
    set.label_of_id.erase(std::unique(set.label_of_id.begin(), set.label_of_id.end()), set.label_of_id.end());
    for (size_t label : labels) {
        set.label_id.push_back(std::lower_bound(set.label_of_id.begin(), set.label_of_id.end(), label) -
                               set.label_of_id.begin());
    }
    return set;
}

// Weight of each label id among the samples `members`.
std::vector<double> label_weights(const TrainingSet &set, const std::vector<size_t> &members) {
    std::vector<double> per_label(set.label_of_id.size(), 0.0);
    for (size_t i : members) {
        per_label[set.label_id[i]] += set.weight[i];
    }
    return per_label;
}

// The weighted majority label id (ties: the lowest id).
size_t majority(const std::vector<double> &per_label) {
    return std::max_element(per_label.begin(), per_label.end()) - per_label.begin();
}

double sum(const std::vector<double> &values) {
    double total = 0;
    for (double v : values) {
        total += v;
    }
    return total;
}

// Weighted Gini impurity times the weight: W * (1 - sum_c (w_c / W)^2) = W - sum_c w_c^2 / W.
double weighted_gini(const std::vector<double> &per_label, double total) {
    if (total <= 0) {
        return 0;
    }
    double squares = 0;
    for (double w : per_label) {
        squares += w * w;
    }
    return total - squares / total;
}

bool is_pure(const std::vector<double> &per_label) {
    return std::count_if(per_label.begin(), per_label.end(), [](double w) { return w > 0; }) <= 1;
}

struct Split {
    double gain = 0;        // decrease of the weighted Gini impurity
    int feature = -1;
    int64_t threshold = 0;  // left: x[feature] <= threshold
};

// Every split of `members` between two consecutive distinct values of a feature, in increasing
// (feature, threshold) order. Empty if all members have the same features.
std::vector<Split> all_splits(const TrainingSet &set, const std::vector<size_t> &members,
                              const std::vector<double> &per_label) {
    const double parent = weighted_gini(per_label, sum(per_label));
    std::vector<Split> splits;
    for (size_t f = 0; f < set.num_features; f++) {
        std::vector<size_t> order = members;  // members are increasing, so ties stay in sample order
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return set.samples[a][f] < set.samples[b][f];
        });
        std::vector<double> left(per_label.size(), 0.0), right(per_label.size());
        for (size_t pos = 0; pos + 1 < order.size(); pos++) {
            const size_t i = order[pos];
            left[set.label_id[i]] += set.weight[i];
            const int64_t value = set.samples[i][f];
            if (value == set.samples[order[pos + 1]][f]) {
                continue;  // not a boundary between distinct values
            }
            for (size_t c = 0; c < per_label.size(); c++) {
                right[c] = std::max(0.0, per_label[c] - left[c]);
            }
            const double gain = parent - weighted_gini(left, sum(left)) - weighted_gini(right, sum(right));
            splits.push_back(Split{gain, static_cast<int>(f), value});
        }
    }
    return splits;
}

// The members that go to one side of a split.
std::vector<size_t> side_of(const TrainingSet &set, const std::vector<size_t> &members, const Split &split,
                            bool left) {
    std::vector<size_t> side;
    for (size_t i : members) {
        if ((set.samples[i][split.feature] <= split.threshold) == left) {
            side.push_back(i);
        }
    }
    return side;
}

// The largest gain; ties: the first split (lowest feature, then lowest threshold). splits not empty.
size_t largest_gain(const std::vector<Split> &splits, double tolerance) {
    size_t best = 0;
    for (size_t i = 1; i < splits.size(); i++) {
        if (splits[i].gain > splits[best].gain + tolerance) {
            best = i;
        }
    }
    return best;
}

// Weighted Gini impurity left in `members` after their own best split (no split: their impurity).
double impurity_after_best_split(const TrainingSet &set, const std::vector<size_t> &members) {
    const std::vector<double> per_label = label_weights(set, members);
    const double impurity = weighted_gini(per_label, sum(per_label));
    const std::vector<Split> splits = all_splits(set, members, per_label);
    return splits.empty() ? impurity : impurity - splits[largest_gain(splits, set.tolerance)].gain;
}

// The split of an impure node: the largest Gini decrease, ties to the lowest feature, then the
// lowest threshold. When no split decreases the impurity at all (an XOR pattern: every cut leaves
// both sides with the parent's label mix), look one level further: take the split whose children,
// each split once more, leave the least impurity. Without this the first cut of a checkerboard
// would be the lowest threshold, not the checkerboard's own boundary, and its exact tree would
// need more leaves. Not found if all members have the same features.
std::optional<Split> best_split(const TrainingSet &set, const std::vector<size_t> &members,
                                const std::vector<double> &per_label) {
    const std::vector<Split> splits = all_splits(set, members, per_label);
    if (splits.empty()) {
        return std::nullopt;
    }
    const size_t best = largest_gain(splits, set.tolerance);
    if (splits[best].gain > set.tolerance) {
        return splits[best];
    }
    size_t best_ahead = 0;
    double least_impurity = INFINITY;
    for (size_t i = 0; i < splits.size(); i++) {
        const double impurity = impurity_after_best_split(set, side_of(set, members, splits[i], true)) +
                                impurity_after_best_split(set, side_of(set, members, splits[i], false));
        if (impurity < least_impurity - set.tolerance) {
            least_impurity = impurity;
            best_ahead = i;
        }
    }
    return splits[best_ahead];
}

// A node of the fully grown tree. Children always come after their parent in the vector.
struct GrownNode {
    size_t label_id = 0;           // as a leaf
    double weight = 0;
    double misclassified = 0;      // as a leaf
    bool split = false;
    int feature = -1;
    int64_t threshold = 0;
    size_t left = 0, right = 0;
};

std::vector<size_t> all_samples(const TrainingSet &set) {
    std::vector<size_t> all(set.samples.size());
    for (size_t i = 0; i < all.size(); i++) {
        all[i] = i;
    }
    return all;
}

// Step 1, greedily (inputs too large for ExactSearch): split every impure node by the largest Gini
// decrease until its leaves are pure or cannot be split.
std::vector<GrownNode> grow_greedily(const TrainingSet &set) {
    std::vector<GrownNode> nodes;
    std::vector<std::pair<size_t, std::vector<size_t>>> pending;  // node, its samples (increasing)
    nodes.emplace_back();
    pending.emplace_back(0, all_samples(set));
    while (!pending.empty()) {
        auto [id, members] = std::move(pending.back());
        pending.pop_back();
        const std::vector<double> per_label = label_weights(set, members);
        const double total = sum(per_label);
        const size_t label = majority(per_label);
        nodes[id].label_id = label;
        nodes[id].weight = total;
        nodes[id].misclassified = std::max(0.0, total - per_label[label]);
        if (is_pure(per_label)) {
            continue;
        }
        const std::optional<Split> split = best_split(set, members, per_label);
        if (!split) {
            continue;
        }
        std::vector<size_t> left_members = side_of(set, members, *split, true);
        std::vector<size_t> right_members = side_of(set, members, *split, false);
        nodes[id].split = true;
        nodes[id].feature = split->feature;
        nodes[id].threshold = split->threshold;
        nodes[id].left = nodes.size();
        nodes[id].right = nodes.size() + 1;
        nodes.emplace_back();
        nodes.emplace_back();
        pending.emplace_back(nodes[id].right, std::move(right_members));
        pending.emplace_back(nodes[id].left, std::move(left_members));
    }
    return nodes;
}

// Step 1, exactly, for small inputs: the tree with at most max_leaves leaves and the least
// misclassified weight (ties: fewer leaves, then the larger Gini decrease at the node, then the
// first split in (feature, threshold) order), by dynamic programming over the regions a tree can
// carve out. Greedy Gini growth can choose a
// first cut that costs leaves later (a guillotine partition whose first cut is not the largest Gini
// decrease needs more leaves than it has pieces, and pruning cannot undo that); this search cannot.
// A region is the bounding box of the samples in it, so the states are at most the product over
// features of (distinct values)^2 / 2; the search gives up (std::nullopt) beyond a fixed amount of
// work, counted, not timed, so that the result stays deterministic.
class ExactSearch {
public:
    ExactSearch(const TrainingSet &set, size_t max_leaves) : set_(set), max_leaves_(max_leaves) {}

    std::optional<std::vector<GrownNode>> grow() {
        if (region_bound() > kMaxRegions) {
            return std::nullopt;
        }
        const std::vector<size_t> all = all_samples(set_);
        if (!solve(all)) {
            return std::nullopt;
        }
        std::vector<GrownNode> nodes;
        build(all, max_leaves_, nodes);
        return nodes;
    }

private:
    struct Option {
        double error = 0;
        size_t leaves = 1;
        size_t left_budget = 0;  // 0: a leaf
        size_t right_budget = 0;
        int feature = -1;
        int64_t threshold = 0;
        double gain = 0;         // Gini decrease of the split: prefers the greedy cut among equals
    };
    using Options = std::vector<Option>;  // [k]: the best with at most k leaves, k >= 1

    static constexpr double kMaxRegions = 20000;
    static constexpr size_t kMaxWork = 20'000'000;

    const TrainingSet &set_;
    const size_t max_leaves_;
    std::map<std::vector<int64_t>, Options> memo_;  // by bounding box: min and max of each feature
    size_t work_ = 0;

    // An upper bound on the number of regions: per feature, the intervals of distinct values.
    double region_bound() const {
        double regions = 1;
        for (size_t f = 0; f < set_.num_features; f++) {
            std::set<int64_t> values;
            for (const auto &x : set_.samples) {
                values.insert(x[f]);
            }
            regions *= values.size() * (values.size() + 1) / 2.0;
        }
        return regions;
    }

    std::vector<int64_t> bounding_box(const std::vector<size_t> &members) const {
        std::vector<int64_t> box;
        for (size_t f = 0; f < set_.num_features; f++) {
            int64_t lo = set_.samples[members[0]][f], hi = lo;
            for (size_t i : members) {
                lo = std::min(lo, set_.samples[i][f]);
                hi = std::max(hi, set_.samples[i][f]);
            }
            box.push_back(lo);
            box.push_back(hi);
        }
        return box;
    }

    std::vector<size_t> side(const std::vector<size_t> &members, const Split &cut, bool left) {
        work_ += members.size();
        return side_of(set_, members, cut, left);
    }

    // Less error; then fewer leaves; then a larger Gini decrease at this node (so that among equally
    // good trees the search takes the greedy one); then the earlier candidate.
    bool better(const Option &a, const Option &b) const {
        const double tolerance = set_.tolerance;
        if (a.error != b.error && std::abs(a.error - b.error) > tolerance) {
            return a.error < b.error;
        }
        if (a.leaves != b.leaves) {
            return a.leaves < b.leaves;
        }
        return a.left_budget != 0 && a.gain > b.gain + tolerance;
    }

    // The options of the region of `members`, computed with those of all regions below it.
    // nullptr: over the work limit. (std::map does not move its elements: the pointer stays valid.)
    const Options *solve(const std::vector<size_t> &members) {
        const std::vector<int64_t> box = bounding_box(members);
        if (auto known = memo_.find(box); known != memo_.end()) {
            return &known->second;
        }
        const std::vector<double> per_label = label_weights(set_, members);
        const double total = sum(per_label);
        const Option leaf{std::max(0.0, total - per_label[majority(per_label)]), 1, 0, 0, -1, 0, 0};
        const std::vector<Split> cuts = is_pure(per_label) ? std::vector<Split>{} : all_splits(set_, members, per_label);
        const size_t budget = cuts.empty() ? 1 : std::min(max_leaves_, members.size());
        Options options(budget + 1, leaf);
        work_ += members.size() * (set_.num_features + 1);
        for (const Split &cut : cuts) {
            const Options *l = solve(side(members, cut, true));
            const Options *r = solve(side(members, cut, false));
            if (!l || !r) {
                return nullptr;
            }
            // Budgets beyond a child's row change nothing for it, so only k_left <= l's and
            // k - k_left <= r's are tried; the pass after the loop carries them to larger k.
            const size_t l_max = l->size() - 1, r_max = r->size() - 1;
            for (size_t k = 2; k <= std::min(budget, l_max + r_max); k++) {
                const size_t first = k > r_max ? k - r_max : 1;
                for (size_t k_left = first; k_left <= std::min(l_max, k - 1); k_left++) {
                    const Option &a = (*l)[k_left], &b = (*r)[k - k_left];
                    const Option split{a.error + b.error, a.leaves + b.leaves, k_left, k - k_left,
                                       cut.feature, cut.threshold, cut.gain};
                    if (better(split, options[k])) {
                        options[k] = split;
                    }
                    work_++;
                }
            }
            if (work_ > kMaxWork) {
                return nullptr;
            }
        }
        for (size_t k = 2; k <= budget; k++) {  // at most k leaves: also anything with fewer
            if (better(options[k - 1], options[k])) {
                options[k] = options[k - 1];
            }
        }
        return &memo_.emplace(box, std::move(options)).first->second;
    }

    // Appends the chosen tree for `members` and `budget` to nodes in pre-order (children after
    // their parent, as grow_greedily() makes them).
    void build(const std::vector<size_t> &members, size_t budget, std::vector<GrownNode> &nodes) {
        const Options &options = memo_.at(bounding_box(members));
        const Option option = options[std::min(budget, options.size() - 1)];
        const std::vector<double> per_label = label_weights(set_, members);
        const size_t id = nodes.size();
        nodes.emplace_back();
        nodes[id].label_id = majority(per_label);
        nodes[id].weight = sum(per_label);
        nodes[id].misclassified = std::max(0.0, nodes[id].weight - per_label[nodes[id].label_id]);
        if (option.left_budget == 0) {
            return;
        }
        nodes[id].split = true;
        nodes[id].feature = option.feature;
        nodes[id].threshold = option.threshold;
        nodes[id].left = nodes.size();
        const Split cut{option.gain, option.feature, option.threshold};
        build(side(members, cut, true), option.left_budget, nodes);
        nodes[id].right = nodes.size();
        build(side(members, cut, false), option.right_budget, nodes);
    }
};

// Best pruned subtree of a node for a leaf budget: its misclassified weight, its leaves, and how
// many of the budget its left child gets (0: the node stays a leaf).
struct Choice {
    double error = 0;
    size_t leaves = 1;
    size_t left_budget = 0;
};

// Step 2 (a no-op after ExactSearch, whose tree is already the best one within the cap):
// table[node][k] = the best Choice with at most k leaves, k = 1 .. min(max_leaves, leaves
// of the grown subtree) (a larger budget gives the same choice as the largest stored one).
class Pruning {
public:
    Pruning(const std::vector<GrownNode> &grown, size_t max_leaves, double tolerance) : table_(grown.size()) {
        std::vector<size_t> subtree_leaves(grown.size(), 1);
        for (size_t id = grown.size(); id-- > 0;) {  // children before parents
            const GrownNode &node = grown[id];
            if (node.split) {
                subtree_leaves[id] = subtree_leaves[node.left] + subtree_leaves[node.right];
            }
            const size_t budget = std::min(max_leaves, subtree_leaves[id]);
            std::vector<Choice> &row = table_[id];
            row.resize(budget + 1);
            for (size_t k = 1; k <= budget; k++) {
                Choice best{node.misclassified, 1, 0};
                for (size_t k_left = 1; node.split && k_left < k; k_left++) {
                    const Choice &l = at(node.left, k_left), &r = at(node.right, k - k_left);
                    const Choice split{l.error + r.error, l.leaves + r.leaves, k_left};
                    if (split.error < best.error - tolerance ||
                        (split.error <= best.error + tolerance && split.leaves < best.leaves)) {
                        best = split;
                    }
                }
                row[k] = best;
            }
        }
    }

    // The budget that actually matters for a node (budgets above its grown leaves change nothing).
    size_t clamp(size_t id, size_t budget) const {
        return std::min(budget, table_[id].size() - 1);
    }
    const Choice &at(size_t id, size_t budget) const {
        return table_[id][clamp(id, budget)];
    }

private:
    std::vector<std::vector<Choice>> table_;
};

// Writes the pruned subtree of grown node `id` in pre-order into `out` and returns its index there.
// Step 3 happens here: a split whose two children came out as leaves with the same label collapses.
int emit(const std::vector<GrownNode> &grown, const Pruning &pruning, const TrainingSet &set, size_t id,
         size_t budget, std::vector<TreeNode> &out) {
    budget = pruning.clamp(id, budget);
    const Choice &choice = pruning.at(id, budget);
    const GrownNode &node = grown[id];
    const int me = static_cast<int>(out.size());
    out.emplace_back();
    out[me].weight = node.weight;
    out[me].label = set.label_of_id[node.label_id];
    if (choice.left_budget == 0) {
        return me;
    }
    const int left = emit(grown, pruning, set, node.left, choice.left_budget, out);
    const int right = emit(grown, pruning, set, node.right, budget - choice.left_budget, out);
    if (out[left].leaf && out[right].leaf && out[left].label == out[right].label) {
        out[me].label = out[left].label;  // the children's common label, even if the parent's majority tied
        out.resize(me + 1);
        return me;
    }
    out[me].leaf = false;
    out[me].feature = node.feature;
    out[me].threshold = node.threshold;
    out[me].left = left;
    out[me].right = right;
    return me;
}

void describe_node(const DecisionTree &tree, int id, const std::vector<std::string> &names, int depth,
                   std::ostringstream &text) {
    const std::string indent(4 * depth, ' ');
    const TreeNode &node = tree.nodes[id];
    if (node.leaf) {
        text << indent << "kernel " << node.label << "  // weight " << node.weight << "\n";
        return;
    }
    const std::string name = node.feature < static_cast<int>(names.size()) ? names[node.feature]
                                                                            : "x" + std::to_string(node.feature);
    text << indent << "if (" << name << " <= " << node.threshold << ") {\n";
    describe_node(tree, node.left, names, depth + 1, text);
    text << indent << "} else {\n";
    describe_node(tree, node.right, names, depth + 1, text);
    text << indent << "}\n";
}

}  // namespace

size_t DecisionTree::leaf_count() const {
    return std::count_if(nodes.begin(), nodes.end(), [](const TreeNode &n) { return n.leaf; });
}

std::set<size_t> DecisionTree::labels_used() const {
    std::set<size_t> labels;
    for (const TreeNode &n : nodes) {
        if (n.leaf) {
            labels.insert(n.label);
        }
    }
    return labels;
}

DecisionTree fit_tree(const std::vector<std::vector<int64_t>> &samples, const std::vector<size_t> &labels,
                      const std::vector<double> &weights, size_t max_leaves) {
    if (max_leaves == 0) {
        throw std::invalid_argument("fit_tree: max_leaves must be at least 1");
    }
    const TrainingSet set = checked_training_set(samples, labels, weights);
    std::optional<std::vector<GrownNode>> exact = ExactSearch(set, max_leaves).grow();
    const std::vector<GrownNode> grown = exact ? std::move(*exact) : grow_greedily(set);
    const Pruning pruning(grown, max_leaves, set.tolerance);
    DecisionTree tree;
    tree.num_features = set.num_features;
    emit(grown, pruning, set, 0, max_leaves, tree.nodes);
    return tree;
}

size_t predict(const DecisionTree &tree, const std::vector<int64_t> &x) {
    if (x.size() != tree.num_features) {
        throw std::invalid_argument("predict: " + std::to_string(x.size()) + " features, the tree wants " +
                                    std::to_string(tree.num_features));
    }
    if (tree.nodes.empty()) {
        throw std::invalid_argument("predict: empty tree");
    }
    int id = 0;
    while (!tree.nodes[id].leaf) {
        const TreeNode &node = tree.nodes[id];
        id = x[node.feature] <= node.threshold ? node.left : node.right;
    }
    return tree.nodes[id].label;
}

double misclassified_weight(const DecisionTree &tree, const std::vector<std::vector<int64_t>> &samples,
                            const std::vector<size_t> &labels, const std::vector<double> &weights) {
    if (labels.size() != samples.size() || (!weights.empty() && weights.size() != samples.size())) {
        throw std::invalid_argument("misclassified_weight: samples, labels and weights disagree in size");
    }
    double error = 0;
    for (size_t i = 0; i < samples.size(); i++) {
        if (predict(tree, samples[i]) != labels[i]) {
            error += weights.empty() ? 1.0 : weights[i];
        }
    }
    return error;
}

std::string describe(const DecisionTree &tree, const std::vector<std::string> &feature_names) {
    std::ostringstream text;
    if (!tree.nodes.empty()) {
        describe_node(tree, 0, feature_names, 0, text);
    }
    return text.str();
}

}  // namespace diet
