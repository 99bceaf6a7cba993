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

// Whether every read of `f` (dims >= 2) by its consumers, in any of their definitions, takes f's
// dimension 1 at exactly the consumer's dimension 0, the one its vectors run along, which no
// other argument uses: per-chunk statistics merged per token, `merge(t) += chunk(rc, t)`; a
// Kuwahara filter's 4 quadrants, st(0, x, y) then st(r, x, y); an inline sum() whose free
// variables came out (s, x, y), read by g(x, y, s). Each
// of f's stages also loops over its dimension 1 (a pure variable of every definition). Vectors
// along f's dimension 1 then load as the consumer's own vectors do (GroupPlan::member_vector_dims).
bool read_along_dim1_at_vectors(const FunctionDAG &dag, const FuncNode &f);

// Whether `host` reads, directly or through pure Funcs that are not input wrappers, a twin of the
// reduction `own` (besides own and the Funcs of own's epilogue chain `chain`): another reduction,
// no output, of as many dimensions, whose updates reduce over domains of the same constant
// extents. A structure tensor's three products each smoothed by the same 5-tap sums, read by
// one eigenvalue; not the energies or a kernel's normalizing sum beside a correlation.
bool reads_twin_reduction(const std::vector<FuncNode> &nodes, const std::map<std::string, int> &index,
                             const FuncNode &host, const std::string &own, const std::vector<std::string> &chain);

}  // namespace diet
