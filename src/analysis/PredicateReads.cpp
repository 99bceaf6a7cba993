#include "analysis/PredicateReads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

struct LoadsAlong : IRVisitor {
    std::string var;
    bool found = false;
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if (c->call_type != Call::Image && c->call_type != Call::Halide) return;
        for (const Expr &a : c->args) found = found || expr_uses_var(a, var);
    }
};

}  // namespace

bool predicate_loads_along(const Definition &update, const std::string &pure_var) {
    const Expr p = update.predicate();
    if (!p.defined() || is_const_one(p)) return false;
    LoadsAlong v;
    v.var = pure_var;
    substitute_in_all_lets(p).accept(&v);
    return v.found;
}

}  // namespace diet
