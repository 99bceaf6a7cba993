#include "analysis/GatherIndex.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Finds a call to `name` nested inside the arguments of a read of a pipeline input: an image, or
// a Func that only wraps inputs (FuncNode::is_input_wrapper: `inp_im`, a boundary condition).
class ReadAsCoordinate : public IRVisitor {
public:
    ReadAsCoordinate(const FunctionDAG &dag, const std::string &name) : dag_(dag), name_(name) {}
    bool found = false;

private:
    const FunctionDAG &dag_;
    std::string name_;
    int inside_args_ = 0;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->name == name_ && inside_args_ > 0) found = true;
        const bool input = op->call_type == Call::Image ||
                           (op->call_type == Call::Halide && dag_.has(op->name) && dag_.node(op->name).is_input_wrapper);
        if (input) inside_args_++;
        IRVisitor::visit(op);
        if (input) inside_args_--;
    }
};

}  // namespace

bool indexes_a_gather(const FunctionDAG &dag, const FuncNode &n) {
    for (const std::string &c : n.consumers) {
        const FuncNode &cn = dag.node(c);
        if (!cn.func.has_pure_definition()) continue;
        ReadAsCoordinate v(dag, n.name);
        // Definitions hold lets (common subexpressions): a coordinate is often a let's value.
        const auto visit = [&](const Expr &e) { substitute_in_all_lets(e).accept(&v); };
        for (const Expr &e : cn.func.definition().values()) visit(e);
        for (const Definition &u : cn.func.updates()) {
            for (const Expr &e : u.values()) visit(e);
            for (const Expr &e : u.args()) visit(e);
        }
        if (v.found) return true;
    }
    return false;
}

}  // namespace diet
