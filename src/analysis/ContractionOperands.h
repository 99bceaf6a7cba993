// How each operand of a recognized contraction is read (analysis for FunctionDAG's patterns):
// along the output's vector dimension, along the reduction, reused or not; and which output
// dimension the register tile's rows run along. Pure functions of the summand's calls.
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/Summand.h"

#include <string>
#include <vector>

namespace diet {

bool is_var_named(const Halide::Expr &e, const std::string &name);

// One operand of a contraction term: how the call `c` (made in `summand`, over `rvars`, innermost
// first) moves with the output's vector variable and with the reduction; `mapping`: the host's
// dimensions to acc's arguments `acc_args`.
ContractionOperand describe_operand(const Halide::Internal::Call *c, const Summand &summand,
                                    const std::vector<LoopVar> &rvars, const std::string &vector_var,
                                    const std::vector<std::string> &acc_args, const std::vector<int> &mapping);

// Whether the two reduction variables `rvars` (innermost first, constant extents) walk one
// contiguous run of every operand `calls` reads, so that fusing them into one variable (Halide's
// fuse on RVars) keeps every vector of consecutive steps one dense load: each operand reads them
// as `r0 + e0 * r1` in one argument (x(r.x + 8 * r.y, m)), or as r0 and r1 in consecutive
// arguments (ctx(r.x, r.y, m)) with e0 a multiple of `lanes` (a vector never crosses r0's end);
// nowhere else. `reduction_arg` receives, per call, the argument holding r0.
bool reduction_fuses(const std::vector<const Halide::Internal::Call *> &calls, const std::vector<LoopVar> &rvars,
                     int lanes, std::vector<int> &reduction_arg);

// MatmulPattern::row_dim: the first host dimension d >= 1 whose accumulator variable is read by an
// operand that does not move with the vectors, and by no operand that does (so each vector loaded
// is reused across the rows, each broadcast across the vectors). -1 when none qualifies.
int reusing_row_dim(const std::vector<const Halide::Internal::Call *> &calls, const std::vector<std::string> &acc_args,
                    const std::vector<int> &acc_arg_of_host_dim);

}  // namespace diet
