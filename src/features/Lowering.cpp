#include "features/Lowering.h"
#include "common/Errors.h"

#include <algorithm>
#include <sstream>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::vector<Function> output_functions(const Pipeline &p) {
    std::vector<Function> out;
    for (const Func &f : p.outputs()) out.push_back(f.function());
    user_assert(!out.empty()) << "Diet: the pipeline has no outputs.\n";
    return out;
}

// The value of an estimate at the shape: scalar parameters replaced by their values.
class SubstituteScalars : public IRMutator {
public:
    explicit SubstituteScalars(const Shape &s) : shape(s) {}
    const Shape &shape;
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        auto it = shape.find(op->name);
        if (it == shape.end() || !op->type.is_int_or_uint()) return op;
        return make_const(op->type, it->second);
    }
};

bool uses_any(const Expr &e, const Shape &vars) {
    for (const auto &kv : vars) {
        if (expr_uses_var(e, kv.first)) return true;
    }
    return false;
}

int64_t estimate_at(const Expr &e, const Shape &scalars, const std::string &what) {
    user_assert(e.defined()) << "Diet: " << what << " has no estimate; features need the size of every buffer "
                             << "(set_estimate / set_estimates on inputs and outputs).\n";
    Expr v = simplify(SubstituteScalars(scalars).mutate(e));
    const int64_t *c = as_const_int(v);
    user_assert(c) << "Diet: the estimate of " << what << " (" << e << ") is not constant at shape "
                   << ShapeFamily::to_string(scalars) << " (it is " << v << "); give the shape variable a value.\n";
    return *c;
}

// Lowers unrolled loops as serial loops while alive, and restores the schedule afterwards.
// Halide copies the body of an unrolled loop once per iteration before custom passes run, so
// the loop itself would no longer be visible to the extractor.
class UnrolledAsSerial {
public:
    explicit UnrolledAsSerial(const std::vector<Function> &outputs) : env_(build_environment(outputs)) {
        for (auto &[name, f] : env_) {
            if (!f.has_pure_definition() || f.has_extern_definition()) continue;
            flip(f.definition(), f.name() + ".s0.");
            for (int i = 0; i < (int)f.updates().size(); i++) {
                flip(f.update(i), f.name() + ".s" + std::to_string(i + 1) + ".");
            }
        }
    }
    ~UnrolledAsSerial() {
        for (Dim *d : flipped_) d->for_type = ForType::Unrolled;
    }
    UnrolledAsSerial(const UnrolledAsSerial &) = delete;
    UnrolledAsSerial &operator=(const UnrolledAsSerial &) = delete;

    std::set<std::string> loop_names;

private:
    std::map<std::string, Function> env_;  // keeps the schedules the flipped Dims live in
    std::vector<Dim *> flipped_;

    void flip(Definition &def, const std::string &loop_prefix) {
        for (Dim &d : def.schedule().dims()) {
            if (d.for_type != ForType::Unrolled) continue;
            d.for_type = ForType::Serial;
            flipped_.push_back(&d);
            loop_names.insert(loop_prefix + d.var);
        }
        for (Specialization &s : def.specializations()) flip(s.definition, loop_prefix);
    }
};

// Thrown by the recording pass once it has the Stmt: what follows in lowering (device code
// generation for GPU targets, about 10x the time of the rest) is not needed.
struct StmtRecorded {};

class RecordAndStop : public IRMutator {
public:
    Stmt recorded;
    using IRMutator::mutate;
    Stmt mutate(const Stmt &s) override {
        recorded = s;
        throw StmtRecorded{};
    }
};

// Which loops and allocations have extents that depend on the given symbols (through lets), and,
// if `through_loops`, on loop variables too (a size that varies per iteration is not constant).
class ShapeDependence : public IRVisitor {
public:
    ShapeDependence(const std::set<std::string> &symbols, bool through_loops)
        : tainted(symbols), through_loops(through_loops) {}
    std::set<std::string> tainted;  // symbols and the lets computed from them
    const bool through_loops;
    std::set<std::string> loops, allocations;

    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        if (depends(op->value)) tainted.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        if (depends(op->value)) tainted.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        if (depends(op->extent)) loops.insert(op->name);
        if (through_loops) tainted.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        for (const Expr &e : op->extents) {
            if (depends(e)) allocations.insert(op->name);
        }
        IRVisitor::visit(op);
    }

private:
    bool depends(const Expr &e) const {
        class Uses : public IRVisitor {
        public:
            explicit Uses(const std::set<std::string> &n) : names(n) {}
            const std::set<std::string> &names;
            bool found = false;
            using IRVisitor::visit;
            void visit(const Variable *op) override { found = found || names.count(op->name); }
        } uses(tainted);
        e.accept(&uses);
        return uses.found;
    }
};

// Replaces the symbols by their values. Buffer symbols are defined by lets at the top of the
// Stmt (let y.extent.1 = _halide_buffer_get_extent(...)); scalar parameters are free Variables.
// Bounds queries (a caller asking for the region it must provide) do not happen in a real run.
class BindSymbols : public IRMutator {
public:
    explicit BindSymbols(const std::map<std::string, int64_t> &v) : values(v) {}
    const std::map<std::string, int64_t> &values;

    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        auto it = values.find(op->name);
        if (it == values.end() || !op->value.type().is_int_or_uint()) return IRMutator::visit(op);
        return LetStmt::make(op->name, make_const(op->value.type(), it->second), mutate(op->body));
    }
    Expr visit(const Variable *op) override {
        auto it = values.find(op->name);
        if (it == values.end() || !op->type.is_int_or_uint() || !op->type.is_scalar()) return op;
        return make_const(op->type, it->second);
    }
    Expr visit(const Call *op) override {
        if (op->name == "_halide_buffer_is_bounds_query") return const_false();
        return IRMutator::visit(op);
    }
};

class FalseAssertions : public IRVisitor {
public:
    std::vector<std::string> found;
    using IRVisitor::visit;
    void visit(const AssertStmt *op) override {
        if (is_const_zero(op->condition)) {
            std::ostringstream o;
            o << op->message;
            found.push_back(o.str());
        }
        IRVisitor::visit(op);
    }
};

// name -> value of every symbol the binding fixes.
std::map<std::string, int64_t> symbol_values(const ShapeBinding &b) {
    std::map<std::string, int64_t> v(b.scalars.begin(), b.scalars.end());
    for (const auto &[name, extents] : b.buffers) {
        int64_t stride = 1;
        for (size_t d = 0; d < extents.size(); d++) {
            const std::string dim = "." + std::to_string(d);
            v[name + ".min" + dim] = 0;
            v[name + ".extent" + dim] = extents[d];
            v[name + ".stride" + dim] = stride;
            stride *= extents[d];
        }
    }
    return v;
}

}  // namespace

ShapeBinding bind_shape(const Pipeline &p, const Shape &shape) {
    ShapeBinding b;
    b.scalars = shape;
    for (const auto &kv : shape) b.varying.insert(kv.first);
    // A dimension's extent varies with the shape, and so do the strides of the dimensions above.
    auto note_varying = [&](const std::string &buf, int dim, int dims, const Expr &extent) {
        if (!uses_any(extent, shape)) return;
        b.varying.insert(buf + ".extent." + std::to_string(dim));
        for (int d = dim + 1; d < dims; d++) b.varying.insert(buf + ".stride." + std::to_string(d));
    };
    const std::vector<Argument> args = Pipeline(p).infer_arguments();
    // Scalar parameters that are not shape variables keep their estimate (e.g. a constant K).
    for (const Argument &a : args) {
        if (a.is_buffer() || b.scalars.count(a.name) || !a.type.is_int_or_uint()) continue;
        const Expr &e = a.argument_estimates.scalar_estimate;
        if (e.defined() && as_const_int(e)) b.scalars[a.name] = *as_const_int(e);
    }
    for (const Argument &a : args) {
        if (!a.is_buffer()) continue;
        // The estimates as written (maybe symbolic), not what compiling a copy at another shape
        // left in the shared Parameter.
        std::vector<Expr> r = original_extent_estimates(p, a.name);
        std::vector<int64_t> extents;
        for (int d = 0; d < a.dimensions; d++) {
            const std::string what = "input buffer " + a.name + ", dimension " + std::to_string(d);
            user_assert(d < (int)r.size() && r[d].defined()) << "Diet: " << what << " has no estimate.\n";
            extents.push_back(estimate_at(r[d], b.scalars, what));
            note_varying(a.name, d, a.dimensions, r[d]);
        }
        b.buffers[a.name] = extents;
    }
    for (const Function &f : output_functions(p)) {
        std::vector<Expr> estimates;
        for (const std::string &var : f.args()) {
            Expr extent;
            for (const Bound &e : f.schedule().estimates()) {
                if (e.var == var) extent = e.extent;
            }
            estimates.push_back(extent);
        }
        for (const Parameter &buf : f.output_buffers()) {
            std::vector<int64_t> extents;
            for (int d = 0; d < (int)estimates.size(); d++) {
                extents.push_back(estimate_at(estimates[d], b.scalars, "output " + f.name() + ", dimension " + f.args()[d]));
                note_varying(buf.name(), d, (int)estimates.size(), estimates[d]);
            }
            b.buffers[buf.name()] = extents;
        }
    }
    return b;
}

Expr bind_to_shape(const Expr &e, const ShapeBinding &b) {
    return simplify(BindSymbols(symbol_values(b)).mutate(e));
}

LoweredProgram lower_at_shape(const Pipeline &p, const Target &t, const Shape &shape) {
    return lower_at_shape(p, t, bind_shape(p, shape));
}

LoweredProgram lower_at_shape(const Pipeline &p, const Target &t, const ShapeBinding &b) {
    LoweredProgram out;
    out.target = t;
    out.binding = b;
    const std::vector<Function> outputs = output_functions(p);
    const std::vector<Argument> args = Pipeline(p).infer_arguments();

    for (const auto &[name, f] : build_environment(outputs)) {
        std::vector<int> order;
        for (const StorageDim &d : f.schedule().storage_dims()) {
            const auto &args = f.args();
            order.push_back((int)(std::find(args.begin(), args.end(), d.var) - args.begin()));
        }
        bool identity = true;
        for (int i = 0; i < (int)order.size(); i++) identity = identity && order[i] == i;
        if (!identity) out.storage_order[name] = order;
    }

    Stmt raw;
    {
        UnrolledAsSerial unrolled(outputs);
        out.unrolled_loops = unrolled.loop_names;
        RecordAndStop record;
        try {
            lower(outputs, "diet_features", t, args, LinkageType::External, {}, false, {&record});
        } catch (const StmtRecorded &) {
        }
        internal_assert(record.recorded.defined()) << "Diet: lowering ended without running the recording pass.\n";
        raw = record.recorded;
    }

    const std::map<std::string, int64_t> values = symbol_values(b);
    std::set<std::string> all_symbols;
    for (const auto &kv : values) all_symbols.insert(kv.first);
    ShapeDependence on_shape(b.varying.empty() ? all_symbols : b.varying, false), on_any(all_symbols, true);
    raw.accept(&on_shape);
    raw.accept(&on_any);
    out.shape_dependent_loops = on_shape.loops;
    out.dynamic_allocations = on_any.allocations;

    out.stmt = simplify(BindSymbols(values).mutate(raw));
    FalseAssertions fa;
    out.stmt.accept(&fa);
    out.violated_assertions = fa.found;
    return out;
}

}  // namespace diet
