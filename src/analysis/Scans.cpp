#include "analysis/Scans.h"
#include "analysis/Loads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

bool scans_along(const Definition &def, const std::vector<std::string> &args, int d) {
    if (d < 0 || d >= (int)def.args().size() || d >= (int)args.size()) return false;
    const Expr lhs = substitute_in_all_lets(def.args()[d]);
    const Variable *v = lhs.as<Variable>();
    if (v && v->name == args[d]) return false;  // the pure variable: no scan
    if (!loads_in(lhs).empty()) return false;   // a data-dependent index: a scatter
    for (const ReductionVariable &rv : def.schedule().rvars()) {
        if (expr_uses_var(lhs, rv.var)) return true;
    }
    return false;  // a constant index (a fix-up of one point)
}

}  // namespace diet
