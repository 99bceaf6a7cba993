// Shape dispatch of one matmul-like stage: which micro-kernel runs for which output extents.
//
// Every shape of the family votes for its fastest kernel (measured where measured, else predicted),
// the winners are capped (dispatch/Votes.h), and a decision tree over the output's extents
// (dispatch/DecisionTree.h) turns the votes into a few boxes of extents. Each box is a leaf: the
// schedule applies it as a specialize() on the output buffer's actual extents, so a call at any
// shape, inside the tuned range or not, runs a leaf's kernel (outside: the nearest box's).
//
// A Dispatch is also what the tuning log keeps of a tuning run (a "dispatch" line): a rerun with no
// trials applies the recorded decision as it is, which makes the emitted schedule byte-identical.
#pragma once

#include "analysis/ShapeFamily.h"
#include "dispatch/Votes.h"
#include "space/MicroKernel.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace diet {

struct DispatchLeaf {
    MicroKernel kernel;
    // Inclusive bounds on each output extent (one per output dimension the kernel tiles, in the
    // output's dimension order); open ends are 1 and kNoUpperBound.
    std::vector<int64_t> lo, hi;
    std::string covers;  // the family shapes in this box, e.g. "T=1..37 (37 shapes)"
    std::string note;    // predicted and measured times, for the emitted comment
};

constexpr int64_t kNoUpperBound = (int64_t(1) << 31) - 1;

struct Dispatch {
    std::vector<DispatchLeaf> leaves;  // tried in order, the first whose box holds the extents runs
    bool empty() const { return leaves.empty(); }
    size_t kernel_count() const;
    // The leaf an output of these extents runs (first match; the last leaf catches everything).
    size_t leaf_for(const std::vector<int64_t> &extents) const;
};

nlohmann::json dispatch_to_json(const Dispatch &d);
// user_error naming `where` on a malformed object.
Dispatch dispatch_from_json(const nlohmann::json &j, const std::string &where);

// What the decision needs: every voting shape of the family, its output extents, and the time of
// every candidate kernel there.
struct DispatchProblem {
    std::vector<Shape> shapes;
    std::vector<std::vector<int64_t>> extents;  // [shape][output dim]
    CostTable seconds;                          // [shape][candidate]
    std::vector<MicroKernel> candidates;
    size_t max_kernels = 8;
    // A kept kernel whose removal costs the family less than this mean relative time is dropped
    // (see decide_dispatch); larger when the times are predictions only.
    double merge_tolerance = 0.005;
    // ...and only when no single shape would run more than this much slower for it (a named
    // heuristic): a family's mean hides its few small shapes (T = 1..5 of 1..128), where a kernel
    // of their own can be several times faster. Not lower: near-ties that alternate from shape to
    // shape (wave and padding fractions) would fragment the dispatch into many compiled leaves.
    double max_shape_slowdown = 0.25;
};

// Votes, cap, tree; the leaves' `covers` filled in, `note` left to the caller. The boxes of the
// leaves partition all extents (outside the family included).
Dispatch decide_dispatch(const DispatchProblem &p);

// DietCode's verification: a training shape whose dispatched kernel measured more than 10% slower
// than its best measured kernel gets that kernel in a leaf of its own (its exact extents), tried
// before the others.
void override_shape(Dispatch &d, const std::vector<int64_t> &extents, const MicroKernel &k, const std::string &covers,
                     const std::string &note);

// "T=1..37 (37 shapes)" for one variable; per variable ranges otherwise.
std::string describe_shapes(const std::vector<Shape> &shapes);

}  // namespace diet
