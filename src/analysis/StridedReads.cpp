#include "analysis/StridedReads.h"
#include "analysis/Loads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

Scope<> scope_of(const std::vector<std::string> &vars) {
    Scope<> s;
    for (const std::string &v : vars) s.push(v);
    return s;
}

bool any_arg_uses(const Call *c, const Scope<> &vars) {
    for (const Expr &a : c->args) {
        if (expr_uses_vars(a, vars)) return true;
    }
    return false;
}

}  // namespace

bool steps_across_planes(const Definition &def, const std::vector<std::string> &rvars, const std::vector<std::string> &pure_vars,
                         const std::string &x, const std::string &y) {
    if (rvars.empty()) return false;
    const Scope<> reduction = scope_of(rvars), pure = scope_of(pure_vars);
    int across = 0;
    for (const Expr &value : def.values()) {
        const Expr expanded = substitute_in_all_lets(value);
        for (const Call *c : loads_in(expanded)) {
            if (c->args.empty() || !any_arg_uses(c, reduction)) continue;
            // x innermost, y in an argument before every one the reduction reaches, which no
            // pure variable reaches.
            bool ok = expr_uses_var(c->args[0], x) && !expr_uses_vars(c->args[0], reduction);
            size_t y_arg = 0;
            for (size_t i = 1; i < c->args.size(); i++) {
                if (!y_arg && expr_uses_var(c->args[i], y)) y_arg = i;
                if (!expr_uses_vars(c->args[i], reduction)) continue;
                if (expr_uses_vars(c->args[i], pure) || !y_arg) ok = false;
            }
            if (!ok) return false;  // a read moving with the reduction some other way
            across++;
        }
    }
    return across > 0;
}

bool rows_share_step_loads(const Definition &def, const std::vector<std::string> &rvars, const std::string &x,
                           const std::string &y) {
    if (rvars.empty()) return false;
    const Scope<> reduction = scope_of(rvars);
    int shared = 0;
    for (const Expr &value : def.values()) {
        const Expr expanded = substitute_in_all_lets(value);  // alive while its loads are read
        for (const Call *c : loads_in(expanded)) {
            if (c->args.empty() || !any_arg_uses(c, reduction)) continue;
            bool along_x = false, along_y = false;
            for (const Expr &a : c->args) {
                along_x |= expr_uses_var(a, x);
                along_y |= expr_uses_var(a, y);
            }
            if (along_x && along_y) return false;
            shared += along_x;
        }
    }
    return shared > 0;
}

bool gathers_along(const Definition &def, const std::string &pure_var) {
    std::vector<Expr> exprs = def.values();
    exprs.insert(exprs.end(), def.args().begin(), def.args().end());
    for (const Expr &e : exprs) {
        const Expr expanded = substitute_in_all_lets(e);
        for (const Call *c : loads_in(expanded)) {
            for (size_t i = 1; i < c->args.size(); i++) {
                if (expr_uses_var(c->args[i], pure_var)) return true;
            }
        }
    }
    return false;
}

bool clamped_along(const Definition &def, const std::string &pure_var) {
    struct ClampMovesWith : IRVisitor {
        std::string x;
        bool found = false;
        using IRVisitor::visit;
        void visit(const Min *op) override {
            found |= expr_uses_var(op, x);
            IRVisitor::visit(op);
        }
        void visit(const Max *op) override {
            found |= expr_uses_var(op, x);
            IRVisitor::visit(op);
        }
    };
    std::vector<Expr> exprs = def.values();
    exprs.insert(exprs.end(), def.args().begin(), def.args().end());
    for (const Expr &e : exprs) {
        const Expr expanded = substitute_in_all_lets(e);
        for (const Call *c : loads_in(expanded)) {
            if (c->args.empty()) continue;
            ClampMovesWith clamp;
            clamp.x = pure_var;
            c->args[0].accept(&clamp);
            if (clamp.found) return true;
        }
    }
    return false;
}

}  // namespace diet
