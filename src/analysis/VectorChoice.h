// Which dimension a contraction's vectors run along, when it is not the output's innermost one.
// The micro-kernels vectorize along the host's innermost storage dimension. An output stored with
// a dimension innermost that is shorter than a vector at some shapes of the family (a dense layer
// written o(t, n) with T in [1, 128]) would fill 1 of 16 lanes at T = 1 (and 16 rows measured
// 0.56-0.6x the canonical order, apps/results/cpu/rows_innermost): there the kernel is
// better tiled on a wrapper of the accumulator, stored with a long dimension innermost, and the
// output (with its epilogue) left to the stage rules as a transposing pass over that wrapper.
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"

#include <functional>
#include <vector>

namespace diet {

// Heuristic ("vectors along a full dimension"): for each contraction whose output host is stored
// with a dimension innermost that is shorter than four vectors of `lanes(type)` at some shape
// (among `shapes` and the family's smallest: too short for a register tile's columns), the
// accumulator argument of the host's dimension 1 when that is at least four vectors long at every
// such shape and some operand is a broadcast along it (a dense layer's features, not a batch).
// Also (heuristic "vectors where an operand is dense", VectorChoice.cpp's dense_moved_arg): a
// contraction no operand of which is read densely along the innermost dimension moves its vectors
// to dimension 1 when an operand is contiguous along it, another is a broadcast along it, and it
// fills a vector at every such shape (attention scores with a transposed query; a dense layer
// with both operands transposed). Otherwise outputs whose innermost dimension always fills a
// register tile, updates on a batched output, grouped or deep-tiled contractions and several
// updates are left as they are. (A 2-D update on the output keeps the output as its host: the
// wrapper its tiles fill is stored in the moved order, and the output's two passes read it.)
VectorMoves choose_vector_moves(const FunctionDAG &dag, const ShapeFamily &family, const std::vector<Shape> &shapes,
                                const std::function<int(const Halide::Type &)> &lanes);

}  // namespace diet
