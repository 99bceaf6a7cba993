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

bool update_adds_to_init(const FuncNode &f) {
    if (f.func.updates().size() != 1 || f.func.outputs() != 1 || !f.func.has_pure_definition() || f.func.has_extern_definition()) {
        return false;
    }
    const Definition &u = f.func.update(0);
    if (!u.specializations().empty() || !is_per_point_update(f, u)) return false;
    const Add *add = u.values().at(0).as<Add>();
    if (!add) return false;
    const auto self_at_pure = [&](const Expr &e) {
        const Call *c = e.as<Call>();
        if (!c || c->call_type != Call::Halide || c->name != f.name || c->value_index != 0) return false;
        for (size_t i = 0; i < c->args.size(); i++) {
            if (!is_var_named(c->args[i], f.func.args()[i])) return false;
        }
        return true;
    };
    struct ReadsSelf : IRVisitor {
        std::string name;
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            found |= c->call_type == Call::Halide && c->name == name;
            IRVisitor::visit(c);
        }
    };
    const auto reads_self = [&](const Expr &e) {
        ReadsSelf r;
        r.name = f.name;
        e.accept(&r);
        return r.found;
    };
    return (self_at_pure(add->a) && !reads_self(add->b)) || (self_at_pure(add->b) && !reads_self(add->a));
}

}  // namespace diet
