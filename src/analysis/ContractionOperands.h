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

// MatmulPattern::row_dim: the first host dimension d >= 1 whose accumulator variable is read by an
// operand that does not move with the vectors, and by no operand that does (so each vector loaded
// is reused across the rows, each broadcast across the vectors). -1 when none qualifies.
int reusing_row_dim(const std::vector<const Halide::Internal::Call *> &calls, const std::vector<std::string> &acc_args,
                    const std::vector<int> &acc_arg_of_host_dim);

}  // namespace diet
