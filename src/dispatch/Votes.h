// Which kernels a dynamic-shape family keeps, and which of them each training shape should run.
//
// DietCode-style dispatch: every training shape votes for its fastest measured kernel. If the
// winners are more kernels than the binary may hold, the kernels whose loss from being dropped is
// smallest are merged into the others (their shapes move to the best kernel still kept). The loss
// of a kept set is relative, so that a shape that takes 1 ms counts as much as one that takes 1 s:
//
//     loss(kept) = sum over shapes s of weight[s] * (min over k in kept of seconds[s][k])
//                                                 / (min over all kernels k of seconds[s][k])
//
// Pure std code (no Halide), so that the policy can be tested on hand-made tables.
#pragma once

#include <cstddef>
#include <vector>

namespace diet {

// seconds[shape][kernel]: measured run time. INFINITY means unknown or failed; every row has the
// same number (>= 1) of kernels; NaN, zero and negative times are invalid (std::invalid_argument).
using CostTable = std::vector<std::vector<double>>;

// Per shape: the index of its fastest kernel. Ties go to the lowest index, so a shape with no
// finite time at all votes for kernel 0 (give such shapes weight 0 when fitting a tree).
std::vector<size_t> vote(const CostTable &seconds);

// Per shape: the index of its fastest kernel among `allowed` (any order, no duplicates needed).
// Ties go to the lowest kernel index. Throws std::invalid_argument if `allowed` is empty or names
// a kernel outside the table.
std::vector<size_t> vote_among(const CostTable &seconds, const std::vector<size_t> &allowed);

// The kernels kept (sorted indices), at most max_kernels of them:
//  1. start from the winners of vote() at the shapes that have a finite time;
//  2. while there are more than max_kernels, drop the one whose removal increases loss(kept) the
//     least (ties: the lowest index);
//  3. if step 2 dropped anything, improve the set by single swaps (replace one kept kernel by any
//     kernel of the table, winner or not) while a swap lowers the loss. This makes max_kernels = 1
//     pick exactly the kernel with the least total relative loss, and lets a kernel that is a
//     close second everywhere replace two specialists.
// A shape that no kept kernel can run (all INFINITY) outweighs any finite loss: the set keeps
// every shape runnable whenever max_kernels allows it. Shapes with no finite time at all are
// ignored. If no shape has a finite time, the result is {0}; if the table has no shapes, {}.
// shape_weights: each shape's share of the family (>= 0, finite); empty means 1 for every shape.
// Throws std::invalid_argument if max_kernels == 0 or the table or weights are malformed.
std::vector<size_t> cap_kernels(const CostTable &seconds, const std::vector<double> &shape_weights,
                                size_t max_kernels);

// loss(kept) as above (weights as in cap_kernels); INFINITY if a shape with a finite best time and
// a positive weight has no finite time among `kept`. For reports and tests. The minimum possible
// value is the total weight of the shapes that have a finite time (every shape runs its winner).
double relative_loss(const CostTable &seconds, const std::vector<double> &shape_weights,
                     const std::vector<size_t> &kept);

}  // namespace diet
