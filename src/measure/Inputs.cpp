#include "measure/Inputs.h"
#include "common/Errors.h"

#include <optional>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Shape variables -> constants of the variable's own type (an Int(64) constant in `16 * T` would
// make a Mul of mismatched types).
class Bind : public IRMutator {
public:
    explicit Bind(const Shape &s) : shape(s) {}
    const Shape &shape;
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        auto it = shape.find(op->name);
        return it == shape.end() ? Expr(op) : make_const(op->type, it->second);
    }
};

Expr bind(const Expr &e, const Shape &shape) {
    return simplify(cast<double>(Bind(shape).mutate(e)));
}

std::optional<double> constant_at(const Expr &e, const Shape &shape) {
    if (!e.defined()) return std::nullopt;
    Expr b = bind(e, shape);
    if (const double *f = as_const_float(b)) return *f;
    if (const int64_t *i = as_const_int(b)) return (double)*i;
    if (const uint64_t *u = as_const_uint(b)) return (double)*u;
    return std::nullopt;
}

int64_t extent_at(const Expr &e, const Shape &shape, const std::string &what) {
    std::optional<double> v = constant_at(e, shape);
    user_assert(v) << "Diet: " << what << " is " << e << ", which is not constant at " << ShapeFamily::to_string(shape)
                   << "; measurement needs constant estimates at every shape.\n";
    return (int64_t)*v;
}

}  // namespace

std::vector<ArgSpec> argument_specs(Pipeline p, const Shape &shape) {
    std::vector<ArgSpec> specs;
    for (const Argument &a : p.infer_arguments()) {
        ArgSpec s;
        s.name = a.name;
        s.type = a.type;
        if (a.is_buffer()) {
            s.kind = ArgKind::Input;
            // The extents as the user wrote them (maybe symbolic): compiling a copy at another shape
            // leaves constants in the shared Parameter (see original_estimate).
            Region est = a.argument_estimates.buffer_estimates;
            std::vector<Expr> original = original_extent_estimates(p, a.name);
            for (size_t d = 0; d < original.size() && d < est.size(); d++) {
                if (original[d].defined()) est[d] = Range(est[d].min, original[d]);
            }
            for (int d = 0; d < a.dimensions; d++) {
                bool has = d < (int)est.size() && est[d].min.defined() && est[d].extent.defined();
                user_assert(has) << "Diet: the input buffer " << a.name << " has no estimate for dimension " << d
                                 << ", so the inputs to measure with are unknown. Give it one, e.g. " << a.name
                                 << ".dim(" << d << ").set_estimate(min, extent).\n";
                std::string what = "the estimate of " + a.name + " dimension " + std::to_string(d);
                s.min.push_back(extent_at(est[d].min, shape, what + " (min)"));
                s.extent.push_back(extent_at(est[d].extent, shape, what));
            }
        } else {
            s.kind = ArgKind::Scalar;
            user_assert(!a.type.is_handle())
                << "Diet: cannot measure a pipeline with the handle argument " << a.name << ".\n";
            auto it = shape.find(a.name);
            std::optional<double> v;
            if (it != shape.end()) {
                v = (double)it->second;
            } else if (!(v = constant_at(a.argument_estimates.scalar_estimate, shape))) {
                v = constant_at(a.argument_estimates.scalar_def, shape);
            }
            s.value = v.value_or(0.0);
        }
        specs.push_back(s);
    }
    for (const Func &out : p.outputs()) {
        const Function &f = out.function();
        ArgSpec s;  // the same extents for every tuple element
        s.kind = ArgKind::Output;
        for (const std::string &arg : f.args()) {
            const Bound *found = nullptr;
            for (const Bound &b : f.schedule().estimates()) {
                if (b.var == arg) found = &b;
            }
            user_assert(found && found->min.defined() && found->extent.defined())
                << "Diet: output Func " << f.name() << " has no estimate for dimension " << arg << ".\n";
            std::string what = "the estimate of " + f.name() + "." + arg;
            s.min.push_back(extent_at(found->min, shape, what + " (min)"));
            s.extent.push_back(extent_at(found->extent, shape, what));
        }
        for (const Parameter &buf : f.output_buffers()) {
            s.name = buf.name();
            s.type = buf.type();
            specs.push_back(s);
        }
    }
    return specs;
}

namespace {

class BufferParams : public IRVisitor {
public:
    std::map<std::string, Parameter> params;
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (op->param.defined() && op->param.is_buffer()) params[op->param.name()] = op->param;
    }
    void visit(const Call *op) override {
        if (op->param.defined() && op->param.is_buffer()) params[op->param.name()] = op->param;
        IRVisitor::visit(op);
    }
};

}  // namespace

SavedEstimates::SavedEstimates(const std::vector<Function> &outputs) {
    BufferParams c;
    for (auto &kv : build_environment(outputs)) {
        kv.second.accept(&c);
        for (const ExternFuncArgument &a : kv.second.extern_arguments()) {
            if (a.is_image_param()) c.params[a.image_param.name()] = a.image_param;
        }
    }
    for (auto &kv : c.params) {
        Saved s{kv.second, {}, {}};
        for (int d = 0; d < kv.second.dimensions(); d++) {
            s.min.push_back(kv.second.min_constraint_estimate(d));
            s.extent.push_back(kv.second.extent_constraint_estimate(d));
        }
        saved_.push_back(s);
    }
}

void SavedEstimates::restore() {
    for (Saved &s : saved_) {
        for (size_t d = 0; d < s.min.size(); d++) {
            s.param.set_min_constraint_estimate((int)d, s.min[d]);
            s.param.set_extent_constraint_estimate((int)d, s.extent[d]);
        }
    }
}

}  // namespace diet
