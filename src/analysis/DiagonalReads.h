// Funcs read on a diagonal: a call that passes the same reduction variable as two of the Func's
// arguments. Halide's inline sum() nested in another makes one: sum(r1, sum(r2, A(r2, r1, i) *
// B(r2, r1, j))) defines the inner sum with one free variable per occurrence of r1,
// inner(v0, i, v1, j) = sum over r2 of A(r2, v0, i) * B(r2, v1, j), which the outer sum reads
// at inner(r1, i, r1, j). Computed over any box of its reader's loops (at root, or per tile of
// the reader's pure dimensions) such a Func computes the square of what is read: 8 x 8 values
// of r1 where 8 are needed. Halide's default (computed where it is read) does not; Diet computes
// it per step of the reader's reduction (space/rules/Planner.cpp).
#pragma once

#include "analysis/FunctionDAG.h"

#include <optional>
#include <string>

namespace diet {

struct DiagonalRead {
    std::string reader;  // the only Func that reads the producer
    std::string rvar;    // the reduction variable passed twice (a variable of the reader's last update)
    std::vector<int> args;  // the producer's arguments it is passed as (at least two)
};

// The diagonal read of `producer`, when it has one reader, read in that reader's last update
// only, and every call there passes one reduction variable of that update as two or more of its
// arguments (the same ones in every call). nullopt otherwise (a read at a box of its reader's
// loops: what every other rule handles).
std::optional<DiagonalRead> diagonal_read(const FunctionDAG &dag, const FuncNode &producer);

}  // namespace diet
