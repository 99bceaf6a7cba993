// A contraction's summand as it computes, whatever Funcs the user split it into: the product
// written as a Func of its own (`prod(k, n, m) = x(k, m) * w(k, n); y(n, m) = sum(prod(k, n, m))`),
// an operand read through a transposing or copying Func, a scale folded into a Func. Such pure
// Funcs are substituted into the summand (Halide inlines them anyway: each is read by the
// reduction only), so the recognizer sees the operands they read, and the schedule knows in
// whose definition each operand is called (a wrapper `x.in(f)` must name that Func).
#pragma once

#include "Halide.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace diet {

// Whether a Func only copies another Func or buffer at its own coordinates, in order (an
// input's "_im", `a(_) = A(_)`).
bool is_plain_copy(const Halide::Internal::Function &f);

struct Summand {
    Halide::Expr value;                            // the summand with the transparent Funcs substituted
    // Each call in `value` made inside substituted Funcs -> those Funcs, outermost first (the
    // last one's definition makes the call). Calls acc makes itself are absent.
    std::map<const Halide::Internal::Call *, std::vector<std::string>> via;
    // The calls in `via` made through plain copies only (each substituted Func's value is a call
    // at its own arguments, in order: `a(_) = A(_)`): they read at the arguments the first one is called at.
    std::set<const Halide::Internal::Call *> via_plain_copies;
    std::vector<std::string> inlined;              // the Funcs substituted, outermost first
};

// Whether a pure Func's value is part of the summand's product rather than an operand of it: a
// product of two or more Func calls (with casts, constants, scalar parameters: the summand
// written as a Func), or one call with casts only (a transposition or copy). An input's own
// wrapper "x_im" reads a buffer and stays the operand; so does a scaled or activated operand
// (0.5f * x, max(x, 0)), which the kernel copies once per task rather than recomputing per
// multiply-add.
bool is_transparent_value(const Halide::Expr &value);

// Substitutes into `summand` (called from `acc`) every call to a Func for which `inlinable`
// returns its definition: pure, single-valued, read only by the Func that calls it, with a
// transparent value. Nested Funcs are substituted too, up to a depth of 4.
Summand inline_transparent_calls(const Halide::Expr &summand, const std::string &acc,
                                 const std::function<const Halide::Internal::Function *(const std::string &callee,
                                                                                      const std::string &caller)> &inlinable);

}  // namespace diet
