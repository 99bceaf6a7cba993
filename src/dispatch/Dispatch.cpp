#include "dispatch/Dispatch.h"
#include "common/Errors.h"

#include "dispatch/DecisionTree.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace diet {

namespace {

bool inside(const DispatchLeaf &l, const std::vector<int64_t> &x) {
    for (size_t d = 0; d < x.size() && d < l.lo.size(); d++) {
        if (x[d] < l.lo[d] || x[d] > l.hi[d]) return false;
    }
    return true;
}

// The leaves of the tree in pre-order, each with the box of extents its path carves out.
void collect_leaves(const DecisionTree &t, int node, std::vector<int64_t> lo, std::vector<int64_t> hi,
                    const std::vector<MicroKernel> &candidates, std::vector<DispatchLeaf> &out) {
    const TreeNode &n = t.nodes[node];
    if (n.leaf) {
        out.push_back({candidates.at(n.label), lo, hi, "", ""});
        return;
    }
    std::vector<int64_t> left_hi = hi, right_lo = lo;
    left_hi[n.feature] = std::min(hi[n.feature], n.threshold);
    right_lo[n.feature] = std::max(lo[n.feature], n.threshold + 1);
    collect_leaves(t, n.left, lo, left_hi, candidates, out);
    collect_leaves(t, n.right, right_lo, hi, candidates, out);
}

}  // namespace

size_t Dispatch::kernel_count() const {
    std::set<std::string> ks;
    for (const auto &l : leaves) ks.insert(l.kernel.to_string());
    return ks.size();
}

size_t Dispatch::leaf_for(const std::vector<int64_t> &extents) const {
    internal_assert(!leaves.empty());
    for (size_t i = 0; i + 1 < leaves.size(); i++) {
        if (inside(leaves[i], extents)) return i;
    }
    return leaves.size() - 1;
}

nlohmann::json dispatch_to_json(const Dispatch &d) {
    nlohmann::json j = nlohmann::json::array();
    for (const DispatchLeaf &l : d.leaves) {
        j.push_back({{"kernel", kernel_to_json(l.kernel)}, {"lo", l.lo}, {"hi", l.hi}, {"covers", l.covers},
                     {"note", l.note}});
    }
    return j;
}

Dispatch dispatch_from_json(const nlohmann::json &j, const std::string &where) {
    Dispatch d;
    user_assert(j.is_array() && !j.empty()) << "Diet: " << where << ": a dispatch must be a non-empty list of leaves\n";
    for (const auto &e : j) {
        DispatchLeaf l;
        try {
            l.kernel = kernel_from_json(e.at("kernel"));
            l.lo = e.at("lo").get<std::vector<int64_t>>();
            l.hi = e.at("hi").get<std::vector<int64_t>>();
            l.covers = e.at("covers").get<std::string>();
            l.note = e.at("note").get<std::string>();
        } catch (const nlohmann::json::exception &x) {
            user_error << "Diet: " << where << ": malformed dispatch leaf " << e.dump() << ": " << x.what() << "\n";
        }
        user_assert(l.lo.size() == l.hi.size())
            << "Diet: " << where << ": a dispatch leaf's bounds disagree in size\n";
        if (!d.leaves.empty()) {
            user_assert(l.lo.size() == d.leaves[0].lo.size())
                << "Diet: " << where << ": dispatch leaves bound different numbers of extents\n";
        }
        d.leaves.push_back(l);
    }
    return d;
}

std::string describe_shapes(const std::vector<Shape> &shapes) {
    if (shapes.empty()) return "no shape of the family";
    std::map<std::string, std::pair<int64_t, int64_t>> range;
    for (const Shape &s : shapes) {
        for (const auto &[v, x] : s) {
            auto it = range.find(v);
            if (it == range.end()) {
                range[v] = {x, x};
            } else {
                it->second.first = std::min(it->second.first, x);
                it->second.second = std::max(it->second.second, x);
            }
        }
    }
    std::ostringstream o;
    bool first = true;
    for (const auto &[v, r] : range) {
        o << (first ? "" : ", ") << v << "=" << r.first;
        if (r.second != r.first) o << ".." << r.second;
        first = false;
    }
    o << " (" << shapes.size() << (shapes.size() == 1 ? " shape)" : " shapes)");
    return o.str();
}

namespace {

// The largest factor by which a shape's best time among `to` exceeds its best among `from`
// (shapes no kernel of `from` runs are skipped; one that only `from` runs is infinitely slower).
double worst_shape_slowdown(const CostTable &seconds, const std::vector<size_t> &from, const std::vector<size_t> &to) {
    double worst = 1.0;
    for (const auto &row : seconds) {
        double a = INFINITY, b = INFINITY;
        for (size_t k : from) a = std::min(a, row[k]);
        for (size_t k : to) b = std::min(b, row[k]);
        if (std::isfinite(a)) worst = std::max(worst, b / a);
    }
    return worst;
}

}  // namespace

Dispatch decide_dispatch(const DispatchProblem &p) {
    internal_assert(!p.shapes.empty() && p.shapes.size() == p.extents.size() && p.seconds.size() == p.shapes.size());
    internal_assert(!p.candidates.empty());
    const std::vector<double> weights(p.shapes.size(), 1.0);
    std::vector<size_t> kept = cap_kernels(p.seconds, weights, std::max<size_t>(1, p.max_kernels));
    // Merge tolerance (a named heuristic): a kept kernel whose removal costs the family less than
    // p.merge_tolerance (0.5% by default) in mean relative time is dropped too, unless some shape
    // would slow down by more than p.max_shape_slowdown. Near-ties between kernels are within
    // measurement noise and only fragment the dispatch into more specializations (code size,
    // compile time).
    while (kept.size() > 1) {
        double base = relative_loss(p.seconds, weights, kept), best_loss = INFINITY;
        size_t drop = 0;
        for (size_t i = 0; i < kept.size(); i++) {
            std::vector<size_t> without = kept;
            without.erase(without.begin() + i);
            if (worst_shape_slowdown(p.seconds, kept, without) > 1.0 + p.max_shape_slowdown) continue;
            double l = relative_loss(p.seconds, weights, without);
            if (l < best_loss) {
                best_loss = l;
                drop = i;
            }
        }
        if (!(best_loss - base <= p.merge_tolerance * (double)p.shapes.size())) break;
        kept.erase(kept.begin() + drop);
    }
    const std::vector<size_t> labels = vote_among(p.seconds, kept.empty() ? std::vector<size_t>{0} : kept);
    // A shape no candidate can run (every time unknown) does not vote.
    std::vector<double> w(p.shapes.size(), 1.0);
    for (size_t s = 0; s < p.shapes.size(); s++) {
        bool any = false;
        for (double t : p.seconds[s]) any |= std::isfinite(t);
        if (!any) w[s] = 0.0;
    }
    DecisionTree tree = fit_tree(p.extents, labels, w, std::max<size_t>(1, p.max_kernels));

    const size_t dims = p.extents[0].size();
    Dispatch d;
    collect_leaves(tree, 0, std::vector<int64_t>(dims, 1), std::vector<int64_t>(dims, kNoUpperBound), p.candidates,
                   d.leaves);
    for (size_t i = 0; i < d.leaves.size(); i++) {
        std::vector<Shape> covered;
        for (size_t s = 0; s < p.shapes.size(); s++) {
            if (d.leaf_for(p.extents[s]) == i) covered.push_back(p.shapes[s]);
        }
        d.leaves[i].covers = describe_shapes(covered);
    }
    return d;
}

void override_shape(Dispatch &d, const std::vector<int64_t> &extents, const MicroKernel &k, const std::string &covers,
                     const std::string &note) {
    d.leaves.insert(d.leaves.begin(), DispatchLeaf{k, extents, extents, covers, note});
}

}  // namespace diet
