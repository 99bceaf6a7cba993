// Computed operands of a contraction that only widen what they load (an unpacking of 4-bit
// weights, a dequantization): whether one is worth a pass of its own (FunctionDAG's
// materialize_computed_operands).
#pragma once

#include "analysis/FunctionDAG.h"

namespace diet {

// Heuristic (named, "no widening pass for little reuse"): an operand at least twice as wide as
// what it loads (an unpacking, a dequantization) is materialized only where each of its values is
// reused across more output points than twice its widening. Materialized, it is written and read
// back at its width from a buffer as large as the weights: red-team round 16's Q4_0 GEMV over at
// most 8 tokens wrote a 64 MB int32 copy of 8 MB of packed nibbles per call (208 ms; computed where
// read, 35), where a space-to-depth before a 1x1 convolution over many output channels runs 2x
// faster with its 8-bit input materialized as floats.
constexpr int64_t kReusePerWidening = 2;

// Whether operand `o` of `p` is at least twice as wide as what it loads and each of its values is
// reused across at most kReusePerWidening x that widening output points at the family's largest
// estimates (unknown reuse: false).
bool little_reuse_for_widening(const FunctionDAG &dag, const MatmulPattern &p, const ContractionOperand &o);

}  // namespace diet
