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

}  // namespace diet
