#include "analysis/WindowParams.h"
#include "analysis/DefinitionNodes.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

std::optional<SmallRangeParam> window_param(const Definition &update) {
    struct FindParam : IRVisitor {
        std::optional<SmallRangeParam> found;
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            if (!found) found = small_range_param(op);
        }
    } finder;
    for (const ReductionVariable &rv : update.schedule().rvars()) {
        rv.extent.accept(&finder);
        if (finder.found) return finder.found;
    }
    return std::nullopt;
}

std::optional<std::vector<std::pair<std::string, int64_t>>> window_extents_at(const Definition &update, const SmallRangeParam &param,
                                                                              int64_t value) {
    const Variable *var = param.param.as<Variable>();
    std::vector<std::pair<std::string, int64_t>> extents;
    for (const ReductionVariable &rv : update.schedule().rvars()) {
        const Expr e = simplify(substitute(var->name, make_const(param.param.type(), value), rv.extent));
        const int64_t *c = as_const_int(e);
        if (!c) return std::nullopt;
        extents.emplace_back(rv.var, *c);
    }
    return extents;
}

std::optional<int64_t> update_step_nodes(const Definition &update, const std::function<bool(const std::string &)> &inlined) {
    const DefinitionNodes size = definition_nodes(update, inlined);
    if (size.calls_math || size.gathers) return std::nullopt;
    return size.nodes;
}

}  // namespace diet
