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

std::set<std::string> regions_narrowed_by_predicates(const FunctionDAG &dag) {
    std::set<std::string> narrowed;
    const std::vector<FuncNode> &nodes = dag.nodes();
    for (const FuncNode &n : nodes) {
        for (const Definition &u : n.func.updates()) {
            const Expr p = u.predicate();
            if (!p.defined() || is_const_one(p)) continue;
            for (const std::string &producer : n.producers) narrowed.insert(producer);
        }
    }
    // Consumers come after their producers: walk back, so a narrowed Func's producers follow it.
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        if (!narrowed.count(it->name)) continue;
        for (const std::string &producer : it->producers) narrowed.insert(producer);
    }
    for (const FuncNode &n : nodes) {
        if (n.is_output) narrowed.erase(n.name);
    }
    return narrowed;
}

}  // namespace diet
