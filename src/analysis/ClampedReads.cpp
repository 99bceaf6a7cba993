#include "analysis/ClampedReads.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <utility>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// A coordinate whose range does not grow with the reader's region: constant, clamped (a Max or
// Min at its top: Halide's clamp), or free of the reader's pure variables.
bool bounded_coordinate(const Expr &e, const std::vector<std::string> &pure) {
    if (is_const(e) || e.as<Max>() || e.as<Min>()) return true;
    Scope<> vars;
    for (const std::string &v : pure) vars.push(v);
    return !expr_uses_vars(e, vars);
}

struct InputReads : IRVisitor {
    const FunctionDAG *dag = nullptr;
    std::vector<std::string> pure;
    std::vector<std::string> producers;
    bool unclamped = false;
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if (c->call_type == Call::Image) {
            for (const Expr &a : c->args) unclamped |= !bounded_coordinate(a, pure);
        } else if (c->call_type == Call::Halide) {
            // Read at bounded coordinates, the producer's region does not grow with this one's.
            bool bounded = true;
            for (const Expr &a : c->args) bounded = bounded && bounded_coordinate(a, pure);
            if (bounded) return;
            if (dag->has(c->name)) producers.push_back(c->name);
            else unclamped = true;  // a Func outside the analyzed pipeline: unknown
        }
    }
};

// Reads whose coordinates may grow with `growing` (some of the reader's pure variables): an input
// read at one is unclamped; a producer read at one grows along those of its own dimensions.
struct GrowingReads : IRVisitor {
    const FunctionDAG *dag = nullptr;
    std::vector<std::string> growing;
    std::map<std::string, std::set<std::string>> producers;  // producer -> its growing dimensions
    bool unclamped = false;
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if (c->call_type == Call::Image) {
            for (const Expr &a : c->args) unclamped |= !bounded_coordinate(a, growing);
        } else if (c->call_type == Call::Halide) {
            if (!dag->has(c->name)) {
                for (const Expr &a : c->args) unclamped |= !bounded_coordinate(a, growing);
                return;
            }
            const std::vector<std::string> &args = dag->node(c->name).func.args();
            for (size_t i = 0; i < c->args.size() && i < args.size(); i++) {
                if (!bounded_coordinate(c->args[i], growing)) producers[c->name].insert(args[i]);
            }
        }
    }
};

}  // namespace

bool reads_inputs_clamped(const FunctionDAG &dag, const std::string &func) {
    std::map<std::string, bool> memo;
    std::function<bool(const std::string &)> clamped = [&](const std::string &name) -> bool {
        auto it = memo.find(name);
        if (it != memo.end()) return it->second;
        memo[name] = false;  // a cycle (a Func reading itself) is decided by its other reads
        const FuncNode &n = dag.node(name);
        // An output's region is its buffer (a member reading another output past it would fail),
        // an extern stage's what it computes.
        if (n.is_extern || !n.func.has_pure_definition() || (n.is_output && name != func)) return false;
        InputReads reads;
        reads.dag = &dag;
        reads.pure = n.func.args();
        // Lets substituted: an inline reduction's CSE'd coordinate `t` (x + r.x) is no variable
        // free of the pure ones.
        accept_without_lets(n.func.definition(), &reads);
        for (const Definition &u : n.func.updates()) accept_without_lets(u, &reads);
        bool ok = !reads.unclamped;
        for (const std::string &p : reads.producers) {
            if (p != name) ok = ok && clamped(p);
        }
        return memo[name] = ok;
    };
    return dag.has(func) && clamped(func);
}

bool reads_inputs_clamped_along(const FunctionDAG &dag, const std::string &func, const std::string &var, bool producers_may_grow) {
    // Decided per (Func, growing dimensions); a cycle is decided by the other reads.
    std::map<std::pair<std::string, std::set<std::string>>, bool> memo;
    std::function<bool(const std::string &, const std::set<std::string> &)> clamped =
        [&](const std::string &name, const std::set<std::string> &growing) -> bool {
        const auto key = std::make_pair(name, growing);
        auto it = memo.find(key);
        if (it != memo.end()) return it->second;
        memo[key] = false;  // a Func reading itself is decided by its other reads
        const FuncNode &n = dag.node(name);
        if (n.is_extern || !n.func.has_pure_definition() || (n.is_output && name != func)) return memo[key] = false;
        GrowingReads reads;
        reads.dag = &dag;
        reads.growing.assign(growing.begin(), growing.end());
        accept_without_lets(n.func.definition(), &reads);
        for (const Definition &u : n.func.updates()) accept_without_lets(u, &reads);
        bool ok = !reads.unclamped;
        for (const auto &[p, dims] : reads.producers) {
            if (p != name) ok = ok && (producers_may_grow || dag.node(p).is_input_wrapper) && clamped(p, dims);
        }
        return memo[key] = ok;
    };
    return dag.has(func) && clamped(func, {var});
}

}  // namespace diet
