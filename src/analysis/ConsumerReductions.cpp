#include "analysis/ConsumerReductions.h"

#include <algorithm>
#include <set>

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

bool read_along_dim1_at_vectors(const FunctionDAG &dag, const FuncNode &f) {
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
            int calls = 0;
            bool other = false;  // a read that is not of the form
            Reads(const std::string &n, const std::vector<std::string> &p) : name(n), pure(p) {}
            using IRVisitor::visit;
            void visit(const Call *op) override {
                if (op->call_type == Call::Halide && op->name == name) {
                    calls++;
                    const Variable *row = op->args.size() >= 2 ? op->args[1].as<Variable>() : nullptr;
                    other |= !row || row->name != pure[0] || expr_uses_var(op->args[0], pure[0]);
                    for (size_t i = 2; i < op->args.size(); i++) other |= expr_uses_var(op->args[i], pure[0]);
                }
                IRVisitor::visit(op);
            }
        } reads(f.name, pure);
        reads.other = false;
        consumer.definition().accept(&reads);
        for (const Definition &u : consumer.updates()) u.accept(&reads);
        if (reads.calls == 0 || reads.other) return false;
    }
    return true;
}

namespace {

// The constant extents of each update's reduction domain, in order (empty where one is not constant).
std::vector<std::vector<int64_t>> reduction_extents(const Function &f) {
    std::vector<std::vector<int64_t>> out;
    for (const Definition &u : f.updates()) {
        out.emplace_back();
        for (const ReductionVariable &rv : u.schedule().rvars()) {
            const Expr e = simplify(rv.extent);
            const int64_t *c = as_const_int(e);
            if (!c) return {};
            out.back().push_back(*c);
        }
    }
    return out;
}

}  // namespace

bool reads_twin_reduction(const std::vector<FuncNode> &nodes, const std::map<std::string, int> &index,
                          const FuncNode &host, const std::string &own, const std::vector<std::string> &chain) {
    const auto own_it = index.find(own);
    if (own_it == index.end()) return false;
    const FuncNode &own_node = nodes[own_it->second];
    const std::vector<std::vector<int64_t>> own_extents = reduction_extents(own_node.func);
    if (own_extents.empty()) return false;
    std::set<std::string> seen(chain.begin(), chain.end());
    seen.insert(own);
    std::vector<const FuncNode *> todo = {&host};
    while (!todo.empty()) {
        const FuncNode *n = todo.back();
        todo.pop_back();
        for (const std::string &p : n->producers) {
            const auto it = index.find(p);
            if (!seen.insert(p).second || it == index.end()) continue;
            const FuncNode &pn = nodes[it->second];
            if (pn.has_updates()) {
                if (!pn.is_output && pn.dims() == own_node.dims() && reduction_extents(pn.func) == own_extents) return true;
            } else if (!pn.is_input_wrapper) {
                todo.push_back(&pn);
            }
        }
    }
    return false;
}

}  // namespace diet
