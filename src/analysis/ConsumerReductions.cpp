#include "analysis/ConsumerReductions.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

bool reduced_over_by_a_consumer(const std::vector<FuncNode> &nodes, const std::map<std::string, int> &index,
                                const FuncNode &f) {
    for (const std::string &c : f.consumers) {
        const auto it = index.find(c);
        if (it == index.end()) continue;
        const Function &consumer = nodes[it->second].func;
        for (const Definition &u : consumer.updates()) {
            struct Finder : IRVisitor {
                const std::string &name;
                const std::vector<std::string> &pure;
                const std::vector<ReductionVariable> &rvars;
                bool found = false;
                Finder(const std::string &n, const std::vector<std::string> &p, const std::vector<ReductionVariable> &r)
                    : name(n), pure(p), rvars(r) {}
                using IRVisitor::visit;
                void visit(const Call *op) override {
                    if (op->call_type == Call::Halide && op->name == name) {
                        for (const Expr &a : op->args) {
                            const bool reduced = std::any_of(rvars.begin(), rvars.end(), [&](const ReductionVariable &rv) {
                                return expr_uses_var(a, rv.var);
                            });
                            const bool pointwise = std::any_of(pure.begin(), pure.end(), [&](const std::string &v) {
                                return expr_uses_var(a, v);
                            });
                            found |= reduced && !pointwise;
                        }
                    }
                    IRVisitor::visit(op);
                }
            } finder(f.name, consumer.args(), u.schedule().rvars());
            u.accept(&finder);
            if (finder.found) return true;
        }
    }
    return false;
}

bool reduced_along_dim0_read_along_dim1(const FunctionDAG &dag, const FuncNode &f) {
    if (f.dims() < 2 || f.consumers.empty()) return false;
    const std::string own_row = f.func.args()[1];
    for (const StageNode &s : f.stages) {
        const std::vector<std::string> pure = s.pure_vars();
        if (std::find(pure.begin(), pure.end(), own_row) == pure.end()) return false;
    }
    for (const std::string &c : f.consumers) {
        if (!dag.has(c) || c == f.name) return false;
        const Function &consumer = dag.node(c).func;
        const std::vector<std::string> &pure = consumer.args();
        if (pure.empty()) return false;
        struct Reads : IRVisitor {
            const std::string &name;
            const std::vector<std::string> &pure;
            std::vector<std::string> rvars;
            int calls = 0;
            bool other = false;  // a read that is not of the form
            Reads(const std::string &n, const std::vector<std::string> &p) : name(n), pure(p) {}
            bool uses_any(const Expr &a, const std::vector<std::string> &vars) const {
                return std::any_of(vars.begin(), vars.end(), [&](const std::string &v) { return expr_uses_var(a, v); });
            }
            using IRVisitor::visit;
            void visit(const Call *op) override {
                if (op->call_type == Call::Halide && op->name == name) {
                    calls++;
                    const Variable *row = op->args.size() >= 2 ? op->args[1].as<Variable>() : nullptr;
                    other |= !row || row->name != pure[0] || uses_any(op->args[0], pure) || !uses_any(op->args[0], rvars);
                    for (size_t i = 2; i < op->args.size(); i++) other |= expr_uses_var(op->args[i], pure[0]);
                }
                IRVisitor::visit(op);
            }
        } reads(f.name, pure);
        reads.other = false;
        consumer.definition().accept(&reads);
        for (const Definition &u : consumer.updates()) {
            reads.rvars.clear();
            for (const ReductionVariable &rv : u.schedule().rvars()) reads.rvars.push_back(rv.var);
            u.accept(&reads);
        }
        if (reads.calls == 0 || reads.other) return false;
    }
    return true;
}

}  // namespace diet
