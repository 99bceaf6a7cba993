// A scalar integer Param that divides a loop-varying value, or takes its remainder (an upsample
// by a run-time factor, in(x / FAC); a polyphase filter's phase, h(k * L + n % L)): x86 has no
// vector integer division, so each lane divides on its own, where a constant divisor is a
// multiply and a shift (and a constant upsample reads dense vectors). Only a divisor computed from
// one Param and constants (FAC, or a window's 2 * R + 1 in a van Herk max filter's `% (2R + 1)`),
// whose declared range holds few values: the schedule then takes one specialization per value
// (schedule/ParamValues.cpp), in which Halide substitutes the value and folds the divisor.
#pragma once

#include "Halide.h"
#include "analysis/ParamRanges.h"

#include <functional>
#include <optional>
#include <string>

namespace diet {

// Values of a divisor's Param specialized on at most (heuristic: the group's code is copied once
// per value). 16 was tried for round 21's max filter (R in [0, 8], 2R + 1 dividing; its scans 1.7x
// Mullapudi2016's time, which takes R = 8 as a constant): 1.2x faster, but its JIT compile went
// from 6 to 114 s, and a sliding argmin's (B in [1, 16]) from 3 to 77-109 s for no gain
// (apps/results/cpu/param_divisors_2026-12-07/). The group's other specializations (row widths,
// tails) multiply with the values.
constexpr int64_t kDivisorRangeValues = kSmallRangeValues;

// The first such divisor in `f`'s definitions, looking through the definitions of the Funcs it
// calls that `inlined` says are inlined into it.
std::optional<SmallRangeParam> runtime_divisor(const Halide::Internal::Function &f,
                                              const std::function<bool(const std::string &)> &inlined);

}  // namespace diet
