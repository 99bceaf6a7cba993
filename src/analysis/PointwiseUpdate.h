// Updates that are independent passes over the points of their Func: written at the Func's pure
// coordinates and reading the Func only there. Pointwise ones have no reduction
// (f(x, y) += bias(x); f(x, y) = max(f(x, y), 0)); per-point ones may run a reduction inside each
// point (f(i, j) += u(i, s) * v(j, s), a rank-s correction). After a contraction on an output they
// are the output's own passes (analysis/FunctionDAG.cpp), any of their loops' orders legal.
#pragma once

#include "analysis/FunctionDAG.h"

namespace diet {

bool is_per_point_update(const FuncNode &f, const Halide::Internal::Definition &def);

// A Func with a single value, a pure definition and one update `f(v) = f(v) + e` written at its
// pure coordinates, e not reading f: f equals its initial value plus e's reduction, a Func of its
// own (rfactor_all). An output written so (out(j, i) = 0; out(j, i) += a(k, i) * b(j, k)) is then
// computed like any consumer of an accumulator (schedule/ScheduleWriter.h lift_update).
bool update_adds_to_init(const FuncNode &f);

}  // namespace diet
