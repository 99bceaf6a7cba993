#include "analysis/ChannelSelects.h"

#include <algorithm>
#include <set>
#include <string>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The pure variables compared with a constant anywhere in the visited expressions.
class ComparedVars : public IRVisitor {
public:
    std::set<std::string> names;
    std::vector<Expr> mux_indices;

private:
    using IRVisitor::visit;
    template<typename Cmp>
    void compared(const Cmp *op) {
        IRVisitor::visit(op);
        const Variable *a = op->a.template as<Variable>(), *b = op->b.template as<Variable>();
        if (a && is_const(op->b)) names.insert(a->name);
        if (b && is_const(op->a)) names.insert(b->name);
    }
    void visit(const EQ *op) override { compared(op); }
    void visit(const NE *op) override { compared(op); }
    void visit(const LT *op) override { compared(op); }
    void visit(const LE *op) override { compared(op); }
    void visit(const GT *op) override { compared(op); }
    void visit(const GE *op) override { compared(op); }
    // Halide 14 keeps mux(id, {...}) as an intrinsic until lowering, where it becomes a chain of
    // selects on id == k: every variable of the index is compared with constants there
    // (mux(3 * i + j, {...}), a 3 x 3 matrix's nine entries; red-team round 18's batched inverse).
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->is_intrinsic(Call::mux) && !op->args.empty()) mux_indices.push_back(op->args[0]);
    }
};

}  // namespace

std::vector<int> dims_compared_with_constants(const Function &f) {
    if (!f.has_pure_definition() || f.has_extern_definition()) return {};
    ComparedVars v;
    for (const Expr &e : f.definition().values()) e.accept(&v);
    std::vector<int> dims;
    const std::vector<std::string> args = f.args();
    for (size_t d = 0; d < args.size(); d++) {
        const bool in_mux_index = std::any_of(v.mux_indices.begin(), v.mux_indices.end(),
                                              [&](const Expr &index) { return expr_uses_var(index, args[d]); });
        if (v.names.count(args[d]) || in_mux_index) dims.push_back((int)d);
    }
    return dims;
}

}  // namespace diet
