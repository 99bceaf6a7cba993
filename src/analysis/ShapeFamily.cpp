#include "analysis/ShapeFamily.h"
#include "analysis/FunctionDAG.h"
#include "common/Errors.h"

#include <algorithm>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Every Parameter a pipeline refers to: scalars (as Variables), buffers (as calls and as
// the <name>.extent.0 style Variables), and the outputs' own buffers.
class ParamCollector : public IRVisitor {
public:
    std::map<std::string, Parameter> params;
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (op->param.defined()) params[op->param.name()] = op->param;
    }
    void visit(const Call *op) override {
        if (op->param.defined()) params[op->param.name()] = op->param;
        IRVisitor::visit(op);
    }
};

std::map<std::string, Parameter> all_params(const std::vector<Function> &outputs) {
    ParamCollector c;
    for (auto &kv : build_environment(outputs)) {
        kv.second.accept(&c);
    }
    for (const Function &f : outputs) {
        for (const Parameter &p : f.output_buffers()) c.params[p.name()] = p;
    }
    return c.params;
}

// Free variables of an estimate, each of which must be a scalar parameter.
class FreeVars : public IRVisitor {
public:
    std::map<std::string, Parameter> params;
    std::set<std::string> non_params;
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer()) {
            params[op->name] = op->param;
        } else {
            non_params.insert(op->name);
        }
    }
};

std::vector<int64_t> values_of_param(const Parameter &p, const std::string &used_in) {
    Expr lo = p.min_value(), hi = p.max_value();
    user_assert(lo.defined() && hi.defined())
        << "Diet: " << used_in << " uses the scalar parameter " << p.name()
        << ", which has no range. Give it one (Param::set_range(lo, hi), or Input<int> " << p.name()
        << "{\"" << p.name() << "\", default, lo, hi}) or set HL_DIET_SHAPES=\"" << p.name() << "=lo:hi\".\n";
    std::optional<int64_t> l = constant_value(lo), h = constant_value(hi);
    user_assert(l && h) << "Diet: the range of " << p.name() << " is not constant.\n";
    user_assert(*l <= *h) << "Diet: the range of " << p.name() << " [" << *l << ", " << *h << "] is empty.\n";
    // Unsigned: *h - *l overflows int64 for a 64-bit parameter's full range.
    user_assert((uint64_t)*h - (uint64_t)*l < 10000000)
        << "Diet: the range of " << p.name() << " [" << *l << ", " << *h
        << "] is too large to tune; narrow it or set HL_DIET_SHAPES.\n";
    std::vector<int64_t> v;
    for (int64_t x = *l;; x++) {
        v.push_back(x);
        if (x == *h) break;
    }
    return v;
}

struct RememberedEstimates {
    Parameter param;
    std::vector<Expr> min, extent;
};

std::mutex &registry_mutex() {
    static std::mutex m;
    return m;
}

std::vector<RememberedEstimates> &registry() {
    static std::vector<RememberedEstimates> r;
    return r;
}

const RememberedEstimates &remember(const Parameter &p) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    for (const auto &r : registry()) {
        if (r.param.same_as(p)) return r;
    }
    RememberedEstimates r{p, {}, {}};
    for (int d = 0; d < p.dimensions(); d++) {
        r.min.push_back(p.min_constraint_estimate(d));
        r.extent.push_back(p.extent_constraint_estimate(d));
    }
    registry().push_back(r);
    return registry().back();
}

}  // namespace

std::pair<Expr, Expr> original_estimate(const Parameter &p, int dim) {
    const RememberedEstimates &r = remember(p);
    internal_assert(dim >= 0 && dim < (int)r.min.size());
    return {r.min[dim], r.extent[dim]};
}

void restore_original_estimates(const std::vector<Function> &outputs) {
    for (auto &kv : all_params(outputs)) {
        Parameter p = kv.second;
        if (!p.is_buffer()) continue;
        for (int d = 0; d < p.dimensions(); d++) {
            auto [min, extent] = original_estimate(p, d);
            p.set_min_constraint_estimate(d, min);
            p.set_extent_constraint_estimate(d, extent);
        }
    }
}

std::vector<Expr> original_extent_estimates(const Pipeline &p, const std::string &name) {
    std::vector<Function> outputs;
    for (const Func &f : p.outputs()) outputs.push_back(f.function());
    std::vector<Expr> extents;
    for (auto &kv : all_params(outputs)) {
        if (!kv.second.is_buffer() || kv.first != name) continue;
        for (int d = 0; d < kv.second.dimensions(); d++) extents.push_back(original_estimate(kv.second, d).second);
    }
    return extents;
}

uint64_t ShapeFamily::size() const {
    uint64_t n = 1;
    for (const auto &v : vars) n *= v.values.size();
    return n;
}

Shape ShapeFamily::representative() const {
    Shape s;
    for (const auto &v : vars) s[v.name] = v.representative;
    return s;
}

namespace {
// Replaces shape variables by constants of the variable's own type.
class BindShape : public IRMutator {
public:
    explicit BindShape(const Shape &s) : shape(s) {}
    const Shape &shape;
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        auto it = shape.find(op->name);
        return it == shape.end() ? op : make_const(op->type, it->second);
    }
};

// `buf.extent.d` / `buf.min.d` of an input buffer parameter -> the user's estimate of it.
class BindInputEstimates : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (!op->param.defined() || !op->param.is_buffer()) return op;
        for (const std::string field : {".extent.", ".min."}) {
            const std::string prefix = op->param.name() + field;
            if (op->name.rfind(prefix, 0) != 0) continue;
            const int dim = std::atoi(op->name.c_str() + prefix.size());
            if (dim < 0 || dim >= op->param.dimensions()) return op;
            auto [min, extent] = original_estimate(op->param, dim);
            const Expr e = field == std::string(".min.") ? min : extent;
            return e.defined() ? cast(op->type, e) : Expr(op);
        }
        return op;
    }
};

}  // namespace

std::optional<int64_t> ShapeFamily::evaluate_pipeline_expr(const Expr &e, const Shape &s) {
    return constant_value(bind_pipeline_expr(e, s));
}

Expr ShapeFamily::bind_pipeline_expr(const Expr &e, const Shape &s) {
    return bind(BindInputEstimates().mutate(e), s);
}

Expr ShapeFamily::bind(const Expr &e, const Shape &s) {
    return BindShape(s).mutate(e);
}

int64_t ShapeFamily::evaluate(const Expr &e, const Shape &s) {
    std::optional<int64_t> c = constant_value(bind(e, s));
    internal_assert(c) << "Diet: " << e << " is not constant at " << to_string(s) << "\n";
    return *c;
}

std::string ShapeFamily::to_string(const Shape &s) {
    std::ostringstream o;
    bool first = true;
    for (const auto &[name, value] : s) {
        o << (first ? "" : ",") << name << "=" << value;
        first = false;
    }
    return first ? std::string("(fixed shape)") : o.str();
}

std::pair<int64_t, int64_t> ShapeFamily::range_of(const Expr &e, const std::vector<Shape> &shapes) const {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const Shape &s : shapes) {
        int64_t v = evaluate(e, s);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return {lo, hi};
}

std::vector<Shape> ShapeFamily::training_shapes(const Options &opts) const {
    if (opts.training.empty()) return training_shapes(opts.samples, opts.seed);
    std::map<std::string, const ShapeVarSpec *> given;
    for (const ShapeVarSpec &s : opts.training) given[s.name] = &s;
    std::vector<Shape> out{Shape{}};
    for (const ShapeVar &v : vars) {
        auto it = given.find(v.name);
        user_assert(it != given.end()) << "Diet: HL_DIET_TRAINING gives no values for the shape variable " << v.name
                                       << "; it must name every variable of the family.\n";
        std::vector<Shape> next;
        for (int64_t x : it->second->values) {
            user_assert(std::binary_search(v.values.begin(), v.values.end(), x))
                << "Diet: HL_DIET_TRAINING value " << v.name << "=" << x << " is not in the shape family ("
                << v.values.front() << ".." << v.values.back() << ").\n";
            for (const Shape &s : out) {
                Shape t = s;
                t[v.name] = x;
                next.push_back(t);
            }
        }
        out = next;
        given.erase(it);
    }
    user_assert(given.empty()) << "Diet: HL_DIET_TRAINING names " << given.begin()->first
                               << ", which is not a shape variable of the pipeline.\n";
    return out;
}

std::vector<Shape> ShapeFamily::training_shapes(int count, uint64_t seed) const {
    std::vector<Shape> out;
    if (vars.empty()) return {Shape{}};
    if (size() <= (uint64_t)count) {
        // The whole family: enumerate the cartesian product.
        out.push_back({});
        for (const auto &v : vars) {
            std::vector<Shape> next;
            for (const Shape &s : out) {
                for (int64_t x : v.values) {
                    Shape t = s;
                    t[v.name] = x;
                    next.push_back(t);
                }
            }
            out = next;
        }
        return out;
    }
    auto spread = [](const ShapeVar &v, int i, int n) {
        size_t idx = n <= 1 ? v.values.size() - 1 : (size_t)((double)i * (v.values.size() - 1) / (n - 1) + 0.5);
        return v.values[idx];
    };
    if (vars.size() == 1) {
        // Evenly spaced over the values, both ends included.
        for (int i = 0; i < count; i++) {
            Shape s{{vars[0].name, spread(vars[0], i, count)}};
            if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
        }
        return out;
    }
    // Several variables: the all-smallest and all-largest corners, then a stratified random
    // design (each variable's values cut into `count` strata, shuffled per variable).
    std::mt19937_64 rng(seed);
    Shape lo, hi;
    for (const auto &v : vars) {
        lo[v.name] = v.values.front();
        hi[v.name] = v.values.back();
    }
    out.push_back(lo);
    if (count > 1) out.push_back(hi);
    std::map<std::string, std::vector<int>> strata;
    for (const auto &v : vars) {
        std::vector<int> idx(count);
        for (int i = 0; i < count; i++) idx[i] = i;
        std::shuffle(idx.begin(), idx.end(), rng);
        strata[v.name] = idx;
    }
    for (int i = 0; (int)out.size() < count && i < count; i++) {
        Shape s;
        for (const auto &v : vars) s[v.name] = spread(v, strata[v.name][i], count);
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    return out;
}

namespace {
// An estimate's value at a shape; a user error where it is not a constant there (it overflows
// the 32-bit arithmetic it is written in, e.g. 32768 * T at T = 65536), instead of the internal
// error of ShapeFamily::evaluate later on.
int64_t estimate_at(const Expr &e, const Shape &s, const std::string &what) {
    std::optional<int64_t> c = constant_value(ShapeFamily::bind(e, s));
    user_assert(c) << "Diet: " << what << " (" << e << ") overflows its " << e.type() << " arithmetic at "
                   << ShapeFamily::to_string(s) << "; extents must lie in [1, 2^31).\n";
    return *c;
}
}  // namespace

namespace {
// The values of a shape variable at which an output whose estimated extent depends on that
// variable alone is empty (out.set_estimate(x, 0, T - 1) with T from 1): an empty output computes
// nothing, so the family is scheduled without them, with one warning, and the library still runs
// there. Where every value would go, an extent is negative somewhere (no buffer has that shape),
// or an extent depends on several variables, the check below refuses the family with its message.
void drop_empty_output_values(ShapeVar &v, const std::vector<OutputEstimate> &outputs) {
    for (const OutputEstimate &oe : outputs) {
        for (size_t d = 0; d < oe.vars.size(); d++) {
            FreeVars fv;
            oe.extent[d].accept(&fv);
            if (fv.params.size() != 1 || !fv.params.count(v.name)) continue;
            std::vector<int64_t> kept;
            bool negative = false;
            for (int64_t x : v.values) {
                const std::optional<int64_t> e = constant_value(ShapeFamily::bind(oe.extent[d], {{v.name, x}}));
                if (!e || *e >= 1) kept.push_back(x);
                negative |= e && *e < 0;
            }
            if (negative || kept.empty() || kept.size() == v.values.size()) continue;
            std::cerr << "[diet] warning: the estimated extent of " << oe.func << "." << oe.vars[d] << " (estimate "
                      << oe.extent[d] << ") is below 1 at " << (v.values.size() - kept.size()) << " value(s) of "
                      << v.name << " from " << v.values.front() << "; the family is scheduled for " << v.name << " in ["
                      << kept.front() << ", " << kept.back() << "] (an empty output computes nothing; the library "
                      << "still runs there).\n";
            v.values = kept;
        }
    }
}
}  // namespace

namespace {
// Every estimate a constant: the family is one shape, scheduled like Halide's own autoschedulers
// schedule (tiles of that shape's size, ShiftInwards), so an output smaller than a tile fails
// Halide's bounds checks at run time, as theirs do. Said once, with the ranged Params the
// pipeline reads but no estimate uses (the likely intent: sizes that vary at run time).
void note_single_shape(const ShapeFamily &fam, const std::vector<Function> &outputs) {
    if (!fam.vars.empty()) return;
    std::ostringstream sizes;
    for (const OutputEstimate &oe : fam.outputs) {
        sizes << (&oe == &fam.outputs.front() ? "" : ", ") << oe.func << " ";
        for (size_t d = 0; d < oe.extent.size(); d++) sizes << (d ? " x " : "") << oe.extent[d];
    }
    std::ostringstream ranged;
    for (const auto &[name, p] : all_params(outputs)) {
        if (!p.is_buffer() && (p.type().is_int() || p.type().is_uint()) && p.min_value().defined() &&
            p.max_value().defined()) {
            ranged << (ranged.tellp() > 0 ? ", " : "") << name;
        }
    }
    std::cerr << "[diet] note: every estimate is a constant, so the family is one shape (" << sizes.str()
              << "): its schedule, like Halide's other autoschedulers', may fail Halide's bounds checks "
              << "on outputs smaller than its tiles. For one library tuned and correct over a range of "
              << "sizes, write the outputs' estimates with ranged Params (out.set_estimates({{0, W}, {0, H}}) "
              << "with W.set_range(1, 1024))"
              << (ranged.tellp() > 0 ? "; the ranged Params " + ranged.str() + " appear in no estimate" : std::string())
              << ".\n";
}
}  // namespace

ShapeFamily read_shape_family(const std::vector<Function> &outputs, const Options &opts) {
    ShapeFamily fam;
    std::map<std::string, Parameter> used;  // scalar params appearing in estimates
    auto collect = [&](const Expr &e, const std::string &where) {
        FreeVars fv;
        e.accept(&fv);
        user_assert(fv.non_params.empty())
            << "Diet: " << where << " is " << e << ", which refers to " << *fv.non_params.begin()
            << "; estimates may only use constants and scalar parameters.\n";
        for (auto &kv : fv.params) {
            user_assert(kv.second.type().is_int() || kv.second.type().is_uint())
                << "Diet: " << where << " uses the parameter " << kv.first << " of type " << kv.second.type()
                << "; shape parameters must be integers.\n";
            used.emplace(kv.first, kv.second);
        }
    };

    for (const Function &f : outputs) {
        OutputEstimate oe;
        oe.func = f.name();
        for (const std::string &arg : f.args()) {
            const Bound *found = nullptr;
            for (const Bound &b : f.schedule().estimates()) {
                if (b.var == arg) found = &b;  // the last one wins, as in Halide's own schedulers
            }
            user_assert(found && found->min.defined() && found->extent.defined())
                << "Diet: output Func " << f.name() << " has no estimate for dimension " << arg
                << ". Add estimates in the generator, e.g. " << f.name() << ".set_estimates({{0, 1024}, {0, 16 * T}})"
                << " (or " << f.name() << ".set_estimate(" << arg << ", min, extent)).\n";
            collect(found->min, "the estimate min of " + f.name() + "." + arg);
            collect(found->extent, "the estimate extent of " + f.name() + "." + arg);
            oe.vars.push_back(arg);
            oe.min.push_back(found->min);
            oe.extent.push_back(found->extent);
        }
        fam.outputs.push_back(oe);
    }
    for (auto &kv : all_params(outputs)) {
        const Parameter &p = kv.second;
        if (!p.is_buffer()) continue;
        for (int d = 0; d < p.dimensions(); d++) {
            std::string where = "the estimate of buffer " + p.name() + " dimension " + std::to_string(d);
            auto [min, extent] = original_estimate(p, d);
            if (min.defined()) collect(min, where + " (min)");
            if (extent.defined()) collect(extent, where);
        }
    }

    std::map<std::string, const ShapeVarSpec *> overrides;
    for (const ShapeVarSpec &s : opts.shapes) {
        if (!used.count(s.name)) {
            std::ostringstream names;
            for (auto &kv : used) names << " " << kv.first;
            user_error << "Diet: HL_DIET_SHAPES names " << s.name
                       << ", but no estimate of the pipeline uses a parameter of that name (estimates use:"
                       << (used.empty() ? std::string(" none") : names.str()) << ").\n";
        }
        overrides[s.name] = &s;
    }
    for (auto &[name, p] : used) {
        ShapeVar v;
        v.name = name;
        v.values = overrides.count(name) ? overrides[name]->values
                                         : values_of_param(p, "an estimate of the pipeline");
        for (int64_t x : v.values) {
            user_assert(p.type().can_represent(x))
                << "Diet: HL_DIET_SHAPES gives " << name << "=" << x << ", which does not fit the parameter's type "
                << p.type() << ".\n";
        }
        drop_empty_output_values(v, fam.outputs);
        v.representative = v.values.back();
        if (p.estimate().defined()) {
            if (std::optional<int64_t> e = constant_value(p.estimate())) {
                if (std::binary_search(v.values.begin(), v.values.end(), *e)) {
                    v.representative = *e;
                } else if (!overrides.count(name)) {
                    user_error << "Diet: the estimate of " << name << " (" << *e << ") is outside its range ["
                               << v.values.front() << ", " << v.values.back() << "]; make the estimate a value "
                               << "of the range (Param::set_estimate, Input<int>'s default) or widen the range.\n";
                } else {
                    std::cerr << "[diet] note: the estimate of " << name << " (" << *e << ") is not among the "
                              << "HL_DIET_SHAPES values of " << name << " (" << v.values.front() << ".."
                              << v.values.back() << "); the representative shape uses " << name << "="
                              << v.representative << ".\n";
                }
            }
        }
        fam.vars.push_back(v);
    }

    // Every output extent must be positive everywhere in the family (checked at both ends and
    // a spread of shapes: estimates are affine in practice).
    std::vector<Shape> probe = fam.training_shapes(16, 0);
    for (const OutputEstimate &oe : fam.outputs) {
        for (size_t d = 0; d < oe.vars.size(); d++) {
            for (const Shape &s : probe) {
                const std::string what = oe.func + "." + oe.vars[d];
                estimate_at(oe.min[d], s, "the estimated min of " + what);
                int64_t e = estimate_at(oe.extent[d], s, "the estimated extent of " + what);
                user_assert(e >= 1 && e <= (int64_t(1) << 31) - 1)
                    << "Diet: the estimated extent of " << oe.func << "." << oe.vars[d] << " is " << e << " at "
                    << ShapeFamily::to_string(s) << " (estimate " << oe.extent[d]
                    << "); extents must lie in [1, 2^31).\n";
            }
        }
    }
    for (auto &kv : all_params(outputs)) {
        const Parameter &p = kv.second;
        if (!p.is_buffer()) continue;
        for (int d = 0; d < p.dimensions(); d++) {
            auto [min, extent] = original_estimate(p, d);
            const std::string what = "the estimate of buffer " + p.name() + " dimension " + std::to_string(d);
            for (const Shape &s : probe) {
                if (min.defined()) estimate_at(min, s, what + " (min)");
                if (extent.defined()) estimate_at(extent, s, what);
            }
        }
    }
    note_single_shape(fam, outputs);
    return fam;
}

void concretize_estimates(const std::vector<Function> &outputs, const Shape &shape) {
    auto fix = [&](const Expr &e) -> Expr {
        if (!e.defined()) return e;
        return make_const(e.type(), ShapeFamily::evaluate(e, shape));
    };
    for (Function f : outputs) {
        for (Bound &b : f.schedule().estimates()) {
            b.min = fix(b.min);
            b.extent = fix(b.extent);
        }
    }
    for (auto &kv : all_params(outputs)) {
        Parameter p = kv.second;
        if (!p.is_buffer()) continue;
        for (int d = 0; d < p.dimensions(); d++) {
            auto [min, extent] = original_estimate(p, d);
            p.set_min_constraint_estimate(d, fix(min));
            p.set_extent_constraint_estimate(d, fix(extent));
        }
    }
}

}  // namespace diet
