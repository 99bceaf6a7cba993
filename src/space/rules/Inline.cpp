// The inline rule: Halide's default for a Func that is cheap to recompute where it is read.
#include "space/rules/RuleContext.h"
#include "analysis/Loads.h"
#include "analysis/GatherIndex.h"
#include "analysis/RecomputeCost.h"
#include "analysis/ParamRanges.h"
#include "analysis/Regions.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace diet {

namespace {

using namespace Halide::Internal;

// Whether `n`'s one consumer reads it once, in one update, at one point made of that update's loop
// variables each once (its pure variables and reduction variables: `am(i) = argmin(d(r, i))`): every point of
// `n` is then read exactly once, and inlined it is computed once, where it is read, rather than
// stored whole and read back (red-team round 6: a 1-NN search's 2000 x 2000 distances, 16 MB,
// computed at root serially and read with strided gathers, 4.8x Adams2019's time).
bool read_once_by_a_reduction(const FunctionDAG &dag, const FuncNode &n) {
    if (n.consumers.size() != 1) return false;
    const FuncNode &c = dag.node(*n.consumers.begin());
    if (c.is_extern || !c.has_updates()) return false;
    struct Calls : IRVisitor {
        std::string name;
        std::vector<const Call *> found;
        using IRVisitor::visit;
        void visit(const Call *call) override {
            if (call->call_type == Call::Halide && call->name == name) found.push_back(call);
            IRVisitor::visit(call);
        }
    };
    const auto calls_in = [&](const Definition &d) {
        Calls v;
        v.name = n.name;
        d.accept(&v);
        return v.found;
    };
    if (!calls_in(c.func.definition()).empty()) return false;
    const Definition *reader = nullptr;
    std::vector<const Call *> reads;
    for (const Definition &u : c.func.updates()) {
        std::vector<const Call *> here = calls_in(u);
        if (here.empty()) continue;
        if (reader) return false;
        // Several reads at the same point (an argmin's comparison and its value) are one value once
        // inlined: Halide's CSE shares them.
        for (const Call *other : here) {
            if (other->args.size() != here.front()->args.size()) return false;
            for (size_t i = 0; i < other->args.size(); i++) {
                if (!equal(other->args[i], here.front()->args[i])) return false;
            }
        }
        reader = &u;
        reads = here;
    }
    if (!reader) return false;
    std::set<std::string> loop_vars;
    for (const Halide::Expr &a : reader->args()) {
        const Variable *v = a.as<Variable>();
        if (v && !v->reduction_domain.defined()) loop_vars.insert(v->name);
    }
    for (const ReductionVariable &rv : reader->schedule().rvars()) loop_vars.insert(rv.var);
    std::set<std::string> used;
    for (const Halide::Expr &a : reads.front()->args) {
        const Variable *v = a.as<Variable>();
        if (!v || !loop_vars.count(v->name) || !used.insert(v->name).second) return false;
    }
    return used == loop_vars;
}

// The tree size of expressions, each occurrence of a shared subexpression counted again (Halide's
// lowering passes walk them as trees), a call to an inlined Func counted as the size of the value
// it is replaced by. Memoized per node, so a DAG of exponential tree size is counted in linear time.
class ExpandedNodes : public IRGraphVisitor {
public:
    explicit ExpandedNodes(const std::map<std::string, std::vector<double>> &inlined_sizes) : sizes_(inlined_sizes) {}
    double of(const Halide::Expr &e) {
        total_ = 0;
        include(e);
        return total_;
    }

protected:
    using IRGraphVisitor::include;
    using IRGraphVisitor::visit;
    void include(const Halide::Expr &e) override {
        auto it = memo_.find(e.get());
        if (it != memo_.end()) {
            total_ += it->second;
            return;
        }
        const double outer = total_;
        total_ = 0;
        e.accept(this);
        const double own = total_ + 1;
        memo_.emplace(e.get(), own);
        total_ = outer + own;
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            auto it = sizes_.find(op->name);
            if (it != sizes_.end() && op->value_index < (int)it->second.size()) total_ += it->second[op->value_index] - 1;
        }
        IRGraphVisitor::visit(op);
    }

private:
    const std::map<std::string, std::vector<double>> &sizes_;
    std::map<const IRNode *, double> memo_;
    double total_ = 0;
};

// A table: a Func that reads no Func or image and costs kGatherIndexOps or more per point (16
// offsets written as mux(k, {...}): 30 ops), some consumer reading it at coordinates that move
// with a reduction variable and with none of the consumer's pure variables: its region is the
// reduction's, however large the consumer's. Inlined, every step evaluates the whole select
// chain (red-team round 14's FAST-9: 4.5 ms; its two 16-entry offset tables computed, 2.6).
// Tables indexed by a pure variable too (per-column resampling weights, a hash of (x, y))
// stay to the other rules: computing them is a pass over the consumer's region (1.2-2.8x slower
// so, apps/results/cpu/table_funcs_2026-12-04/).
constexpr int64_t kUnrolledTableSteps = 8;

bool table_read_per_step(const FunctionDAG &dag, const FuncNode &n) {
    struct Finder : IRVisitor {
        std::string name;  // empty: any Func or image read; else reads of `name` at reduction-only coordinates
        std::vector<std::string> pure;  // the reader's pure variables
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            IRVisitor::visit(c);
            if (name.empty()) {
                found |= c->call_type == Call::Halide || c->call_type == Call::Image;
                return;
            }
            if (c->call_type != Call::Halide || c->name != name) return;
            struct Vars : IRVisitor {
                const std::vector<std::string> *pure = nullptr;
                std::map<std::string, Halide::Expr> rvars;  // by name, their extents
                bool pure_var = false;
                using IRVisitor::visit;
                void visit(const Variable *v) override {
                    if (v->reduction_domain.defined()) {
                        for (const ReductionVariable &r : v->reduction_domain.domain()) {
                            if (r.var == v->name) rvars.emplace(v->name, r.extent);
                        }
                    }
                    pure_var |= std::find(pure->begin(), pure->end(), v->name) != pure->end();
                }
            } vars;
            vars.pure = &pure;
            for (const Halide::Expr &a : c->args) a.accept(&vars);
            if (vars.rvars.empty() || vars.pure_var) return;
            // Steps few enough to be unrolled (schedule/GroupApplier.h kUnrolledWindow: 8) fold
            // the table's selects into constants inlined (Shi-Tomasi's 5 binomial weights
            // computed ran its small shape 1.34x slower).
            Halide::Expr steps = 1;
            for (const auto &[name, extent] : vars.rvars) steps = steps * extent;
            const std::optional<int64_t> most = largest_over_param_ranges(steps);
            found |= !most || *most > kUnrolledTableSteps;
        }
    };
    Finder reads;
    accept_without_lets(n.func.definition(), &reads);
    if (reads.found || ops_per_point(n) < kGatherIndexOps) return false;
    for (const std::string &c : n.consumers) {
        const FuncNode &cn = dag.node(c);
        if (cn.is_extern || !cn.func.has_pure_definition()) continue;
        Finder at_steps;
        at_steps.name = n.name;
        at_steps.pure = cn.func.args();
        accept_without_lets(cn.func.definition(), &at_steps);
        for (const Definition &u : cn.func.updates()) accept_without_lets(u, &at_steps);
        if (at_steps.found) return true;
    }
    return false;
}

// The arguments of every call `consumer` makes to `name` (values, left-hand arguments and
// predicates of every definition, lets substituted: analysis/Loads.h loads_in), by value.
std::vector<std::vector<Halide::Expr>> call_args(const FuncNode &consumer, const std::string &name) {
    std::vector<std::vector<Halide::Expr>> found;
    std::vector<Definition> defs = {consumer.func.definition()};
    defs.insert(defs.end(), consumer.func.updates().begin(), consumer.func.updates().end());
    for (const Definition &d : defs) {
        std::vector<Halide::Expr> exprs = d.values();
        exprs.insert(exprs.end(), d.args().begin(), d.args().end());
        if (d.predicate().defined()) exprs.push_back(d.predicate());
        for (const Halide::Expr &e : exprs) {
            const Halide::Expr plain = substitute_in_all_lets(e);  // alive while its calls are read
            for (const Call *c : loads_in(plain)) {
                if (c->call_type == Call::Halide && c->name == name) found.push_back(c->args);
            }
        }
    }
    return found;
}

// A heuristic (named): the most points of its consumer a broadcast Func is recomputed for, per
// point of its own (the colour channels of an RGB or RGBA image).
constexpr int64_t kMostBroadcastRecomputes = 4;

// Whether every consumer reads `n` at its own pure variables, each once, dropping only dimensions
// whose extent is at most kMostBroadcastRecomputes at the family's largest shape: a per-pixel
// value read by every channel of a pixel (HSV -> RGB's p, q, t read by the three channels' sector
// selects, `rgb(c, x, y)` reading `pqt(x, y)`). Inlined it is recomputed per channel, which for a
// Func without math-library calls costs less than storing it and loading it back: red-team round
// 15's HSV -> RGB ran 2.2x faster with its 3-Tuple inlined than computed at root (1.6x faster than
// computed per tile; interleaved and planar outputs alike, apps/results/cpu/broadcast_inline_2026-12-06/).
bool read_broadcast_per_channel(const RuleContext &cx, const FuncNode &n) {
    if (n.consumers.empty() || !cheap_to_recompute(n.func)) return false;
    for (const std::string &c : n.consumers) {
        if (!cx.dag.has(c)) return false;
        const FuncNode &cn = cx.dag.node(c);
        if (cn.is_extern || !cn.func.has_pure_definition()) return false;
        // Through an inlined relay (a user's `f.in(g)`) read at taps, n is read at those taps.
        if (cn.is_input_wrapper && is_relay(cn.func) && !cn.pointwise_consumed) return false;
        const std::vector<std::vector<Halide::Expr>> found = call_args(cn, n.name);
        if (found.empty()) return false;
        const std::vector<std::string> pure = cn.func.args();
        std::vector<bool> used(pure.size(), false);
        for (size_t i = 0; i < found.size(); i++) {
            const std::vector<Halide::Expr> &args = found[i];
            for (size_t a = 0; a < args.size(); a++) {
                const Variable *v = args[a].as<Variable>();
                if (!v || v->reduction_domain.defined()) return false;
                if (i > 0 && !equal(args[a], found[0][a])) return false;
                const auto at = std::find(pure.begin(), pure.end(), v->name);
                if (at == pure.end()) return false;
                const size_t d = (size_t)(at - pure.begin());
                if (i == 0 && used[d]) return false;  // one variable passed twice: a diagonal
                used[d] = true;
            }
        }
        // The points recomputed per point of `n` are the product of the dropped extents: a
        // Cholesky factor's entries l_ij(b), each read by every (i, j) of a 4 x 4 output
        // L(i, j, b) through a select chain, were inlined with two dimensions of 4 points each
        // and recomputed 16 times (red-team round 18: 1.7x the serial reference).
        auto region = cx.whole_largest.find(c);
        int64_t recomputes = 1;
        for (size_t d = 0; d < pure.size(); d++) {
            if (used[d]) continue;
            if (region == cx.whole_largest.end() || !region->second.bounded || region->second.extent.size() != pure.size()) {
                return false;
            }
            recomputes *= std::max<int64_t>(region->second.extent[d], 1);
            if (recomputes > kMostBroadcastRecomputes) return false;
        }
    }
    return true;
}

// A heuristic (named): the operations per point (analysis/RecomputeCost.h recompute_ops) from
// which a broadcast Func saves more by being computed once than its extra pass costs. A Gray
// code's `im ^ (im >> 1)` (2) or an index's clamp (2) read by 16 or 64 points stays inlined:
// computed, each point loads it as it would have loaded the input (red-team round 18's bit
// planes 1.36x slower at root on AVX-512).
constexpr double kBroadcastComputeOps = 4;


// Whether some consumer reads `n`, which computes kBroadcastComputeOps or more per point (not a
// relay), at its own loop variables only (pure variables, or reduction variables of the update
// reading it), dropping pure dimensions whose extents at the family's largest shape multiply to
// more than kMostBroadcastRecomputes: inlined, `n` would be recomputed that many times per point
// of its own. A batched Cholesky's factor entries l_ij(b), computed from the inputs only, each
// read by all 16 points (i, j) of L(i, j, b) through a select chain, ran 1.7x the serial
// reference inlined (red-team round 18). A resampler's tap weights kx(x, k) (two divisions, an
// abs and a clamp, from the tap's coordinate bx(x)) read by its pass over every row and channel,
// sum(kx(x, r) * in(bx(x) + r, y, c)), were recomputed per (y, c): 1.8-2.2x Mullapudi2016,
// which computes them at root (red-team round 22, apps/results/cpu/tap_weights_2026-12-07/).
bool recomputed_per_broadcast(const RuleContext &cx, const FuncNode &n) {
    if (is_relay(n.func) || recompute_ops(n.func) < kBroadcastComputeOps) return false;
    for (const std::string &c : n.consumers) {
        if (!cx.dag.has(c)) continue;
        const FuncNode &cn = cx.dag.node(c);
        if (cn.is_extern || !cn.func.has_pure_definition()) continue;
        const std::vector<std::vector<Halide::Expr>> found = call_args(cn, n.name);
        const std::vector<std::string> pure = cn.func.args();
        std::vector<bool> used(pure.size(), false);
        bool at_pure_vars = !found.empty(), reads_rvar = false;
        for (const std::vector<Halide::Expr> &args : found) {
            for (const Halide::Expr &a : args) {
                const Variable *v = a.as<Variable>();
                if (v && v->reduction_domain.defined()) reads_rvar = true;
                if (is_const(a) || (v && v->reduction_domain.defined())) continue;
                const auto at = v ? std::find(pure.begin(), pure.end(), v->name) : pure.end();
                if (at == pure.end()) at_pure_vars = false;
                else used[at - pure.begin()] = true;
            }
        }
        // A table read at reduction variables alone (a binomial window's weights w(r)) is left to
        // the rules for tables: unrolled, its reads fold into constants.
        const bool reads_rvar_only = reads_rvar && std::none_of(used.begin(), used.end(), [](bool u) { return u; });
        auto region = cx.whole_largest.find(c);
        if (!at_pure_vars || reads_rvar_only || region == cx.whole_largest.end() || !region->second.bounded ||
            region->second.extent.size() != pure.size()) {
            continue;
        }
        int64_t recomputes = 1;
        for (size_t d = 0; d < pure.size(); d++) {
            if (!used[d]) recomputes *= std::max<int64_t>(region->second.extent[d], 1);
        }
        if (recomputes > kMostBroadcastRecomputes) return true;
    }
    return false;
}

}  // namespace

bool limit_inline_expansion(const FunctionDAG &dag, std::set<std::string> &inlined) {
    std::map<std::string, std::vector<double>> sizes;  // inlined Funcs' expanded values, by Tuple element
    bool removed = false;
    for (const FuncNode &n : dag.nodes()) {  // producers first
        if (!inlined.count(n.name)) continue;
        ExpandedNodes count(sizes);
        std::vector<double> values;
        double largest = 0;
        for (const Halide::Expr &v : n.func.values()) {
            values.push_back(count.of(v));
            largest = std::max(largest, values.back());
        }
        if (largest > kMaxInlinedNodes) {
            inlined.erase(n.name);
            removed = true;
        } else {
            sizes.emplace(n.name, values);
        }
    }
    return removed;
}

bool inline_applies(const RuleContext &cx, const FuncNode &n) {
    const FunctionDAG &dag = cx.dag;
    if (n.is_output || n.is_extern || n.has_updates()) return false;
    // Coordinates worth a pass of their own (analysis/GatherIndex.h) are computed, not inlined,
    // even computed from no Func at all (an input wrapper, vacuously: a lens remap's coordinates
    // from x, y and the image's size).
    if (ops_per_point(n) >= kGatherIndexOps && indexes_a_gather(dag, n)) return false;
    if (table_read_per_step(dag, n)) return false;
    if (recomputed_per_broadcast(cx, n)) return false;
    return n.pointwise_consumed || n.is_input_wrapper || read_once_by_a_reduction(dag, n) ||
           read_broadcast_per_channel(cx, n);
}

}  // namespace diet
