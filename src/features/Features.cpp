#include "features/Features.h"
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

namespace {

// ---------------------------------------------------------------------------------------------
// Layout of the 164 features (Ansor's order).
// ---------------------------------------------------------------------------------------------

enum OpKind {
    kFloatMad, kFloatAddSub, kFloatMul, kFloatDivMod, kFloatCmp, kFloatMath, kFloatOther,
    kIntMad, kIntAddSub, kIntMul, kIntDivMod, kIntCmp, kIntMath, kIntOther,
    kBoolOp, kSelectOp, kOpKinds
};
constexpr int kVecNum = 16, kVecProd = 17, kVecLen = 18, kVecType = 19;
constexpr int kUnrollNum = 27, kUnrollProd = 28, kUnrollLen = 29, kUnrollType = 30;
constexpr int kParallelNum = 38, kParallelProd = 39, kParallelLen = 40, kParallelType = 41;
constexpr int kIsGpu = 49, kBlockX = 50, kThreadX = 53, kVthread = 56;
constexpr int kBuffers = 57;
constexpr int kArithCurve = 147, kArithPoints = 10;
constexpr int kAllocSize = 157, kAllocProd = 158, kAllocOuterProd = 159, kAllocInnerProd = 160;
constexpr int kOuterProd = 161, kNumLoops = 162, kAutoUnrollMaxStep = 163;
static_assert(kBuffers + kAnsorMaxBuffers * kAnsorBufferFeatureCount == kArithCurve, "layout");
static_assert(kOuterProd + 3 == kAnsorFeatureCount, "layout");

// Within one buffer slot.
constexpr int kAccType = 0, kBytes = 3, kUniqueBytes = 4, kLines = 5, kUniqueLines = 6, kReuseType = 7,
              kReuseDisIter = 10, kReuseDisBytes = 11, kReuseCt = 12, kBytesDReuse = 13, kUniqueBytesDReuse = 14,
              kLinesDReuse = 15, kUniqueLinesDReuse = 16, kStride = 17;

// Ansor's AnnotationPosType has 8 values; its extractor only ever sets kPosNone (no such loop)
// or kPosMixed (the position encoding is a TODO there). Reproduced as is.
constexpr int kPosNone = 0, kPosMixed = 7;

// Halide features.
enum MemKind { kMemNone, kMemHeap, kMemStack, kMemRegister, kMemGpuShared, kMemOther, kMemKinds };
constexpr int kPredicatedStores = 6, kPredicatedLoads = 7, kGpuKernels = 8, kShuffles = 9, kStridedLoads = 10;

enum class AccessType { Read = 0, Write = 1, ReadWrite = 2 };
enum class ReuseType { LoopMultipleRead = 0, SerialMultipleReadWrite = 1, NoReuse = 2 };

// Halide places an Auto allocation of at most this many bytes with a constant size on the stack.
constexpr int64_t kMaxStackBytes = 16 * 1024;
// Conditions are resolved per iteration up to this many points, else both branches count fully.
constexpr int64_t kMaxConditionPoints = 4096;
// The variable standing for the lanes of a vector store.
const char *const kLaneVar = "diet.lane";

std::vector<std::string> make_ansor_names() {
    std::vector<std::string> n = {"float_mad",   "float_addsub", "float_mul",     "float_divmod",   "float_cmp",
                                  "float_mathfunc", "float_otherfunc", "int_mad", "int_addsub", "int_mul",
                                  "int_divmod", "int_cmp",      "int_mathfunc",  "int_otherfunc",  "bool_op",
                                  "select_op"};
    const char *positions[] = {"kPosNone",        "kPosInnerSpatial", "kPosMiddleSpatial", "kPosOuterSpatial",
                               "kPosInnerReduce", "kPosMiddleReduce", "kPosOuterReduce",   "kPosMixed"};
    for (const char *kind : {"vec", "unroll", "parallel"}) {
        for (const char *what : {"_num", "_prod", "_len"}) n.push_back(std::string(kind) + what);
        for (const char *p : positions) n.push_back(std::string(kind) + "_type." + p);
    }
    for (const char *g : {"is_gpu", "blockIdx_x_len", "blockIdx_y_len", "blockIdx_z_len", "threadIdx_x_len",
                          "threadIdx_y_len", "threadIdx_z_len", "vthread_len"}) {
        n.push_back(g);
    }
    for (int b = 0; b < kAnsorMaxBuffers; b++) {
        const std::string p = "B" + std::to_string(b) + ".";
        for (const char *f : {"acc_type.kRead", "acc_type.kWrite", "acc_type.kReadWrite", "bytes", "unique_bytes",
                              "lines", "unique_lines", "reuse_type.kLoopMultipleRead",
                              "reuse_type.kSerialMultipleReadWrite", "reuse_type.kNoReuse", "reuse_dis_iter",
                              "reuse_dis_bytes", "reuse_ct", "bytes_d_reuse_ct", "unique_bytes_d_reuse_ct",
                              "lines_d_reuse_ct", "unique_lines_d_reuse_ct", "stride"}) {
            n.push_back(p + f);
        }
    }
    for (int i = 0; i < kArithPoints; i++) n.push_back("arith_intensity_curve_" + std::to_string(i));
    for (const char *f : {"alloc_size", "alloc_prod", "alloc_outer_prod", "alloc_inner_prod", "outer_prod",
                          "num_loops", "auto_unroll_max_step"}) {
        n.push_back(f);
    }
    internal_assert((int)n.size() == kAnsorFeatureCount) << n.size();
    return n;
}

// Features kept as they are by the transform: one-hots and is_gpu.
bool is_ansor_one_hot(int i) {
    if ((i >= kVecType && i < kVecType + 8) || (i >= kUnrollType && i < kUnrollType + 8) ||
        (i >= kParallelType && i < kParallelType + 8) || i == kIsGpu) {
        return true;
    }
    if (i >= kBuffers && i < kArithCurve) {
        int k = (i - kBuffers) % kAnsorBufferFeatureCount;
        return (k >= kAccType && k < kAccType + 3) || (k >= kReuseType && k < kReuseType + 3);
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Counting the operations of a stored value.
// ---------------------------------------------------------------------------------------------

// Ansor's MathOpCounter, on Halide IR. Every operation counts once per lane, so a vector store
// counts what the scalar stores it replaces would. As in Ansor, mad is never detected (a*b + c
// counts as a mul and an add); index arithmetic inside loads counts as int ops.
class OpCounter : public IRVisitor {
public:
    double count[kOpKinds] = {};
    double predicated_loads = 0, shuffles = 0, strided_loads = 0;

private:
    using IRVisitor::visit;

    void arith(const Type &operand, int float_kind, int int_kind) {
        count[operand.is_float() ? float_kind : int_kind] += operand.lanes();
    }
    void visit(const Add *op) override { arith(op->a.type(), kFloatAddSub, kIntAddSub); IRVisitor::visit(op); }
    void visit(const Sub *op) override { arith(op->a.type(), kFloatAddSub, kIntAddSub); IRVisitor::visit(op); }
    void visit(const Mul *op) override { arith(op->a.type(), kFloatMul, kIntMul); IRVisitor::visit(op); }
    void visit(const Div *op) override { arith(op->a.type(), kFloatDivMod, kIntDivMod); IRVisitor::visit(op); }
    void visit(const Mod *op) override { arith(op->a.type(), kFloatDivMod, kIntDivMod); IRVisitor::visit(op); }
    void visit(const Min *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const Max *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const EQ *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const NE *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const LT *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const LE *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const GT *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const GE *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const And *op) override { count[kBoolOp] += op->type.lanes(); IRVisitor::visit(op); }
    void visit(const Or *op) override { count[kBoolOp] += op->type.lanes(); IRVisitor::visit(op); }
    void visit(const Not *op) override { count[kBoolOp] += op->type.lanes(); IRVisitor::visit(op); }
    void visit(const Select *op) override { count[kSelectOp] += op->type.lanes(); IRVisitor::visit(op); }

    void visit(const Call *op) override {
        // Annotations compute nothing (Ansor would count them as pure calls; skipped here).
        const bool annotation = op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
                                op->is_intrinsic(Call::promise_clamped) ||
                                op->is_intrinsic(Call::unsafe_promise_clamped) ||
                                op->is_intrinsic(Call::strict_float);
        const bool func_call = op->call_type == Call::Halide || op->call_type == Call::Image;
        if (op->is_intrinsic(Call::if_then_else)) {
            count[kSelectOp] += op->type.lanes();
        } else if (!annotation && !func_call) {
            const bool pure = op->call_type == Call::PureExtern || op->call_type == Call::PureIntrinsic;
            const bool f = op->type.is_float();
            count[pure ? (f ? kFloatMath : kIntMath) : (f ? kFloatOther : kIntOther)] += op->type.lanes();
        }
        IRVisitor::visit(op);
    }

    void visit(const VectorReduce *op) override {
        const Type &t = op->value.type();
        const int lanes = t.lanes();
        switch (op->op) {
        case VectorReduce::Add:
        case VectorReduce::SaturatingAdd: count[t.is_float() ? kFloatAddSub : kIntAddSub] += lanes; break;
        case VectorReduce::Mul: count[t.is_float() ? kFloatMul : kIntMul] += lanes; break;
        case VectorReduce::Min:
        case VectorReduce::Max: count[t.is_float() ? kFloatCmp : kIntCmp] += lanes; break;
        case VectorReduce::And:
        case VectorReduce::Or: count[kBoolOp] += lanes; break;
        }
        IRVisitor::visit(op);
    }

    void visit(const Load *op) override {
        if (!is_const_one(op->predicate)) predicated_loads++;
        if (op->type.is_vector() && !op->index.as<Broadcast>()) {
            const Ramp *r = op->index.as<Ramp>();
            if (!r || !is_const_one(r->stride)) strided_loads++;
        }
        IRVisitor::visit(op);
    }

    void visit(const Shuffle *op) override {
        shuffles++;
        IRVisitor::visit(op);
    }
};

// Every load of a value, in the order Ansor's BufferAccessExtractor meets them (pre-order).
class LoadCollector : public IRVisitor {
public:
    std::vector<const Load *> loads;
    using IRVisitor::visit;
    void visit(const Load *op) override {
        loads.push_back(op);
        IRVisitor::visit(op);
    }
};

class StripLikely : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost)) return mutate(op->args[0]);
        return IRMutator::visit(op);
    }
};

// The loops that enclose a GPU block loop or a CPU parallel loop.
class GridContainers : public IRVisitor {
public:
    std::set<const For *> containers;
    using IRVisitor::visit;
    void visit(const For *op) override {
        if (op->for_type == ForType::GPUBlock || op->for_type == ForType::Parallel) {
            containers.insert(stack_.begin(), stack_.end());
        }
        stack_.push_back(op);
        IRVisitor::visit(op);
        stack_.pop_back();
    }

private:
    std::vector<const For *> stack_;
};

// The loop's name as the schedule spells it: lowering renames a loop that does not start at 0
// to <name>.rebased.
std::string scheduled_name(const std::string &loop) {
    const std::string suffix = ".rebased";
    if (loop.size() > suffix.size() && loop.compare(loop.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return loop.substr(0, loop.size() - suffix.size());
    }
    return loop;
}

// ---------------------------------------------------------------------------------------------
// Buffers, loops and accesses.
// ---------------------------------------------------------------------------------------------

// Dense storage, innermost dimension first.
struct BufferShape {
    std::vector<int64_t> extents;
    std::vector<int64_t> strides() const {
        std::vector<int64_t> s;
        int64_t stride = 1;
        for (int64_t e : extents) {
            s.push_back(stride);
            stride *= std::max<int64_t>(1, e);
        }
        return s;
    }
};

struct Loop {
    const void *key = nullptr;  // the For node, or the Store for the loop over its lanes
    std::string var;
    int64_t min = 0, extent = 1;
    ForType type = ForType::Serial;
    bool unrolled = false;
};

// One index of an access, against the loop stack of the store.
struct IndexInfo {
    Expr index;                                // scalar flat index; the lanes of a vector are kLaneVar
    std::vector<bool> uses;                    // per loop of the stack
    std::vector<std::optional<int64_t>> coef;  // per loop: coefficient in the index, if constant
    std::vector<int64_t> stride;               // per loop: |coefficient| (estimated if not constant)
    std::optional<int64_t> base;               // the index with every loop at its first iteration
    // A vector index whose lanes do not step evenly (a block of several ramps, from vectorizing
    // two loops): the offset of each lane from lane 0. Empty otherwise.
    std::vector<int64_t> lane_offsets;
};

struct BufferUse {
    std::string name;
    AccessType type = AccessType::Read;
    int elem_bytes = 1;
    std::vector<IndexInfo> indices;
};

struct DimRange {
    int64_t lo = 0, hi = 0;
};

struct TouchEntry {
    AccessType type;
    int64_t elems;
    int bytes;
};

struct AccessFeature {
    std::string buffer;
    AccessType type;
    double bytes, unique_bytes, lines, unique_lines, stride;
    ReuseType reuse;
    double reuse_dis_iter, reuse_dis_bytes, reuse_ct;
};

// Loop variables are Int(32); an Expr(int64_t) would be Int(64).
Expr i32(int64_t v) {
    return make_const(Int(32), v);
}

int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// The coordinates, innermost first, of a flat (dense) index.
std::vector<int64_t> coordinates(int64_t flat, const BufferShape &s) {
    const std::vector<int64_t> st = s.strides();
    std::vector<int64_t> c(st.size(), 0);
    for (int d = (int)st.size() - 1; d >= 1; d--) {
        c[d] = floor_div(flat, st[d]);
        flat -= c[d] * st[d];
    }
    if (!c.empty()) c[0] = flat;
    return c;
}

int64_t elements(const std::vector<DimRange> &box, const BufferShape &s) {
    int64_t n = 1;
    for (size_t d = 0; d < box.size(); d++) {
        n *= std::clamp<int64_t>(box[d].hi - box[d].lo + 1, 1, std::max<int64_t>(1, s.extents[d]));
    }
    return n;
}

std::vector<DimRange> full_box(const BufferShape &s) {
    std::vector<DimRange> b;
    for (int64_t e : s.extents) b.push_back({0, e - 1});
    return b;
}

// Bounding box of the flat interval [lo, hi].
std::vector<DimRange> box_of_interval(int64_t lo, int64_t hi, const BufferShape &s) {
    std::vector<int64_t> a = coordinates(lo, s), b = coordinates(hi, s);
    std::vector<DimRange> box(a.size());
    int d = (int)a.size() - 1;
    for (; d >= 0 && a[d] == b[d]; d--) box[d] = {a[d], a[d]};
    if (d >= 0) box[d] = {std::min(a[d], b[d]), std::max(a[d], b[d])};
    for (int i = d - 1; i >= 0; i--) box[i] = {0, s.extents[i] - 1};
    return box;
}

class Extractor : public IRVisitor {
public:
    Extractor(const LoweredProgram &p, const FeatureOptions &o) : prog_(p), opt_(o) {
        for (const auto &[name, extents] : p.binding.buffers) shapes_[name] = {extents};
        GridContainers g;
        p.stmt.accept(&g);
        grid_containers_ = g.containers;
    }

    ProgramFeatures finish() {
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

private:
    struct Row {
        std::vector<double> f = std::vector<double>(kAnsorFeatureCount, 0.0);
        std::vector<double> h = std::vector<double>(kHalideFeatureCount, 0.0);
        std::vector<std::string> slots = std::vector<std::string>(kAnsorMaxBuffers);
        std::set<int> kernels;
    };

    const LoweredProgram &prog_;
    const FeatureOptions opt_;
    std::set<const For *> grid_containers_;

    std::map<std::string, Expr> lets_;  // let (and fixed loop) variables -> value in loop variables
    std::vector<Loop> stack_;           // enclosing loops that are iterated, outermost first
    Scope<Interval> loop_bounds_;
    double weight_ = 1;                 // fraction of the iterations of the loops that get here
    std::vector<Expr> path_;            // conditions of the enclosing branches weight_ accounts for
    int gpu_depth_ = 0, thread_depth_ = 0, kernel_ = -1, kernels_ = 0;
    int unbounded_ = 0;

    std::map<std::string, BufferShape> shapes_;
    std::map<std::string, int> mem_kind_;
    // Ansor's for_touch_regions_: per loop, per buffer, one entry per store under the loop.
    std::map<const void *, std::map<std::string, std::vector<TouchEntry>>> touch_;
    std::vector<std::string> row_order_;
    std::map<std::string, Row> rows_;

    Row &row(const std::string &name) {
        auto it = rows_.find(name);
        if (it == rows_.end()) {
            row_order_.push_back(name);
            it = rows_.emplace(name, Row{}).first;
        }
        return it->second;
    }

    // An expression in terms of the loop variables only, simplified.
    Expr expand(const Expr &e) const {
        return simplify(StripLikely().mutate(substitute(lets_, substitute_in_all_lets(e))));
    }

    int64_t upper_bound(const Expr &e) {
        if (const int64_t *c = as_const_int(e)) return *c;
        Interval i = bounds_of_expr_in_scope(e, loop_bounds_);
        if (i.has_upper_bound()) {
            if (std::optional<int64_t> c = constant_value(i.max)) return *c;
        }
        unbounded_++;
        return 1;
    }

    int64_t lower_bound(const Expr &e) const {
        if (const int64_t *c = as_const_int(e)) return *c;
        Interval i = bounds_of_expr_in_scope(e, loop_bounds_);
        if (i.has_lower_bound()) {
            if (std::optional<int64_t> c = constant_value(i.min)) return *c;
        }
        return 0;
    }

    // Product of the enclosing iterated loops, times the fraction of iterations that get here.
    double outer_prod() const {
        double p = weight_;
        for (const Loop &l : stack_) p *= (double)l.extent;
        return p;
    }

    // Sets (and afterwards restores) a variable of lets_.
    class ScopedValue {
    public:
        ScopedValue(std::map<std::string, Expr> &m, const std::string &name, const Expr &v) : m_(m), name_(name) {
            auto it = m.find(name);
            if (it != m.end()) old_ = it->second;
            m[name] = v;
        }
        ~ScopedValue() {
            if (old_.defined()) {
                m_[name_] = old_;
            } else {
                m_.erase(name_);
            }
        }

    private:
        std::map<std::string, Expr> &m_;
        std::string name_;
        Expr old_;
    };

    using IRVisitor::visit;

    void visit(const LetStmt *op) override {
        const Type t = op->value.type();
        if (t.is_int_or_uint() || t.is_bool()) {
            ScopedValue v(lets_, op->name, expand(op->value));
            op->body.accept(this);
        } else {
            op->body.accept(this);
        }
    }

    void visit(const For *op) override {
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

    static void conjuncts(const Expr &e, std::vector<Expr> *out) {
        if (const And *a = e.as<And>()) {
            conjuncts(a->a, out);
            conjuncts(a->b, out);
        } else {
            out->push_back(e);
        }
    }

    // Fraction of the iterations of the enclosing loops that reach this point (the conditions of
    // the enclosing branches, path_, hold) for which `c` holds too; -1 when unknown. Conditions
    // are split into conjuncts, and conjuncts sharing no loop variable are counted separately
    // (a guard on x and one on y: two small enumerations instead of one over x * y).
    double fraction_true(const Expr &c) const {
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

    void visit(const IfThenElse *op) override {
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

    int memory_kind(const Allocate *op, int64_t bytes) const {
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

    void visit(const Allocate *op) override {
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

    void visit(const Store *op) override {
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

    // ---- one store ----------------------------------------------------------------------------

    // Fraction of the lanes a predicated store writes (a guarded vector tail), over the
    // iterations of the loops; 1 when unknown.
    double active_lanes(const Store *op, int lanes) const {
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

    void featurize(const Store *op, int lanes) {
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

    // Group 1 but the op counts: vectorized, unrolled, parallel and GPU loops around the store.
    void loop_features(Row &r) const {
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

    // ---- accesses -------------------------------------------------------------------------------

    const BufferShape &shape_of(const std::string &name) {
        auto it = shapes_.find(name);
        if (it == shapes_.end()) it = shapes_.emplace(name, BufferShape{{int64_t(1) << 40}}).first;
        return it->second;
    }

    // The store (written) and the loads of its value, merged per buffer as Ansor does: a buffer
    // both written and read is ReadWrite and keeps only the store's index.
    std::vector<BufferUse> accesses(const Store *op) {
        std::vector<BufferUse> uses;
        BufferUse w;
        w.name = op->name;
        w.type = AccessType::Write;
        w.elem_bytes = op->value.type().bytes();
        w.indices.push_back(analyse(op->index));
        uses.push_back(w);
        LoadCollector lc;
        op->value.accept(&lc);
        for (const Load *l : lc.loads) {
            auto it = std::find_if(uses.begin(), uses.end(), [&](const BufferUse &u) { return u.name == l->name; });
            if (it == uses.end()) {
                BufferUse u;
                u.name = l->name;
                u.type = AccessType::Read;
                u.elem_bytes = l->type.bytes();
                u.indices.push_back(analyse(l->index));
                uses.push_back(u);
            } else if (it->type == AccessType::Write) {
                it->type = AccessType::ReadWrite;
            } else if (it->type == AccessType::Read) {
                it->indices.push_back(analyse(l->index));
            }
        }
        return uses;
    }

    Expr at_loop_points(const Expr &e, bool middle) const {
        std::map<std::string, Expr> v;
        for (const Loop &l : stack_) v[l.var] = i32(l.min + (middle ? l.extent / 2 : 0));
        return simplify(substitute(v, e));
    }

    // A flat index as a scalar expression of the loop variables, with its coefficients.
    IndexInfo analyse(const Expr &raw) const {
        IndexInfo info;
        Expr e = expand(raw);
        const bool has_lanes = !stack_.empty() && stack_.back().var == kLaneVar;
        if (e.type().is_vector()) {
            Expr e0 = simplify(extract_lane(e, 0));
            Expr step = simplify(extract_lane(e, 1) - e0);
            if (!as_const_int(step)) step = at_loop_points(step, true);
            // Ansor's stride when it cannot find the coefficient is 2.
            if (!as_const_int(step)) step = Expr(2);
            const Ramp *ramp = e.as<Ramp>();
            if (has_lanes && !(ramp && ramp->base.type().is_scalar()) && !e.as<Broadcast>()) {
                // The lane loop keeps the step of the first two lanes (the innermost vectorized
                // loop); the region uses every lane's offset.
                const int lanes = e.type().lanes();
                bool even = true;
                for (int i = 0; i < lanes; i++) {
                    std::optional<int64_t> o = constant_value(extract_lane(e, i) - e0);
                    if (!o) {
                        info.lane_offsets.clear();
                        even = true;
                        break;
                    }
                    info.lane_offsets.push_back(*o);
                    even = even && *o == i * *as_const_int(step);
                }
                if (even) info.lane_offsets.clear();
            }
            e = has_lanes ? simplify(e0 + step * Variable::make(Int(32), kLaneVar)) : e0;
        }
        info.index = e;
        for (const Loop &l : stack_) {
            const bool uses = expr_uses_var(e, l.var);
            info.uses.push_back(uses);
            std::optional<int64_t> coef = 0;
            int64_t stride = 0;
            if (uses) {
                Expr v = Variable::make(Int(32), l.var);
                Expr d = simplify(substitute(l.var, v + 1, e) - e);
                coef = as_const_int(d) ? std::optional<int64_t>(*as_const_int(d)) : std::nullopt;
                if (coef) {
                    stride = std::abs(*coef);
                } else {
                    Expr mid = at_loop_points(d, true);
                    stride = as_const_int(mid) ? std::abs(*as_const_int(mid)) : 2;
                }
            }
            info.coef.push_back(coef);
            info.stride.push_back(stride);
        }
        Expr base = at_loop_points(e, false);
        if (as_const_int(base)) info.base = *as_const_int(base);
        return info;
    }

    // Ansor's ComputeRegion: per dimension, the union over the buffer's indices.
    std::vector<DimRange> region(const BufferUse &u, int level) {
        const BufferShape &s = shape_of(u.name);
        std::vector<DimRange> box;
        for (const IndexInfo &idx : u.indices) {
            std::vector<DimRange> b = index_region(idx, s, level);
            if (box.empty()) {
                box = b;
            } else {
                for (size_t d = 0; d < box.size(); d++) {
                    box[d].lo = std::min(box[d].lo, b[d].lo);
                    box[d].hi = std::max(box[d].hi, b[d].hi);
                }
            }
        }
        return box;
    }

    std::vector<DimRange> index_region(const IndexInfo &idx, const BufferShape &s, int level) {
        bool affine = idx.base.has_value();
        for (int j = level; j < (int)stack_.size(); j++) affine = affine && idx.coef[j].has_value();
        const std::vector<int64_t> st = s.strides();
        // The lanes of an uneven vector index: the bounding box of their offsets.
        const bool lane_block = !idx.lane_offsets.empty();
        const int64_t lo_offset = lane_block ? *std::min_element(idx.lane_offsets.begin(), idx.lane_offsets.end()) : 0;
        const int64_t hi_offset = lane_block ? *std::max_element(idx.lane_offsets.begin(), idx.lane_offsets.end()) : 0;
        if (affine) {
            // Each loop moves the index along the dimension its coefficient is a stride of.
            std::vector<DimRange> box;
            for (int64_t x : coordinates(*idx.base, s)) box.push_back({x, x});
            for (int64_t o : idx.lane_offsets) {
                std::vector<int64_t> c = coordinates(*idx.base + o, s);
                for (size_t d = 0; d < c.size(); d++) {
                    box[d].lo = std::min(box[d].lo, c[d]);
                    box[d].hi = std::max(box[d].hi, c[d]);
                }
            }
            for (int j = level; j < (int)stack_.size(); j++) {
                if (lane_block && stack_[j].var == kLaneVar) continue;
                const int64_t a = *idx.coef[j];
                if (a == 0 || stack_[j].extent <= 1) continue;
                int d = (int)st.size() - 1;
                while (d > 0 && st[d] > std::abs(a)) d--;
                const int64_t span = a / st[d] * (stack_[j].extent - 1);
                (span > 0 ? box[d].hi : box[d].lo) += span;
            }
            return box;
        }
        // Otherwise the bounds of the flat index, outer loops at their first iteration.
        std::map<std::string, Expr> first;
        for (int j = 0; j < level; j++) first[stack_[j].var] = i32(stack_[j].min);
        if (lane_block) first[kLaneVar] = i32(0);
        Interval i = bounds_of_expr_in_scope(simplify(substitute(first, idx.index)), loop_bounds_);
        if (i.is_bounded()) {
            // (constant_value keeps the value: as_const_int would point into a temporary.)
            std::optional<int64_t> lo = constant_value(i.min), hi = constant_value(i.max);
            if (lo && hi) return box_of_interval(*lo + lo_offset, *hi + hi_offset, s);
        }
        return full_box(s);
    }

    // Ansor's ComputeStride: the smallest |coefficient| of the loop's variable over the indices.
    static int64_t stride_of(const BufferUse &u, int loop) {
        int64_t s = 0;
        bool found = false;
        for (const IndexInfo &idx : u.indices) {
            if (!idx.uses[loop]) continue;
            s = found ? std::min(s, idx.stride[loop]) : idx.stride[loop];
            found = true;
        }
        return found ? s : 0;
    }

    AccessFeature access_feature(const BufferUse &u, const std::vector<DimRange> &outer_box, double prod) {
        const int n = (int)stack_.size();
        const double elem = u.elem_bytes, line = opt_.cache_line_bytes;
        AccessFeature f;
        f.buffer = u.name;
        f.type = u.type;
        f.bytes = prod * elem;  // one access per store instance, as in Ansor
        if (n == 0) {
            f.unique_bytes = elem;
            f.stride = 0;
            f.lines = f.unique_lines = 1;
        } else {
            const BufferShape &s = shape_of(u.name);
            // Deliberately this store's own region of the buffer (Ansor takes the first entry
            // recorded under the outermost loop, which may belong to an earlier store).
            f.unique_bytes = (double)elements(outer_box, s) * elem;
            // Walk out from the innermost loop to the first that moves the access; the loops
            // skipped re-touch the same line. (Ansor multiplies by the innermost loop's extent
            // at every skipped level; the skipped loop's own extent is used here.)
            int64_t stride = 0;
            double reduce = 1;
            int i = n - 1;
            for (; i >= 0; i--) {
                stride = stride_of(u, i);
                if (stride != 0) break;
                reduce *= (double)stack_[i].extent;
            }
            f.lines = std::max(1.0, prod / reduce * std::min(1.0, (double)stride * elem / line));
            f.stride = i == n - 1 ? (double)stride : 0;
            // Contiguous bytes of the touched region: the innermost dimensions the region
            // covers entirely, and the first one it covers in part. (Ansor uses the first fully
            // covered dimension of the last buffer it looked at.)
            double contiguous = elem;
            for (size_t d = 0; d < outer_box.size(); d++) {
                const int64_t span =
                    std::clamp<int64_t>(outer_box[d].hi - outer_box[d].lo + 1, 1, std::max<int64_t>(1, s.extents[d]));
                contiguous *= (double)span;
                if (span < s.extents[d]) break;
            }
            f.unique_lines = std::max(1.0, f.unique_bytes / std::min(contiguous, line));
        }
        reuse(u, &f);
        return f;
    }

    // Ansor's ComputeReuse.
    void reuse(const BufferUse &u, AccessFeature *f) {
        double dis_iter = 1, dis_bytes = -1;
        for (int i = (int)stack_.size() - 1; i >= 0; i--) {
            const std::map<std::string, std::vector<TouchEntry>> &touched = touch_[stack_[i].key];
            const double extent = (double)stack_[i].extent;
            bool moves = false;
            for (const IndexInfo &idx : u.indices) moves = moves || idx.uses[i];
            if (moves) {
                dis_iter *= extent;
                dis_bytes = 0;
                for (const auto &kv : touched) {
                    for (const TouchEntry &t : kv.second) dis_bytes += (double)t.elems * t.bytes;
                }
            } else {
                // Every iteration of this loop reads the same elements again.
                if (dis_bytes < 0) {
                    dis_bytes = 0;
                    for (const auto &kv : touched) {
                        for (const TouchEntry &t : kv.second) dis_bytes += t.bytes;
                    }
                }
                f->reuse = ReuseType::LoopMultipleRead;
                f->reuse_dis_iter = dis_iter;
                f->reuse_dis_bytes = dis_bytes;
                f->reuse_ct = extent;
                return;
            }
            // Several stores under this loop touch the buffer one after the other.
            const std::vector<TouchEntry> &mine = touched.at(u.name);
            if (mine.size() > 1) {
                double least = INFINITY, total = 0;
                for (const TouchEntry &t : mine) least = std::min(least, (double)t.elems);
                for (const auto &kv : touched) {
                    for (const TouchEntry &t : kv.second) total += (double)t.elems * t.bytes;
                }
                f->reuse = ReuseType::SerialMultipleReadWrite;
                f->reuse_dis_iter = least / extent;
                f->reuse_dis_bytes = total / extent;
                f->reuse_ct = (double)(mine.size() - 1);
                return;
            }
        }
        f->reuse = ReuseType::NoReuse;
        f->reuse_dis_iter = f->reuse_dis_bytes = f->reuse_ct = 0;
    }

    // Group 2: the five buffers with the most lines (then bytes); ties keep the access order.
    static void buffer_features(Row &r, std::vector<AccessFeature> feas) {
        std::stable_sort(feas.begin(), feas.end(), [](const AccessFeature &a, const AccessFeature &b) {
            return a.lines > b.lines || (a.lines == b.lines && a.bytes > b.bytes);
        });
        for (int b = 0; b < kAnsorMaxBuffers; b++) {
            double *x = &r.f[kBuffers + b * kAnsorBufferFeatureCount];
            std::fill(x, x + kAnsorBufferFeatureCount, 0.0);
            r.slots[b].clear();
            if (b >= (int)feas.size()) continue;
            const AccessFeature &a = feas[b];
            r.slots[b] = a.buffer;
            x[kAccType + (int)a.type] = 1;
            x[kBytes] = a.bytes;
            x[kUniqueBytes] = a.unique_bytes;
            x[kLines] = a.lines;
            x[kUniqueLines] = a.unique_lines;
            x[kReuseType + (int)a.reuse] = 1;
            x[kReuseDisIter] = a.reuse_dis_iter;
            x[kReuseDisBytes] = a.reuse_dis_bytes;
            x[kReuseCt] = a.reuse_ct;
            // Ansor: divide by the reuse count, or multiply by 2 when there is no reuse.
            const double scale = a.reuse_ct > 0.5 ? 1.0 / a.reuse_ct : 2.0;
            x[kBytesDReuse] = a.bytes * scale;
            x[kUniqueBytesDReuse] = a.unique_bytes * scale;
            x[kLinesDReuse] = a.lines * scale;
            x[kUniqueLinesDReuse] = a.unique_lines * scale;
            x[kStride] = a.stride;
        }
    }

    // Group 3: float ops over bytes touched, at each loop level from the innermost out, sampled
    // at 10 evenly spaced op counts and linearly interpolated (Ansor's curve).
    static void arithmetic_intensity(Row &r, double float_ops, const std::vector<double> &ops,
                                     const std::vector<double> &bytes) {
        double *curve = &r.f[kArithCurve];
        std::fill(curve, curve + kArithPoints, 0.0);
        if (float_ops <= 0 || ops.empty()) return;
        size_t pt = 0;
        for (int i = 0; i < kArithPoints; i++) {
            const double x = ops.back() * (i + 1) / kArithPoints;
            while (pt + 1 < ops.size() && ops[pt] < x - 1e-4) pt++;
            if (pt == 0) {
                curve[i] = ops[0] / bytes[0];
            } else {
                const double base = ops[pt - 1] / bytes[pt - 1];
                const double slope = (ops[pt] / bytes[pt] - base) / (ops[pt] - ops[pt - 1]);
                curve[i] = base + slope * (x - ops[pt - 1]);
            }
        }
    }
};

}  // namespace

float log2p(float x) {
    return x < 0 ? -std::log2(-x + 1) : std::log2(x + 1);
}

const std::vector<std::string> &ansor_feature_names() {
    static const std::vector<std::string> names = make_ansor_names();
    return names;
}

const std::vector<std::string> &halide_feature_names() {
    static const std::vector<std::string> names = {
        "mem.none",         "mem.heap",    "mem.stack",       "mem.register",         "mem.gpu_shared", "mem.other",
        "predicated_stores", "predicated_loads", "gpu_kernels", "vector_shuffles", "strided_vector_loads"};
    return names;
}

int ansor_feature_index(const std::string &name) {
    const auto &n = ansor_feature_names();
    auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : (int)(it - n.begin());
}

int halide_feature_index(const std::string &name) {
    const auto &n = halide_feature_names();
    auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : (int)(it - n.begin());
}

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
