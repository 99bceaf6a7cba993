// Which tile variants a large shape family can reach, without listing its shapes.
//
// A small family's shapes are listed and each tile variant that no shape takes is dropped (each
// variant is one more specialization Halide lowers and LLVM compiles). A family of two shape
// variables over [1, 256] has 65536 shapes: too many to list, and every variant used to stay, so
// a 1x1 convolution over NHWC with three dispatch leaves compiled 30 specializations (132 s). The
// family's extents lie in a box (per kernel dimension, the smallest and largest extent); every
// variant and dispatch leaf is chosen by comparisons of an extent against constants. Cut each
// dimension of the box at those constants: every point of a cell then takes the same variant and
// leaf as the cell's lowest corner, so the corners stand for the whole box.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "dispatch/Dispatch.h"

namespace diet {

// `box`: [lo, hi] per dimension; `cuts[d]`: values v at which a condition `extent_d >= v` (or
// `extent_d <= v - 1`) changes. The lowest corner of every cell; empty when there would be more
// than `max_points` (the caller then keeps every variant).
std::vector<std::vector<int64_t>> cell_corners(const std::vector<std::pair<int64_t, int64_t>> &box,
                                               const std::vector<std::set<int64_t>> &cuts, size_t max_points);

// A kernel choice's box (KernelChoice::family_box) cut wherever a dispatch leaf or a tile variant
// of any leaf's kernel changes (rows along the batch included: ApplySchedule's
// rows_along_batch_variant compares the batch's extent with a tile's rows); empty without a box, or
// with more than 4096 cells (every variant is then kept).
std::vector<std::vector<int64_t>> family_cell_corners(const std::vector<std::pair<int64_t, int64_t>> &box,
                                                      const Dispatch &leaves);

}  // namespace diet
