// The inline rule: Halide's default for a Func that is cheap to recompute where it is read.
#include "space/rules/RuleContext.h"
#include "analysis/GatherIndex.h"
#include "analysis/Regions.h"

namespace diet {

bool inline_applies(const FunctionDAG &dag, const FuncNode &n) {
    if (n.is_output || n.is_extern || n.has_updates()) return false;
    // Coordinates worth a pass of their own (analysis/GatherIndex.h) are computed, not inlined,
    // even computed from no Func at all (an input wrapper, vacuously: a lens remap's coordinates
    // from x, y and the image's size).
    if (ops_per_point(n) >= kGatherIndexOps && indexes_a_gather(dag, n)) return false;
    return n.pointwise_consumed || n.is_input_wrapper;
}

}  // namespace diet
