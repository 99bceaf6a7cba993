#include "analysis/DivisionReads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// A Div or Mod over an expression that uses one of `pure`, or a Min or Max over one (a boundary
// condition's clamp).
struct DividesOrClampsPureVar : IRVisitor {
    const Scope<> *pure = nullptr;
    bool found = false;
    using IRVisitor::visit;
    void visit(const Div *op) override {
        found = found || expr_uses_vars(op->a, *pure);
        IRVisitor::visit(op);
    }
    void visit(const Mod *op) override {
        found = found || expr_uses_vars(op->a, *pure);
        IRVisitor::visit(op);
    }
    void visit(const Min *op) override {
        found = found || expr_uses_vars(op->a, *pure) || expr_uses_vars(op->b, *pure);
        IRVisitor::visit(op);
    }
    void visit(const Max *op) override {
        found = found || expr_uses_vars(op->a, *pure) || expr_uses_vars(op->b, *pure);
        IRVisitor::visit(op);
    }
};

struct ReadsOf : IRVisitor {
    std::string producer;
    const Scope<> *pure = nullptr;
    bool divided = false;
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if (c->call_type != Call::Halide || c->name != producer) return;
        for (const Expr &a : c->args) {
            DividesOrClampsPureVar d;
            d.pure = pure;
            a.accept(&d);
            divided = divided || d.found;
        }
    }
};

}  // namespace

bool reads_through_division_or_clamp(const FunctionDAG &dag, const std::string &consumer, const std::string &producer) {
    if (!dag.has(consumer)) return false;
    const Function &f = dag.node(consumer).func;
    if (!f.has_pure_definition()) return false;
    Scope<> pure;
    for (const std::string &v : f.args()) pure.push(v);
    ReadsOf reads;
    reads.producer = producer;
    reads.pure = &pure;
    f.definition().accept(&reads);
    for (const Definition &u : f.updates()) u.accept(&reads);
    return reads.divided;
}

}  // namespace diet
