#include "analysis/PointwiseUpdate.h"
#include "analysis/ContractionOperands.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

bool is_per_point_update(const FuncNode &f, const Definition &def) {
    if (def.args().size() != f.func.args().size()) return false;
    for (size_t i = 0; i < def.args().size(); i++) {
        if (!is_var_named(def.args()[i], f.func.args()[i])) return false;
    }
    struct SelfReads : IRVisitor {
        const FuncNode *f = nullptr;
        bool elsewhere = false;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Halide && c->name == f->name) {
                for (size_t i = 0; i < c->args.size(); i++) elsewhere |= !is_var_named(c->args[i], f->func.args()[i]);
            }
            IRVisitor::visit(c);
        }
    } reads;
    reads.f = &f;
    for (const Expr &v : def.values()) v.accept(&reads);
    // A predicate (RDom::where) reading the Func elsewhere would make the points depend on each other.
    for (const Expr &c : def.split_predicate()) c.accept(&reads);
    return !reads.elsewhere;
}

}  // namespace diet
