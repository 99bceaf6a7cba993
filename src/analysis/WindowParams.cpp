#include "analysis/WindowParams.h"

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
    struct Count : IRMutator {
        const std::function<bool(const std::string &)> &inlined;
        explicit Count(const std::function<bool(const std::string &)> &i) : inlined(i) {}
        int64_t nodes = 0;
        int depth = 0;
        bool math = false;
        using IRMutator::mutate;
        Expr mutate(const Expr &e) override {
            if (!e.defined()) return e;
            nodes++;
            const Call *c = e.as<Call>();
            math = math || (c && c->call_type == Call::PureExtern);
            if (c && c->call_type == Call::Halide && c->func.defined() && depth < 4 && inlined(c->name)) {
                const Function f(c->func);
                if (f.has_pure_definition() && !f.has_update_definition()) {
                    depth++;
                    for (const Expr &v : f.values()) mutate(v);
                    depth--;
                }
            }
            return IRMutator::mutate(e);
        }
    } count(inlined);
    for (const Expr &e : update.values()) count.mutate(e);
    for (const Expr &e : update.args()) count.mutate(e);
    for (const Expr &e : update.split_predicate()) count.mutate(e);
    if (count.math) return std::nullopt;
    return count.nodes;
}

}  // namespace diet
