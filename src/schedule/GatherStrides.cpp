#include "schedule/GatherStrides.h"
#include "space/MicroKernel.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The input buffer `f` is the Func of (an ImageParam's "q_im": f(x, y, ...) = q(x, y, ...),
// the same arguments in the same order), or an undefined Parameter.
Parameter input_buffer_of(const Function &f) {
    if (!f.has_pure_definition() || f.has_update_definition() || f.values().size() != 1) return Parameter();
    const Call *c = f.values()[0].as<Call>();
    if (!c || c->call_type != Call::Image || !c->param.defined() || !c->param.is_buffer()) return Parameter();
    const std::vector<std::string> &args = f.args();
    if (c->args.size() != args.size()) return Parameter();
    for (size_t i = 0; i < args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        if (!v || v->name != args[i]) return Parameter();
    }
    return c->param;
}

}  // namespace

std::vector<Expr> gathered_reduction_strides(const FunctionDAG &dag, const MatmulPattern &p) {
    std::vector<Expr> strides;
    for (const ContractionOperand &o : p.operands) {
        if (!gathered_along_reduction(p, o)) continue;
        if (!o.via.empty()) return {};  // read through an inlined Func: its own index arithmetic
        const Parameter buffer = input_buffer_of(dag.node(o.func).func);
        if (!buffer.defined()) return {};
        strides.push_back(Variable::make(Int(32), buffer.name() + ".stride." + std::to_string(o.reduction_arg), buffer));
    }
    return strides;
}

}  // namespace diet
