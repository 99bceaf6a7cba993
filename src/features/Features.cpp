#include "features/Features.h"
#include "features/FeatureExtractor.h"
#include "analysis/FunctionDAG.h"
#include "common/Errors.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace feature_detail {

ProgramFeatures Extractor::finish() {
    ProgramFeatures out;
    out.shape_generic = opt_.shape_generic;
    out.gpu_kernels = kernels_;
    out.unbounded_loops = unbounded_;
    for (const std::string &name : row_order_) {
        Row &r = rows_.at(name);
        FeatureRow fr;
        fr.buffer = name;
        fr.slots = r.slots;
        fr.ansor_raw = r.f;
        fr.halide_raw = r.h;
        auto mem = mem_kind_.find(name);
        fr.halide_raw[mem == mem_kind_.end() ? kMemNone : mem->second] = 1;
        fr.halide_raw[kGpuKernels] = (double)r.kernels.size();
        for (int i = 0; i < kAnsorFeatureCount; i++) {
            fr.ansor.push_back(is_ansor_one_hot(i) ? (float)r.f[i] : log2p((float)r.f[i]));
        }
        for (int i = 0; i < kHalideFeatureCount; i++) {
            fr.halide.push_back(i < kMemKinds ? (float)fr.halide_raw[i] : log2p((float)fr.halide_raw[i]));
        }
        out.rows.push_back(std::move(fr));
    }
    return out;
}

Extractor::Row &Extractor::row(const std::string &name) {
    auto it = rows_.find(name);
    if (it == rows_.end()) {
        row_order_.push_back(name);
        it = rows_.emplace(name, Row{}).first;
    }
    return it->second;
}

Expr Extractor::expand(const Expr &e) const {
    return simplify(StripLikely().mutate(substitute(lets_, substitute_in_all_lets(e))));
}

int64_t Extractor::upper_bound(const Expr &e) {
    if (const int64_t *c = as_const_int(e)) return *c;
    Interval i = bounds_of_expr_in_scope(e, loop_bounds_);
    if (i.has_upper_bound()) {
        if (std::optional<int64_t> c = constant_value(i.max)) return *c;
    }
    unbounded_++;
    return 1;
}

int64_t Extractor::lower_bound(const Expr &e) const {
    if (const int64_t *c = as_const_int(e)) return *c;
    Interval i = bounds_of_expr_in_scope(e, loop_bounds_);
    if (i.has_lower_bound()) {
        if (std::optional<int64_t> c = constant_value(i.min)) return *c;
    }
    return 0;
}

double Extractor::outer_prod() const {
    double p = weight_;
    for (const Loop &l : stack_) p *= (double)l.extent;
    return p;
}

void Extractor::visit(const LetStmt *op) {
    const Type t = op->value.type();
    if (t.is_int_or_uint() || t.is_bool()) {
        ScopedValue v(lets_, op->name, expand(op->value));
        op->body.accept(this);
    } else {
        op->body.accept(this);
    }
}

void Extractor::visit(const For *op) {
    const Expr min_e = expand(op->min), extent_e = expand(op->extent);
    const int64_t extent = upper_bound(extent_e);
    if (extent <= 0) return;  // does not run at this shape
    const int64_t min = lower_bound(min_e);

    const bool gpu = op->for_type == ForType::GPUBlock || op->for_type == ForType::GPUThread ||
                     op->for_type == ForType::GPULane;
    const int saved_kernel = kernel_;
    if (gpu && gpu_depth_ == 0) kernel_ = kernels_++;
    gpu_depth_ += gpu;
    thread_depth_ += op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane;

    const bool grid = op->for_type == ForType::GPUBlock || op->for_type == ForType::Parallel ||
                      grid_containers_.count(op) || prog_.shape_dependent_loops.count(op->name);
    if (opt_.shape_generic && grid) {
        // Not iterated: its variable stays at the first iteration.
        ScopedValue first(lets_, op->name, min_e);
        op->body.accept(this);
    } else {
        Loop l;
        l.key = op;
        l.var = op->name;
        l.min = min;
        l.extent = extent;
        l.type = op->for_type;
        l.unrolled = prog_.unrolled_loops.count(scheduled_name(op->name)) > 0;
        stack_.push_back(l);
        loop_bounds_.push(op->name, Interval(i32(min), i32(min + extent - 1)));
        op->body.accept(this);
        loop_bounds_.pop(op->name);
        stack_.pop_back();
    }

    gpu_depth_ -= gpu;
    thread_depth_ -= op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane;
    kernel_ = saved_kernel;
}

void Extractor::conjuncts(const Expr &e, std::vector<Expr> *out) {
    if (const And *a = e.as<And>()) {
        conjuncts(a->a, out);
        conjuncts(a->b, out);
    } else {
        out->push_back(e);
    }
}

double Extractor::fraction_true(const Expr &c) const {
    if (is_const_one(c)) return 1;
    if (is_const_zero(c)) return 0;
    struct Term {
        Expr e;
        bool of_c;
        std::set<int> loops;  // indices into stack_
    };
    std::vector<Term> terms;
    auto add = [&](const Expr &e, bool of_c) {
        std::vector<Expr> parts;
        conjuncts(e, &parts);
        for (const Expr &p : parts) {
            Term t{p, of_c, {}};
            for (int i = 0; i < (int)stack_.size(); i++) {
                if (expr_uses_var(p, stack_[i].var)) t.loops.insert(i);
            }
            if (!t.loops.empty()) terms.push_back(t);
            else if (of_c) return false;  // depends on something that is not a loop: unknown
        }
        return true;
    };
    if (!add(c, true)) return -1;
    for (const Expr &p : path_) add(p, false);
    // Group the terms that share loops; each group with a term of c contributes the fraction
    // of its points that satisfy its path terms and also satisfy its terms of c.
    std::vector<int> group(terms.size());
    for (size_t i = 0; i < terms.size(); i++) group[i] = (int)i;
    std::function<int(int)> root = [&](int i) { return group[i] == i ? i : group[i] = root(group[i]); };
    for (size_t i = 0; i < terms.size(); i++) {
        for (size_t j = i + 1; j < terms.size(); j++) {
            bool shared = false;
            for (int l : terms[i].loops) shared = shared || terms[j].loops.count(l);
            if (shared) group[root((int)i)] = root((int)j);
        }
    }
    double fraction = 1;
    bool any = false;
    for (size_t g = 0; g < terms.size(); g++) {
        if (root((int)g) != (int)g) continue;
        std::vector<const Term *> members;
        std::set<int> loops;
        bool has_c = false;
        for (size_t i = 0; i < terms.size(); i++) {
            if (root((int)i) != (int)g) continue;
            members.push_back(&terms[i]);
            loops.insert(terms[i].loops.begin(), terms[i].loops.end());
            has_c = has_c || terms[i].of_c;
        }
        if (!has_c) continue;
        any = true;
        int64_t points = 1;
        for (int l : loops) {
            points *= stack_[l].extent;
            if (points > kMaxConditionPoints) return -1;
        }
        std::vector<int> vars(loops.begin(), loops.end());
        std::vector<int64_t> at(vars.size(), 0);
        int64_t reach = 0, hold = 0;
        for (int64_t p = 0; p < points; p++) {
            std::map<std::string, Expr> values;
            for (size_t i = 0; i < vars.size(); i++) values[stack_[vars[i]].var] = i32(stack_[vars[i]].min + at[i]);
            bool on_path = true, holds = true;
            for (const Term *t : members) {
                Expr v = simplify(substitute(values, t->e));
                if (!is_const_one(v) && !is_const_zero(v)) return -1;
                (t->of_c ? holds : on_path) &= is_const_one(v);
            }
            reach += on_path;
            hold += on_path && holds;
            for (size_t i = 0; i < vars.size() && ++at[i] == stack_[vars[i]].extent; i++) at[i] = 0;
        }
        if (reach == 0) return 0;
        fraction *= (double)hold / (double)reach;
    }
    return any ? fraction : -1;
}

void Extractor::visit(const IfThenElse *op) {
    const Expr c = expand(op->condition);
    const double f = fraction_true(c);
    auto branch = [&](const Stmt &s, double w, const Expr &holds) {
        if (!s.defined() || w <= 0) return;
        const double saved = weight_;
        weight_ *= w;
        if (f >= 0) path_.push_back(holds);
        s.accept(this);
        if (f >= 0) path_.pop_back();
        weight_ = saved;
    };
    branch(op->then_case, f < 0 ? 1.0 : f, c);
    branch(op->else_case, f < 0 ? 1.0 : 1.0 - f, simplify(!c));
}

int Extractor::memory_kind(const Allocate *op, int64_t bytes) const {
    switch (op->memory_type) {
    case MemoryType::Heap: return kMemHeap;
    case MemoryType::Stack: return kMemStack;
    case MemoryType::Register: return kMemRegister;
    case MemoryType::GPUShared: return kMemGpuShared;
    case MemoryType::Auto:
        // What Halide's code generators decide for Auto.
        if (thread_depth_ > 0) return kMemRegister;
        if (gpu_depth_ > 0) return kMemGpuShared;
        return prog_.dynamic_allocations.count(op->name) || bytes > kMaxStackBytes ? kMemHeap : kMemStack;
    default: return kMemOther;
    }
}

void Extractor::visit(const Allocate *op) {
    BufferShape shape;
    int64_t elems = 1;
    for (const Expr &e : op->extents) {
        shape.extents.push_back(std::max<int64_t>(0, upper_bound(expand(e))));
        elems *= shape.extents.back();
    }
    // Extents come in argument order; storage (and so the strides) may be reordered.
    auto order = prog_.storage_order.find(op->name);
    if (order != prog_.storage_order.end() && order->second.size() == shape.extents.size()) {
        std::vector<int64_t> stored;
        for (int a : order->second) stored.push_back(a < (int)shape.extents.size() ? shape.extents[a] : 1);
        shape.extents = stored;
    }
    if (shape.extents.empty()) shape.extents.push_back(1);
    const int64_t bytes = elems * op->type.bytes();
    mem_kind_[op->name] = memory_kind(op, bytes);

    auto saved = shapes_.find(op->name) != shapes_.end() ? std::optional<BufferShape>(shapes_[op->name])
                                                          : std::nullopt;
    shapes_[op->name] = shape;
    op->body.accept(this);
    if (saved) shapes_[op->name] = *saved;

    // Group 4 goes to the allocated buffer's row, after its stores have been seen (Ansor).
    Row &r = row(op->name);
    const double outer = outer_prod();
    r.f[kAllocSize] = (double)bytes;
    r.f[kAllocProd] = (double)elems * outer;
    r.f[kAllocOuterProd] = outer;
    r.f[kAllocInnerProd] = outer > 0 ? r.f[kOuterProd] / outer : 0;
}

void Extractor::visit(const Store *op) {
    const int lanes = op->value.type().lanes();
    if (lanes > 1) {
        // The vectorized loop Halide has turned into lanes.
        Loop l;
        l.key = op;
        l.var = kLaneVar;
        l.extent = lanes;
        l.type = ForType::Vectorized;
        stack_.push_back(l);
        loop_bounds_.push(kLaneVar, Interval(i32(0), i32(lanes - 1)));
    }
    featurize(op, lanes);
    if (lanes > 1) {
        loop_bounds_.pop(kLaneVar);
        stack_.pop_back();
    }
}

double Extractor::active_lanes(const Store *op, int lanes) const {
    if (is_const_one(op->predicate)) return 1;
    const Expr p = expand(op->predicate);
    double sum = 0;
    for (int i = 0; i < lanes; i++) {
        const double f = fraction_true(p.type().is_vector() ? simplify(extract_lane(p, i)) : p);
        if (f < 0) return 1;
        sum += f;
    }
    return sum / lanes;
}

void Extractor::featurize(const Store *op, int lanes) {
    Row &r = row(op->name);
    const double executions = outer_prod() / lanes;  // times the (vector) store runs
    // Work is counted for the lanes that are written, as the scalar stores they stand for.
    const double saved_weight = weight_;
    weight_ *= active_lanes(op, lanes);
    const double prod = outer_prod();
    const double runs = prod / lanes;

    OpCounter ops;
    op->value.accept(&ops);
    for (int k = 0; k < kOpKinds; k++) r.f[k] += ops.count[k] * runs;
    // Which store a buffer's other features describe: Ansor takes the last one (for a
    // reduction, its update). Halide also copies a store into loop-partition epilogues and
    // guarded or predicated tails, which come last and run least; so here the store that
    // runs most describes the buffer, ties going to the later one (the update still wins).
    const bool describes = prod >= r.f[kOuterProd];

    std::vector<BufferUse> uses = accesses(op);
    const int n = (int)stack_.size();
    // boxes[level][u]: region of buffer u touched by one iteration of the loops outside
    // `level` (Ansor binds them to their min), all iterations of the loops from `level` in.
    std::vector<std::vector<std::vector<DimRange>>> boxes(n);
    std::vector<double> ops_per_level, bytes_per_level;  // innermost level first
    double float_ops = 0;
    for (int k = kFloatMad; k <= kFloatOther; k++) float_ops += ops.count[k];
    double level_ops = float_ops / lanes;
    for (int level = n - 1; level >= 0; level--) {
        double mem = 0;
        for (const BufferUse &u : uses) {
            boxes[level].push_back(region(u, level));
            const int64_t e = elements(boxes[level].back(), shape_of(u.name));
            touch_[stack_[level].key][u.name].push_back({u.type, e, u.elem_bytes});
            mem += (double)e * u.elem_bytes;
        }
        bytes_per_level.push_back(mem);
        level_ops *= (double)stack_[level].extent;
        ops_per_level.push_back(level_ops);
    }

    if (describes) {
        loop_features(r);
        std::vector<AccessFeature> feas;
        for (size_t i = 0; i < uses.size(); i++) {
            feas.push_back(access_feature(uses[i], n > 0 ? boxes[0][i] : std::vector<DimRange>{}, prod));
        }
        buffer_features(r, feas);
        arithmetic_intensity(r, float_ops, ops_per_level, bytes_per_level);
        r.f[kOuterProd] = prod;
        r.f[kNumLoops] = n;
        r.f[kAutoUnrollMaxStep] = 0;  // no such pragma in Halide
    }

    if (!is_const_one(op->predicate)) r.h[kPredicatedStores] += executions;
    r.h[kPredicatedLoads] += ops.predicated_loads * executions;
    r.h[kShuffles] += ops.shuffles * executions;
    r.h[kStridedLoads] += ops.strided_loads * executions;
    if (kernel_ >= 0) r.kernels.insert(kernel_);
    weight_ = saved_weight;
}

void Extractor::loop_features(Row &r) const {
    auto annotation = [&](int num, int prod, int len, int type, bool (*pick)(const Loop &)) {
        double count = 0, product = 1, innermost = 0;
        for (const Loop &l : stack_) {
            if (!pick(l)) continue;
            count++;
            product *= (double)l.extent;
            innermost = (double)l.extent;
        }
        r.f[num] = count;
        r.f[prod] = count > 0 ? product : 0;
        r.f[len] = innermost;
        for (int i = 0; i < 8; i++) r.f[type + i] = 0;
        r.f[type + (count > 0 ? kPosMixed : kPosNone)] = 1;
    };
    annotation(kVecNum, kVecProd, kVecLen, kVecType, [](const Loop &l) { return l.type == ForType::Vectorized; });
    annotation(kUnrollNum, kUnrollProd, kUnrollLen, kUnrollType, [](const Loop &l) { return l.unrolled; });
    annotation(kParallelNum, kParallelProd, kParallelLen, kParallelType,
               [](const Loop &l) { return l.type == ForType::Parallel; });

    r.f[kIsGpu] = gpu_depth_ > 0 ? 1 : 0;
    for (int i = 0; i < 7; i++) r.f[kBlockX + i] = 1;
    for (const Loop &l : stack_) {
        const bool block = l.type == ForType::GPUBlock;
        const bool thread = l.type == ForType::GPUThread || l.type == ForType::GPULane;
        if (!block && !thread) continue;
        // Halide names them <...>.__block_id_x / .__thread_id_y.
        const size_t at = l.var.rfind(block ? "__block_id_" : "__thread_id_");
        const char axis = at == std::string::npos ? 'x' : l.var[at + (block ? 11 : 12)];
        if (axis < 'x' || axis > 'z') continue;
        r.f[(block ? kBlockX : kThreadX) + (axis - 'x')] = (double)l.extent;
    }
    r.f[kVthread] = 1;
}

}  // namespace feature_detail

using namespace feature_detail;

ProgramFeatures extract_features(const LoweredProgram &p, const FeatureOptions &o) {
    user_assert(p.stmt.defined()) << "Diet: extract_features needs a lowered program (lower_at_shape).\n";
    Extractor e(p, o);
    p.stmt.accept(&e);
    return e.finish();
}

std::vector<float> pack_sum(const ProgramFeatures &f) {
    std::vector<float> sum(kAnsorFeatureCount + kHalideFeatureCount, 0.f);
    for (const FeatureRow &r : f.rows) {
        for (int i = 0; i < kAnsorFeatureCount; i++) sum[i] += r.ansor[i];
        for (int i = 0; i < kHalideFeatureCount; i++) sum[kAnsorFeatureCount + i] += r.halide[i];
    }
    return sum;
}

}  // namespace diet
