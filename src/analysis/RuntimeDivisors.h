// A scalar integer Param that divides a loop-varying value, or takes its remainder (an upsample
// by a run-time factor, in(x / FAC); a polyphase filter's phase, h(k * L + n % L)): x86 has no
// vector integer division, so each lane divides on its own, where a constant divisor is a
// multiply and a shift (and a constant upsample reads dense vectors). Only a Param whose declared
// range holds few values (analysis/ParamRanges.h small_range_param): the schedule then takes one
// specialization per value (schedule/ParamValues.cpp), in which Halide substitutes the value.
#pragma once

#include "Halide.h"
#include "analysis/ParamRanges.h"

#include <functional>
#include <optional>
#include <string>

namespace diet {

// The first such divisor in `f`'s definitions, looking through the definitions of the Funcs it
// calls that `inlined` says are inlined into it.
std::optional<SmallRangeParam> runtime_divisor(const Halide::Internal::Function &f,
                                              const std::function<bool(const std::string &)> &inlined);

}  // namespace diet
