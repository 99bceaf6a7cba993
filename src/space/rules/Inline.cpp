// The inline rule: Halide's default for a Func that is cheap to recompute where it is read.
#include "space/rules/RuleContext.h"

namespace diet {

bool inline_applies(const FuncNode &n) {
    return !n.is_output && !n.is_extern && !n.has_updates() && (n.pointwise_consumed || n.is_input_wrapper);
}

}  // namespace diet
