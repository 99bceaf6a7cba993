// Whether a Func's result is summed over by a consumer: a contraction reading it as an operand
// (ds_pw(o, x, y) += wp(rc, o) * act(rc, x, y)), as opposed to a window around each point (a box
// filter's m(x + r.x, y)) or a pointwise read. analysis/FunctionDAG.cpp classify_matmuls uses it
// to admit a weighted sum over inputs as a contraction where its reader materializes it anyway.
#pragma once

#include "analysis/FunctionDAG.h"

#include <map>
#include <string>
#include <vector>

namespace diet {

// Whether some consumer of `f` (among `nodes`, by name through `index`) reads it, in an update, at
// an argument that uses reduction variables and none of the consumer's pure variables.
bool reduced_over_by_a_consumer(const std::vector<FuncNode> &nodes, const std::map<std::string, int> &index,
                                const FuncNode &f);

}  // namespace diet
