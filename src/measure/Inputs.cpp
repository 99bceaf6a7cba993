#include "measure/Inputs.h"
#include "common/Errors.h"

#include <optional>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

Expr bind(const Expr &e, const Shape &shape) {
    return simplify(cast<double>(ShapeFamily::bind(e, shape)));
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

SavedEstimates::SavedEstimates(const std::vector<Function> &outputs) : outputs_(outputs) {
    restore();  // registers every input's estimates as written (a no-op write when nothing changed)
}

}  // namespace diet
