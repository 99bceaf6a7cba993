#include "analysis/StridedReads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

struct OuterArgReads : IRVisitor {
    std::string var;
    bool found = false;
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if (c->call_type != Call::Image && c->call_type != Call::Halide) return;
        for (size_t i = 1; i < c->args.size(); i++) found = found || expr_uses_var(c->args[i], var);
    }
};

}  // namespace

bool gathers_along(const Definition &def, const std::string &pure_var) {
    OuterArgReads v;
    v.var = pure_var;
    for (const Expr &e : def.values()) substitute_in_all_lets(e).accept(&v);
    for (const Expr &e : def.args()) substitute_in_all_lets(e).accept(&v);
    return v.found;
}

}  // namespace diet
