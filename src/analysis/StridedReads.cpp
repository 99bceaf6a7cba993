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

bool uses_any(const Expr &e, const std::vector<std::string> &vars) {
    for (const std::string &v : vars) {
        if (expr_uses_var(e, v)) return true;
    }
    return false;
}

struct PlaneSteps : IRVisitor {
    std::vector<std::string> rvars, pure;
    std::string x, y;
    int across = 0;
    bool other = false;  // a read moving with the reduction some other way
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if ((c->call_type != Call::Image && c->call_type != Call::Halide) || c->args.empty()) return;
        bool moves = false;
        for (const Expr &a : c->args) moves = moves || uses_any(a, rvars);
        if (!moves) return;
        bool ok = expr_uses_var(c->args[0], x) && !uses_any(c->args[0], rvars);
        size_t y_arg = 0;  // the first argument after the innermost that reads y (0: none)
        for (size_t i = 1; i < c->args.size(); i++) {
            if (!y_arg && expr_uses_var(c->args[i], y)) y_arg = i;
            if (!uses_any(c->args[i], rvars)) continue;
            if (uses_any(c->args[i], pure) || !y_arg) ok = false;
        }
        if (ok) across++;
        else other = true;
    }
};

}  // namespace

bool steps_across_planes(const Definition &def, const std::vector<std::string> &rvars, const std::vector<std::string> &pure_vars,
                         const std::string &x, const std::string &y) {
    if (rvars.empty()) return false;
    PlaneSteps v;
    v.y = y;
    v.rvars = rvars;
    v.pure = pure_vars;
    v.x = x;
    for (const Expr &e : def.values()) substitute_in_all_lets(e).accept(&v);
    return v.across > 0 && !v.other;
}

bool gathers_along(const Definition &def, const std::string &pure_var) {
    OuterArgReads v;
    v.var = pure_var;
    for (const Expr &e : def.values()) substitute_in_all_lets(e).accept(&v);
    for (const Expr &e : def.args()) substitute_in_all_lets(e).accept(&v);
    return v.found;
}

}  // namespace diet
