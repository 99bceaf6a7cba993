#include "analysis/RecomputeCost.h"
#include "analysis/ParamRanges.h"

#include <functional>
#include <set>
#include <vector>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Math-library calls that compile to one or two instructions on the targets Diet schedules for.
bool is_instruction_like(const std::string &name) {
    for (const char *prefix : {"sqrt_f", "floor_f", "ceil_f", "round_f", "trunc_f", "is_nan_f", "is_inf_f", "is_finite_f"}) {
        if (name.rfind(prefix, 0) == 0) return true;
    }
    return false;
}

struct MathCalls : IRVisitor {
    bool expensive = false;
    using IRVisitor::visit;
    void visit(const Call *c) override {
        if ((c->call_type == Call::PureExtern || c->call_type == Call::Extern || c->call_type == Call::ExternCPlusPlus) &&
            !is_instruction_like(c->name)) {
            expensive = true;
        }
        IRVisitor::visit(c);
    }
    // An integer division or remainder by a value known only at run time: x86 has no vector
    // integer division, so each lane is a scalar divide (tens of cycles); by a constant it is a
    // multiply and shifts. (A Func computing x % T read at two points, inlined, ran 3x slower
    // than computed once per point: red-team probe, param_extent_and_value.)
    void visit(const Div *d) override {
        note_division(d->type, d->b);
        IRVisitor::visit(d);
    }
    void visit(const Mod *m) override {
        note_division(m->type, m->b);
        IRVisitor::visit(m);
    }
    void note_division(const Type &t, const Expr &divisor) {
        if (!t.is_float() && !is_const(simplify(divisor))) expensive = true;
    }
};

// A variable, or a variable plus a constant.
bool is_shifted_var(const Expr &e) {
    if (e.as<Variable>()) return true;
    const Add *a = e.as<Add>();
    return a && a->a.as<Variable>() && is_const(a->b);
}

// Whether `e` reads no loop variable: constants and Params only (a window's radius).
bool loop_invariant(const Expr &e) {
    struct LoopVars : IRVisitor {
        bool found = false;
        using IRVisitor::visit;
        void visit(const Variable *v) override { found |= !v->param.defined(); }
    } vars;
    e.accept(&vars);
    return !vars.found;
}

// Whether coordinate `e` (lets substituted) is one Halide's bounds inference can only bound
// loosely: it reads an image (data-dependent: the type's whole range) or a Func whose value is
// itself so (or has updates), or it is not affine in the loop variables (a product of two
// factors that both move with them, a division by one, a non-monotonic math call of one: a lens
// model's r^2 = ux * ux + uy * uy). Each such step widens its interval: a lens remap's boundary
// condition, computed over the region Halide derived for its reads, filled 7-60x the image per
// call (red-team round 15: 251-497 ms against Mullapudi2016's 2.3-4.3 with it inlined). A clamp
// at the top (min/max) bounds it again; a table of constants (FAST-9's circle offsets) is tight.
bool loosely_bounded_coordinate(const Expr &e, int depth = 0) {
    if (e.as<Min>() || e.as<Max>()) return false;
    if (depth > 8) return true;
    struct Finder : IRVisitor {
        int depth = 0;
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Image) {
                found = true;
            } else if (c->call_type == Call::Halide && c->func.defined()) {
                const Function f(c->func);
                if (!f.has_pure_definition() || f.has_update_definition() || f.has_extern_definition()) {
                    found = true;
                } else {
                    for (const Expr &v : f.values()) found |= loosely_bounded_coordinate(v, depth + 1);
                }
            } else if (c->call_type == Call::PureExtern && !c->args.empty() && !loop_invariant(c->args[0])) {
                // Monotonic functions keep an interval's ends; the others (sin, pow, atan2) do not.
                static const char *monotonic[] = {"floor", "ceil", "round", "trunc", "sqrt", "exp", "log"};
                bool kept = false;
                for (const char *m : monotonic) kept |= c->name.rfind(m, 0) == 0;
                found |= !kept;
            }
            IRVisitor::visit(c);
        }
        void visit(const Load *) override { found = true; }
        void visit(const Mul *m) override {
            found |= !loop_invariant(m->a) && !loop_invariant(m->b);
            IRVisitor::visit(m);
        }
        void visit(const Div *d) override {
            found |= !loop_invariant(d->b);
            IRVisitor::visit(d);
        }
        void visit(const Mod *d) override {
            found |= !loop_invariant(d->b);
            IRVisitor::visit(d);
        }
    } finder;
    finder.depth = depth;
    e.accept(&finder);
    return finder.found;
}

// A variable (not a Param), or one plus or minus a loop-invariant offset: a window's centre
// written x + r.x - R with R a Param.
bool is_var_shifted_by_invariant(const Expr &e) {
    const auto loop_var = [](const Expr &v) {
        const Variable *var = v.as<Variable>();
        return var && !var->param.defined();
    };
    if (loop_var(e)) return true;
    if (const Add *a = e.as<Add>()) {
        return (loop_var(a->a) && loop_invariant(a->b)) || (loop_var(a->b) && loop_invariant(a->a));
    }
    const Sub *s = e.as<Sub>();
    return s && loop_var(s->a) && loop_invariant(s->b);
}

// Heuristic (named): the largest constant factor a resampling coordinate scales by (4x
// decimation or upsampling; Halide 14 turns vectors at strides 2-4 into dense loads and shuffles
// from a buffer it allocated, never from an input it cannot read past).
constexpr int64_t kResampleFactor = 4;

// A window's centre resampled by a constant factor: a variable shifted by a loop invariant, times
// or divided by a constant of at most kResampleFactor, possibly shifted again (2 * x + 1,
// x / 2 - 1, 2 * (x / 2 + r.x) with r.x removed). Halide bounds such coordinates tightly, as it
// does shifted ones. Read through an inlined boundary condition a downsampling window's taps are
// vectors at stride 2 from the input: Halide 14 loads them lane by lane (it cannot prove a dense
// load past the lanes stays inside an input), where from the condition computed per tile they are
// dense loads and shuffles (red-team round 15's joint bilateral upsampling reads its u8 guide at
// 2 * (x / 2 + r.x): 1.8-1.9x Mullapudi2016's time with it inlined, 1.0x computed).
bool is_resampled_var(const Expr &e) {
    if (is_var_shifted_by_invariant(e)) return true;
    const auto factor = [](const Expr &k) {
        const int64_t *v = as_const_int(k);
        return v && *v != 0 && *v >= -kResampleFactor && *v <= kResampleFactor;
    };
    if (const Mul *m = e.as<Mul>()) {
        return (factor(m->b) && is_resampled_var(m->a)) || (factor(m->a) && is_resampled_var(m->b));
    }
    if (const Div *d = e.as<Div>()) {
        const int64_t *v = as_const_int(d->b);
        return v && *v > 0 && *v <= kResampleFactor && is_resampled_var(d->a);
    }
    if (const Add *a = e.as<Add>()) {
        return (loop_invariant(a->b) && is_resampled_var(a->a)) || (loop_invariant(a->a) && is_resampled_var(a->b));
    }
    const Sub *s = e.as<Sub>();
    return s && loop_invariant(s->b) && is_resampled_var(s->a);
}

// The points of `producer` one point of a consumer reads. A read is a stencil's tap when each
// coordinate is constant or one of the consumer's variables plus a constant or a Param (a dilated
// stencil's x + K), possibly resampled by a constant factor (a decimation's 2 * x + 1); taps
// differing only in constant coordinates (the channels of one pixel) are one point. A read whose coordinates move with reduction variables is a window when the
// coordinates shaped like a filter's taps (a pure variable plus one reduction variable plus a
// constant or a Param: x + r.x - 1, x + r.x - R; or resampled by a constant factor:
// 2 * x + r.x, x / 2 + r.x, is_resampled_var) span at most
// kWindowPoints points; coordinates picked by a reduction variable otherwise (a convolution's
// input channel r.z, or a group's (co / 8) * 8 + r.z) are its depth, not its window: a 3x3 grouped
// convolution over 8 channels per group reads a 9-point window (its zero padding, inlined, put a
// select and clamped gathers in every multiply-add: 11x slower than Adams2019, red-team round 3).
// Other reads (at data-dependent coordinates, or offset by another variable, e.g. non-local
// means' search offsets) are not counted: their cost is not a stencil's.
struct Reads : IRVisitor {
    std::string producer;
    std::vector<std::vector<Expr>> points;
    bool windowed = false;
    bool loosely_bounded = false;  // some read at a loosely_bounded_coordinate (lets substituted)
    using IRVisitor::visit;
    void visit(const Call *c) override {
        IRVisitor::visit(c);
        if (c->call_type != Call::Halide || c->name != producer) return;
        for (const Expr &a : c->args) loosely_bounded |= loosely_bounded_coordinate(a);
        std::vector<Expr> key;
        bool tap = true, moves_with_rvar = false;
        std::map<std::string, int64_t> window_rvars;  // in tap-shaped coordinates, with extents
        for (const Expr &a : c->args) {
            const Expr e = simplify(a);
            if (is_const(e)) continue;
            const std::map<std::string, int64_t> rvars = rvars_of(e);
            if (!rvars.empty()) {
                moves_with_rvar = true;
                // (Offset by a Param too: a radius R in its range, x + r.x - R; the window's
                // extent is then its largest over the ranges. A 7 x 7 erosion so inlined its
                // boundary condition's select into each of 128 lanes per step: 5x slower than
                // computing it per tile, and 28 s of JIT: red-team round 10.)
                if (rvars.size() == 1 && is_resampled_var(simplify(without_rvars(e)))) {
                    window_rvars.insert(*rvars.begin());
                }
                continue;
            }
            // A tap clamped by hand (max(x - 1, 0), min(x + 1, W - 1), clamp(x + 2, 0, W - 1)) is
            // the tap: a 3-tap blur over a concatenation of two inputs read that way inlined
            // the concatenation's select and clamps into each tap, its loads gathered (2.5x
            // slower than Mullapudi2016, red-team round 3).
            const Expr core = without_hand_clamps(e);
            tap &= is_resampled_var(core);
            key.push_back(core);
        }
        if (moves_with_rvar) {
            int64_t window = window_rvars.empty() ? kWindowPoints + 1 : 1;
            // (Saturating: two unbounded extents, 2^40 each, overflowed to a 0-point window.)
            constexpr int64_t kUnbounded = int64_t(1) << 40;
            for (const auto &[name, extent] : window_rvars) {
                const int64_t e = std::max<int64_t>(extent, 1);
                window = e > kUnbounded / window ? kUnbounded : std::min(window * e, kUnbounded);
            }
            windowed |= window <= kWindowPoints;
            return;
        }
        if (!tap) return;
        for (const std::vector<Expr> &p : points) {
            bool same = p.size() == key.size();
            for (size_t i = 0; same && i < p.size(); i++) same = graph_equal(p[i], key[i]);
            if (same) return;
        }
        points.push_back(key);
    }
    // `e` without min() and max() against bounds that are not a variable plus a constant (what
    // clamp() lowers to), where the other side is such a variable.
    static Expr without_hand_clamps(const Expr &e) {
        const auto core = [](const Expr &a, const Expr &b) -> Expr {
            const Expr ia = without_hand_clamps(a), ib = without_hand_clamps(b);
            if (is_shifted_var(ia) && !is_shifted_var(ib)) return ia;
            if (is_shifted_var(ib) && !is_shifted_var(ia)) return ib;
            return Expr();
        };
        Expr c;
        if (const Min *m = e.as<Min>()) c = core(m->a, m->b);
        else if (const Max *m = e.as<Max>()) c = core(m->a, m->b);
        // The simplifier moves the offset out: max(x - 1, 0) is max(x, 1) + -1.
        else if (const Add *a = e.as<Add>(); a && is_const(a->b) && (a->a.as<Min>() || a->a.as<Max>())) {
            const Expr inner = without_hand_clamps(a->a);
            if (!inner.same_as(a->a)) c = simplify(inner + a->b);
        }
        return c.defined() ? c : e;
    }
    // The reduction variables an expression moves with, by name, with their extents: the largest
    // over the Params' ranges where they are run-time values (2^40 where unbounded).
    static std::map<std::string, int64_t> rvars_of(const Expr &e) {
        struct RVars : IRVisitor {
            std::map<std::string, int64_t> found;
            using IRVisitor::visit;
            void visit(const Variable *v) override {
                if (!v->reduction_domain.defined()) return;
                for (const ReductionVariable &r : v->reduction_domain.domain()) {
                    if (r.var != v->name) continue;
                    found[v->name] = largest_over_param_ranges(r.extent).value_or(int64_t(1) << 40);
                }
            }
        } r;
        e.accept(&r);
        return r.found;
    }
    // `e` with every reduction variable replaced by 0.
    static Expr without_rvars(const Expr &e) {
        struct Zero : IRMutator {
            using IRMutator::visit;
            Expr visit(const Variable *v) override {
                return v->reduction_domain.defined() ? make_zero(v->type) : Expr(v);
            }
        } z;
        return z.mutate(e);
    }
};

}  // namespace

bool cheap_to_recompute(const Function &f) {
    MathCalls calls;
    for (const Expr &v : f.definition().values()) v.accept(&calls);
    return !calls.expensive;
}

double recompute_ops(const Function &f) {
    struct Ops : IRVisitor {
        double ops = 0;
        using IRVisitor::visit;
        void count(double w) { ops += w; }
        void visit(const Add *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Sub *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Mul *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Div *op) override { count(8); IRVisitor::visit(op); }
        void visit(const Mod *op) override { count(8); IRVisitor::visit(op); }
        void visit(const Min *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Max *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Select *op) override { count(1); IRVisitor::visit(op); }
        void visit(const LT *op) override { count(1); IRVisitor::visit(op); }
        void visit(const LE *op) override { count(1); IRVisitor::visit(op); }
        void visit(const EQ *op) override { count(1); IRVisitor::visit(op); }
        void visit(const NE *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Call *op) override {
            if (op->call_type == Call::PureExtern) count(8);
            else if (op->call_type != Call::Halide && op->call_type != Call::Image && !op->is_intrinsic(Call::likely) &&
                     !op->is_intrinsic(Call::likely_if_innermost)) {
                count(1);  // a bitwise or shift intrinsic
            }
            IRVisitor::visit(op);
        }
    } ops;
    for (const Expr &v : f.values()) v.accept(&ops);
    return ops.ops;
}

bool is_relay(const Function &f) {
    if (!f.has_pure_definition() || f.values().size() != 1) return false;
    const Call *c = f.values()[0].as<Call>();
    if (!c || (c->call_type != Call::Halide && c->call_type != Call::Image)) return false;
    for (const Expr &a : c->args) {
        if (!is_shifted_var(simplify(a))) return false;
    }
    return true;
}

int taps_read(const Function &consumer, const std::string &producer) {
    if (!consumer.has_pure_definition()) return 0;
    Reads reads, expanded;
    reads.producer = expanded.producer = producer;
    // The taps as written: Halide CSEs every definition, and a coordinate bound by a let (a
    // bilinear upsample's select(x % 2 == 0, x / 2 - 1, x / 2)) counts as a tap of its own.
    consumer.definition().accept(&reads);
    for (const Definition &u : consumer.updates()) u.accept(&reads);
    // The window with the lets substituted: a window read twice (sum(ix(x + r.x, y + r.y) *
    // it(x + r.x, y + r.y))) reads at let-bound coordinates, in which no reduction variable
    // shows (red-team round 14's Lucas-Kanade inlined its temporal difference into every tap of
    // two window sums).
    accept_without_lets(consumer.definition(), &expanded);
    for (const Definition &u : consumer.updates()) accept_without_lets(u, &expanded);
    reads.windowed |= expanded.windowed;
    // Read at coordinates Halide bounds only loosely, the producer computed over their region
    // would cover far more than is read: no taps to materialize (it stays inlined, as an input
    // wrapper).
    if (expanded.loosely_bounded) return 0;
    return reads.windowed ? std::max<int>(kTapsToMaterialize, (int)reads.points.size()) : (int)reads.points.size();
}

void mark_input_wrappers(std::vector<FuncNode> &nodes, const std::map<std::string, int> &index) {
    struct CallSites : IRVisitor {
        std::map<std::string, int> sites;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Halide) sites[c->name]++;
            IRVisitor::visit(c);
        }
    };
    for (FuncNode &n : nodes) {
        n.is_input_wrapper = !n.is_extern && !n.has_updates() && !n.is_output && cheap_to_recompute(n.func);
        for (const std::string &p : n.producers) n.is_input_wrapper &= nodes[index.at(p)].is_input_wrapper;
        if (!n.is_input_wrapper) continue;
        CallSites calls;
        n.func.definition().accept(&calls);
        for (const auto &[name, count] : calls.sites) n.is_input_wrapper &= count == 1;
    }
    // The taps a consumer reads `producer` at, looked at through the relays between them (a
    // user's `f.in()` or `f.in(g)` wrapper, a plain copy), which stay inlined and read one point
    // each: red-team round 21's Sobel read its padded image through `pad.in(gx)`, `pad.in(gy)`;
    // the window's six taps were on the wrappers, the padding was inlined into every tap (a
    // clamped gather per load) and the pipeline ran 5.3x its time without the wrappers (4.15 ms
    // against 0.79 at 640 x 480 x 4, AVX2: apps/results/cpu/redteam21_2026-12-07/repro_sobel21.out).
    const std::function<int(const FuncNode &, const FuncNode &)> taps_through_relays = [&](const FuncNode &cn,
                                                                                          const FuncNode &producer) {
        if (!(cn.is_input_wrapper && is_relay(cn.func))) return taps_read(cn.func, producer.name);
        int most = 0;
        for (const std::string &c : cn.consumers) {
            const FuncNode &next = nodes[index.at(c)];
            if (!next.is_extern) most = std::max(most, taps_through_relays(next, cn));
        }
        return most;
    };
    for (FuncNode &n : nodes) {
        if (!n.is_input_wrapper) continue;
        const bool relay = is_relay(n.func);
        for (const std::string &c : n.consumers) {
            const FuncNode &cn = nodes[index.at(c)];
            if (cn.is_extern || (!relay && taps_through_relays(cn, n) >= kTapsToMaterialize)) {
                n.is_input_wrapper = false;
                n.wrapper_read_at_taps = !cn.is_extern;
                break;
            }
        }
    }
}

// A boundary condition read at a convolution's window taps is not inlined (mark_input_wrappers)
// so that a stencil computes it once per tile. Where every reader is a contraction that copies
// it per task (a computed operand it does not materialize: OperandStaging.cpp), the copy already
// evaluates it once per element of the tile: computing it at root as well would be a second
// pass over the whole input (a depthwise convolution read it twice). It is inlined again.
void inline_staged_operands(std::vector<FuncNode> &nodes, const std::vector<MatmulPattern> &matmuls) {
    std::set<std::pair<std::string, std::string>> staged_by;  // (reader, operand Func)
    for (const MatmulPattern &p : matmuls) {
        for (const ContractionOperand &o : p.operands) {
            if (o.computed && o.via.empty()) staged_by.emplace(p.acc, o.func);
        }
    }
    for (FuncNode &n : nodes) {
        if (!n.wrapper_read_at_taps || n.consumers.empty()) continue;
        bool staged = true;
        for (const std::string &c : n.consumers) staged &= staged_by.count({c, n.name}) > 0;
        if (!staged) continue;
        n.is_input_wrapper = true;
        n.wrapper_read_at_taps = false;
    }
}

}  // namespace diet
