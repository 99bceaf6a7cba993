#include "analysis/PredicateReads.h"
#include "analysis/Loads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

bool predicate_loads_along(const Definition &update, const std::string &pure_var) {
    const Expr p = update.predicate();
    if (!p.defined() || is_const_one(p)) return false;
    const Expr expanded = substitute_in_all_lets(p);
    for (const Call *c : loads_in(expanded)) {
        for (const Expr &a : c->args) {
            if (expr_uses_var(a, pure_var)) return true;
        }
    }
    return false;
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
