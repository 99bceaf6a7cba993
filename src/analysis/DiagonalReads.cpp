#include "analysis/DiagonalReads.h"

#include <map>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The calls to `callee` in a definition (values and left-hand arguments).
std::vector<std::vector<Expr>> calls_to(const Definition &def, const std::string &callee) {
    struct Calls : IRVisitor {
        std::string callee;
        std::vector<std::vector<Expr>> args;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Halide && c->name == callee) args.push_back(c->args);
            IRVisitor::visit(c);
        }
    } calls;
    calls.callee = callee;
    for (const Expr &e : def.values()) e.accept(&calls);
    for (const Expr &e : def.args()) e.accept(&calls);
    return calls.args;
}

// The arguments of one call that are exactly the variable `v`.
std::vector<int> positions_of(const std::vector<Expr> &args, const std::string &v) {
    std::vector<int> at;
    for (size_t i = 0; i < args.size(); i++) {
        const Variable *var = args[i].as<Variable>();
        if (var && var->name == v) at.push_back((int)i);
    }
    return at;
}

}  // namespace

std::optional<DiagonalRead> diagonal_read(const FunctionDAG &dag, const FuncNode &producer) {
    if (producer.consumers.size() != 1 || producer.is_output) return std::nullopt;
    const FuncNode &reader = dag.node(*producer.consumers.begin());
    if (!reader.has_updates() || reader.is_extern) return std::nullopt;
    const std::vector<Definition> &updates = reader.func.updates();
    if (!calls_to(reader.func.definition(), producer.name).empty()) return std::nullopt;
    for (size_t u = 0; u + 1 < updates.size(); u++) {
        if (!calls_to(updates[u], producer.name).empty()) return std::nullopt;
    }
    const std::vector<std::vector<Expr>> calls = calls_to(updates.back(), producer.name);
    if (calls.empty()) return std::nullopt;
    for (const ReductionVariable &rv : updates.back().schedule().rvars()) {
        const std::vector<int> at = positions_of(calls.front(), rv.var);
        if (at.size() < 2) continue;
        bool every_call = true;
        for (const std::vector<Expr> &c : calls) every_call &= positions_of(c, rv.var) == at;
        if (every_call) return DiagonalRead{reader.name, rv.var, at};
    }
    return std::nullopt;
}

}  // namespace diet
