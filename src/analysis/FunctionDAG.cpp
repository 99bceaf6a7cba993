#include "analysis/FunctionDAG.h"
#include "analysis/DiagonalReads.h"
#include "analysis/PointwiseUpdate.h"
#include "analysis/PredicateReads.h"
#include "analysis/RecomputeCost.h"
#include "analysis/ContractionOperands.h"
#include "analysis/ConsumerReductions.h"
#include "analysis/ShapeFamily.h"
#include "analysis/Summand.h"
#include "analysis/WideningOperands.h"
#include "analysis/SymbolicRegion.h"
#include "common/Errors.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Every call made by an Expr/Definition: Func calls (by name, with their arguments) and
// whether an input buffer is read directly.
class CallCollector : public IRVisitor {
public:
    std::vector<const Call *> func_calls;
    bool reads_image = false;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            func_calls.push_back(op);
        } else if (op->call_type == Call::Image) {
            reads_image = true;
        }
        IRVisitor::visit(op);
    }
};

CallCollector calls_of(const Function &f) {
    CallCollector c;
    if (f.has_pure_definition()) {
        f.definition().accept(&c);
        for (const Definition &u : f.updates()) {
            u.accept(&c);
        }
    }
    return c;
}

CallCollector calls_in(const Expr &e) {
    CallCollector c;
    e.accept(&c);
    return c;
}

}  // namespace

void accept_without_lets(const Definition &d, IRVisitor *v) {
    for (const Expr &e : d.values()) substitute_in_all_lets(e).accept(v);
    for (const Expr &e : d.args()) substitute_in_all_lets(e).accept(v);
    if (d.predicate().defined()) substitute_in_all_lets(d.predicate()).accept(v);
}

std::optional<int64_t> constant_value(const Expr &e) {
    Expr s = simplify(cast<int64_t>(e));  // keep the Expr alive while reading its value
    const int64_t *v = as_const_int(s);
    return v ? std::optional<int64_t>(*v) : std::nullopt;
}

namespace {



// consumer-dim -> producer-arg composed through a chain: outer maps host dims to a middle Func's
// args, inner maps the middle Func's dims to the producer's args.
std::vector<int> compose(const std::vector<int> &outer, const std::vector<int> &inner) {
    std::vector<int> m(outer.size());
    for (size_t d = 0; d < outer.size(); d++) m[d] = inner[outer[d]];
    return m;
}

std::string joined(const std::vector<std::string> &v) {
    std::string s;
    for (const std::string &x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

}  // namespace

FunctionDAG::FunctionDAG(const std::vector<Function> &outputs, const VectorMoves &moves) : moves_(moves) {
    std::map<std::string, Function> env;
    for (const Function &f : outputs) {
        auto more = find_transitive_calls(f);
        env.insert(more.begin(), more.end());
        env.emplace(f.name(), f);
    }
    // Pipeline::get_func(i) indexes this very order.
    std::vector<std::string> order = topological_order(outputs, env);
    for (size_t i = 0; i < order.size(); i++) {
        FuncNode n;
        n.func = env.at(order[i]);
        n.name = order[i];
        n.pipeline_index = (int)i;
        n.is_extern = n.func.has_extern_definition();
        for (const Function &o : outputs) {
            n.is_output |= o.name() == n.name;
        }
        n.stages = stages_of(n.func);
        index_[n.name] = (int)nodes_.size();
        nodes_.push_back(n);
    }
    for (FuncNode &n : nodes_) {
        if (n.is_extern) {
            for (const ExternFuncArgument &a : n.func.extern_arguments()) {
                if (a.is_func() && index_.count(Function(a.func).name())) {
                    n.producers.insert(Function(a.func).name());
                }
            }
        } else {
            CallCollector c = calls_of(n.func);
            for (const Call *call : c.func_calls) {
                if (call->name != n.name && index_.count(call->name)) n.producers.insert(call->name);
            }
        }
    }
    for (FuncNode &n : nodes_) {
        for (const std::string &p : n.producers) {
            nodes_[index_.at(p)].consumers.insert(n.name);
        }
    }
    mark_input_wrappers(nodes_, index_);
    // Consumers first: a relay that stays inlined (a user's `f.in(g)` wrapper, a plain copy of
    // a boundary condition) reads its producer for its own consumers, so the producer is read
    // pointwise only where the relay is (red-team round 21's Sobel, its padded image read at six
    // taps through `pad.in(gx)`, was inlined into every tap).
    for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
        FuncNode &n = *it;
        n.pointwise_consumed = !n.consumers.empty();
        for (const std::string &c : n.consumers) {
            const FuncNode &cn = nodes_[index_.at(c)];
            n.pointwise_consumed &= !cn.is_extern && !pointwise_mapping(cn.func, n.name).empty() &&
                                    cn.dims() == n.dims() &&
                                    (!(cn.is_input_wrapper && is_relay(cn.func)) || cn.pointwise_consumed);
        }
    }
    for (const std::string &name : regions_narrowed_by_predicates(*this)) nodes_[index_.at(name)].region_narrowed = true;
    classify_matmuls();
}

const FuncNode &FunctionDAG::node(const std::string &name) const {
    auto it = index_.find(name);
    internal_assert(it != index_.end()) << "Diet: no Func named " << name << " in the pipeline\n";
    return nodes_[it->second];
}

// The next link of a contraction's epilogue chain after `cur`: its only consumer, when that is a
// pure single-valued Func of the same dimensionality reading `cur` at its own coordinates (the
// mapping of its dimensions to cur's arguments in `m`). Null when the chain ends at `cur`.
const FuncNode *FunctionDAG::chain_consumer(const FuncNode &cur, int dims, std::vector<int> *m) const {
    if (cur.consumers.size() != 1) return nullptr;
    const FuncNode &c = node(*cur.consumers.begin());
    // A Tuple has no single output_buffer() for the tile variants' conditions (test_fuzz).
    if (c.has_updates() || c.is_extern || c.dims() != dims || c.func.outputs() != 1) return nullptr;
    *m = pointwise_mapping(c.func, cur.name);
    return m->empty() ? nullptr : &c;
}

void FunctionDAG::classify_matmuls() {
    // The Funcs a reduction's result passes through on its way to where it is materialized: its
    // epilogue chain (chain_consumer), the last link included. A contraction that read one of them
    // inlined would inline another contraction's host (or compute its epilogue twice), and the
    // other's accumulator, computed per tile of that host, would be at an invalid location
    // (test_fuzz seed 20264400: a transpose of an integer product read by a second product).
    std::set<std::string> on_result_chain;
    for (const FuncNode &r : nodes_) {
        if (!r.has_updates() || r.is_extern || r.func.outputs() != 1) continue;
        std::vector<int> m;
        for (const FuncNode *next = chain_consumer(r, r.dims(), &m); next; next = chain_consumer(*next, r.dims(), &m)) {
            on_result_chain.insert(next->name);
        }
    }
    for (const FuncNode &r : nodes_) {
        if (r.is_extern || r.dims() < 2 || r.func.outputs() != 1) continue;
        if (r.stages.size() < 2) continue;
        auto is_self_at_pure = [&](const Expr &e) {
            const Call *c = e.as<Call>();
            if (!c || c->name != r.name || c->args.size() != r.func.args().size()) return false;
            for (size_t i = 0; i < c->args.size(); i++) {
                if (!is_var_named(c->args[i], r.func.args()[i])) return false;
            }
            return true;
        };
        // The product as it computes: pure Funcs that only multiply or rearrange what they read,
        // each read by the reduction only, are seen through (the schedule leaves them inlined).
        const auto inlinable = [&](const std::string &callee, const std::string &caller) -> const Function * {
            if (!has(callee) || callee == r.name) return nullptr;
            const FuncNode &f = node(callee);
            const bool only_here = f.consumers.size() == 1 && *f.consumers.begin() == caller;
            if (f.is_extern || f.is_output || f.has_updates() || f.func.outputs() != 1 || !only_here ||
                !is_transparent_value(substitute_in_all_lets(f.func.values()[0]))) {
                return nullptr;
            }
            // A Func reading a reduction's result (an MLP's activation of its first layer)
            // is where that result is materialized: it stays.
            for (const std::string &p : f.producers) {
                if (node(p).has_updates()) return nullptr;
            }
            if (on_result_chain.count(callee)) return nullptr;
            return &f.func;
        };
        // Every update must be a contraction: acc(v...) += e over an RDom, e reading at least two
        // producers. Several (acc += x·wx; acc += h·wh: an LSTM gate; or one reduction written
        // over two RDoms) are computed one after the other on the same register tile.
        // Halide's inline sum() binds a repeated subexpression (an index k = r.x + 32 * r.y used
        // by both operands) in a Let: look through it.
        struct Term {
            Summand summand;
            std::vector<const Call *> calls;
            std::vector<LoopVar> rvars;
        };
        std::vector<Term> terms;
        bool pure_lhs = true;
        for (size_t u = 0; u < r.func.updates().size(); u++) {
            const Definition &upd = r.func.updates()[u];
            if (upd.schedule().rvars().empty()) break;
            const Expr value = substitute_in_all_lets(upd.values()[0]);  // keeps `add` alive
            const Add *add = value.as<Add>();
            if (!add) break;
            const Expr contribution = is_self_at_pure(add->a) ? add->b : is_self_at_pure(add->b) ? add->a : Expr();
            if (!contribution.defined()) break;
            Term t;
            t.summand = inline_transparent_calls(contribution, r.name, inlinable);
            t.calls = calls_in(t.summand.value).func_calls;
            if (t.calls.size() < 2) break;
            for (size_t i = 0; i < upd.args().size(); i++) pure_lhs &= is_var_named(upd.args()[i], r.func.args()[i]);
            for (const LoopVar &l : r.stages[u + 1].loops) {
                if (l.is_rvar) t.rvars.push_back(l);
            }
            terms.push_back(t);
        }
        if (terms.empty()) continue;
        auto reject = [&](const std::string &why) { unmatched_[r.name] = why; };
        // Per-point updates after the contraction (a bias or an activation written as further
        // updates of an output: y += x·w; y += bias(n); y = max(y, 0); or a low-rank correction
        // y += u(n, s) v(m, s) after the activation): the output's own passes once the reduction
        // is moved into its rfactor intermediate (update_on_output).
        size_t per_point_after = 0;
        if (r.is_output && r.consumers.empty() && terms.size() == 1) {
            for (size_t u = terms.size(); u < r.func.updates().size(); u++) {
                if (!is_per_point_update(r, r.func.updates()[u])) break;
                per_point_after++;
            }
        }
        if (terms.size() + per_point_after != r.func.updates().size()) {
            reject("of its " + std::to_string(r.func.updates().size()) + " update definitions only " +
                   std::to_string(terms.size()) + " (the first) are contractions");
            continue;
        }
        if (!pure_lhs) { reject("its update does not write at its pure coordinates"); continue; }
        if (const std::optional<DiagonalRead> d = diagonal_read(*this, r)) {
            // A nested sum's inner one (analysis/DiagonalReads.h): tiled by the micro-kernel it
            // would be computed over the square of what its reader reads.
            reject("its reader " + d->reader + " reads it on a diagonal (" + d->rvar +
                   " twice: a nested sum); computed per step of that reduction instead");
            continue;
        }
        std::vector<const Call *> all_calls;
        for (const Term &t : terms) all_calls.insert(all_calls.end(), t.calls.begin(), t.calls.end());

        // Where the result goes: the output itself, or along a chain of pure pointwise Funcs
        // (each the only consumer of the one before: the epilogue, inlined into the host) to the
        // first that is an output or is read otherwise (the host, computed at root). When acc
        // itself is read otherwise, a wrapper of it hosts the kernel.
        const FuncNode *host_ptr = &r;
        bool wraps_acc = false;
        std::vector<int> mapping(r.dims());
        for (int d = 0; d < r.dims(); d++) mapping[d] = d;
        std::vector<std::string> epilogue;
        std::string why;
        if (r.is_output) {
            if (!r.consumers.empty()) why = "the reduction is an output that other stages also read";
            else if (terms.size() > 1) why = "it is an output with " + std::to_string(terms.size()) + " contraction updates (one is moved off an output)";
        } else {
            const FuncNode *cur = &r;
            while (true) {
                std::vector<int> m;
                const FuncNode *next = chain_consumer(*cur, r.dims(), &m);
                if (!next) {
                    if (cur == &r) {
                        wraps_acc = true;
                    } else {
                        host_ptr = cur;
                        epilogue.pop_back();
                    }
                    break;
                }
                mapping = compose(m, mapping);
                if (next->is_output) {
                    host_ptr = next;
                    break;
                }
                epilogue.push_back(next->name);
                cur = next;
            }
        }
        if (!why.empty()) { reject(why); continue; }
        // A sum of contractions (an LSTM gate's x·Wx + h·Wh, out = a@b + c@d): the first one to
        // reach a host tiles it; each later one is tiled on a wrapper of its own accumulator,
        // computed at root, which the host's tiles read pointwise. (Tiling one host twice is
        // refused by Halide: "n_v is already used".)
        auto same_host = std::find_if(matmuls_.begin(), matmuls_.end(),
                                      [&](const MatmulPattern &q) { return q.host == host_ptr->name; });
        // The wrapper's dimensions are taken in the order the host reads them (`mapping`, kept):
        // an inline sum()'s accumulator takes its arguments in the order the free variables
        // appear, and a wrapper stored so would be read transposed by the host's tiles.
        std::vector<int> host_arg_of_dim(r.dims());
        for (int d = 0; d < r.dims(); d++) host_arg_of_dim[d] = d;
        std::string summed_into;
        if (same_host != matmuls_.end() && host_ptr != &r) {
            summed_into = host_ptr->name + " (whose tiles compute " + same_host->acc + ")";
            host_ptr = &r;
            wraps_acc = true;
            epilogue.clear();
            host_arg_of_dim = mapping;
        }
        // Vectors moved off the output's innermost dimension (analysis/VectorChoice.h): a wrapper
        // of acc stored with the chosen argument innermost, then the others in the order the
        // output stores them, hosts the kernel; the output and the epilogue read it.
        std::string moved_from;
        const auto move = moves_.find(r.name);
        if (move != moves_.end() && !wraps_acc && move->second < r.dims()) {
            std::vector<int> order = {move->second};
            for (int a : mapping) if (a != move->second) order.push_back(a);
            moved_from = host_ptr->name + "'s innermost dimension " + host_ptr->func.args()[0] +
                         " (too short for a register tile at some shapes; " + host_ptr->name +
                         (host_ptr == &r ? "'s passes read the accumulated tiles transposed)" : " is a transposing pass)");
            // An update on the output keeps its host (the wrapper of its rfactor intermediate is
            // tiled, stored in this order); any other output reads a wrapper of acc.
            if (host_ptr != &r) {
                host_ptr = &r;
                wraps_acc = true;
                epilogue.clear();
            }
            mapping = order;
            host_arg_of_dim = order;
        }
        const FuncNode &host = *host_ptr;
        std::vector<Expr> host_extent;
        if (host.is_output) {
            for (int a : host_arg_of_dim) host_extent.push_back(Func(host.func).output_buffer().dim(a).extent());
        } else {
            const std::vector<Expr> by_arg = run_time_extents(*this, host.name);
            if (by_arg.empty()) {
                reject("the region of " + host.name + " it would be tiled over is not known before the pipeline runs");
                continue;
            }
            for (int a : host_arg_of_dim) host_extent.push_back(by_arg.at(a));
        }
        // The batched kernel fuses the tile and batch loops into one parallel task loop. When other
        // stages also read the output, Halide 14 bounds the batch index recovered from that loop
        // (task / tiles, over the union of regions) so loosely that the output and the operands
        // are "accessed" at negative batches and the pipeline fails at run time (test_fuzz).
        if (host.dims() > 2 && !host.consumers.empty() && host.is_output) {
            reject("its batched " + std::string(host.is_output ? "output " : "result ") + host.name + " is read by " + *host.consumers.begin());
            continue;
        }
        // One micro-kernel per output: a second reduction read by the same output (out = a@b + c@d)
        // would tile the output twice, which Halide refuses ("n_v is already used", test_fuzz).
        // (A later contraction reaching a tiled host was moved onto its own wrapper above; what
        // is left is an output that is itself a contraction's accumulator.)
        same_host = std::find_if(matmuls_.begin(), matmuls_.end(),
                                 [&](const MatmulPattern &q) { return q.host == host.name; });
        if (same_host != matmuls_.end()) {
            reject("its consumer " + host.name + " already hosts the micro-kernel of " + same_host->acc);
            continue;
        }

        MatmulPattern p;
        p.acc = r.name;
        p.host = host.name;
        p.epilogue = epilogue;
        for (const Term &t : terms) {
            for (const std::string &f : t.summand.inlined) {
                if (std::find(p.inlined.begin(), p.inlined.end(), f) == p.inlined.end()) p.inlined.push_back(f);
            }
            p.update_reductions.push_back(t.rvars);
        }
        p.update_on_output = &host == &r && !wraps_acc;
        for (const Internal::Definition &u : r.func.updates()) {
            if (!is_const_one(u.predicate())) p.reduction_predicated = true;
        }
        p.host_is_output = host.is_output;
        p.host_wraps_acc = wraps_acc;
        p.host_extent = host_extent;
        p.acc_arg_of_host_dim = mapping;
        p.host_arg_of_dim = host_arg_of_dim;
        if (!moved_from.empty()) p.moved_vector_arg = mapping[0];
        p.update_liftable = p.update_on_output && terms.size() == 1 && update_adds_to_init(r);
        p.type = r.func.output_types()[0];
        p.reduction = terms[0].rvars;
        if (terms.size() == 1 && p.reduction.size() == 1) {
            p.reduction_extent = constant_value(p.reduction[0].extent);
            if (!p.reduction_extent && p.type.is_float() && is_run_time_size(p.reduction[0].extent)) {
                const std::optional<int64_t> est = ShapeFamily::evaluate_pipeline_expr(p.reduction[0].extent, {});
                if (est && *est > 0) p.estimated_reduction_extent = est;
            }
        }
        {
            std::optional<int64_t> inner, total = 0;
            bool agree = true;
            for (const Term &t : terms) {
                const std::optional<int64_t> e = constant_value(t.rvars[0].extent);
                agree &= e.has_value() && (!inner || *inner == *e);
                inner = e;
                std::optional<int64_t> points = 1;
                for (const LoopVar &l : t.rvars) {
                    const std::optional<int64_t> x = constant_value(l.extent);
                    points = x && points ? std::optional<int64_t>(*points * *x) : std::nullopt;
                }
                total = points && total ? std::optional<int64_t>(*total + *points) : std::nullopt;
            }
            if (agree) p.inner_reduction_extent = inner;
            p.total_reduction_extent = total;
        }
        const std::string vector_var = r.func.args()[mapping[0]];
        // Operands that read the vector variable only as v / K (heads as a view of the hidden
        // dimension): broadcasts within groups of K outputs (MatmulPattern::vector_period), when
        // the groups can be aligned to the output buffer (an output host of its own) and hold
        // whole vectors of every target, and some other operand moves with the vectors.
        std::optional<int64_t> period;
        bool grouped = host.is_output && !p.update_on_output && !wraps_acc, vector_operand = false;
        for (int d = 0; d < (int)host_arg_of_dim.size(); d++) grouped &= host_arg_of_dim[d] == d;
        for (const Call *c : all_calls) {
            const std::optional<int64_t> k = grouped_period(c, vector_var);
            if (!k) {
                for (const Expr &a : c->args) vector_operand |= expr_uses_var(a, vector_var);
                continue;
            }
            grouped &= !period || *period == *k;
            period = k;
        }
        grouped &= period && *period % 16 == 0 && vector_operand;
        if (grouped) p.vector_period = *period;
        for (const Term &t : terms) {
            for (const Call *c : t.calls) {
                ContractionOperand o = describe_operand(c, t.summand, t.rvars, vector_var, r.func.args(), mapping, grouped);
                bool seen = false;
                for (const auto &q : p.operands) seen |= q.func == o.func && q.vector_arg == o.vector_arg;
                if (!seen) p.operands.push_back(o);
            }
        }
        for (const Term &t : terms) {
            const std::pair<int, int> reads = reads_per_step(t.calls, vector_var, p.vector_period > 0);
            p.vector_reads = std::max(p.vector_reads, reads.first);
            p.broadcast_reads = std::max(p.broadcast_reads, reads.second);
        }
        // A computed operand (a boundary condition) read at coordinates computed from values (a
        // bicubic resampler written as sum(wx(x, r.x) * wy(y, r.y) * e(ix(x) + r.x - 1,
        // iy(y) + r.y - 1)), ix a Func): its copy per tile cannot be bounded (Halide: "calls ...
        // in an unbounded way", red-team round 11). Read in place where it can be
        // (analysis/ContractionOperands.h read_in_place); otherwise the stage rules schedule it.
        p.in_place = read_in_place(p.operands, [&](const std::string &f) { return has(f) && node(f).is_input_wrapper; });
        if (std::any_of(p.operands.begin(), p.operands.end(),
                        [](const ContractionOperand &o) { return o.data_dependent && o.computed; })) {
            reject("a computed operand is read at coordinates computed from values (its copy per tile has no bound)");
            continue;
        }
        // An update on the output whose product reads an operand at every output point (a
        // depthwise convolution: out(c, x, y) += in(c, x + r.x, y + r.y) * w(c, r.x, r.y)) reuses
        // nothing in a register tile but the other operand's broadcasts, and the tile would pay
        // for the rfactor intermediate's passes over the output: a red-team probe's 3x3 depthwise
        // convolution ran 2.8-3.5x slower than Adams2019's schedule. The stage rules' update loops
        // compute it in place.
        if (p.update_on_output && std::any_of(p.operands.begin(), p.operands.end(),
                                              [](const ContractionOperand &o) { return !o.reused; })) {
            reject("an operand is read at every point of its output, which is updated in place: no register-tile reuse");
            continue;
        }
        fuse_contiguous_reduction(p, terms.size() == 1 ? terms[0].calls : std::vector<const Call *>{});
        const int reusing = reusing_row_dim(all_calls, r.func.args(), mapping, grouped);
        // No operand reused across the output (non-local means' weighted sum: every product reads
        // per-pixel weights): a register tile gains nothing. On an output the kernel still tiles
        // and vectorizes it; an intermediate is left to the stage rules, which compute such
        // per-pixel operands per tile instead of materializing them.
        // Except where another reduction sums over the result's dimensions (a MobileNet block's
        // depthwise 3x3 over inputs, its activation read by the pointwise contraction): that
        // reader materializes it, and a micro-kernel per tile of it ran the block 2.2-2.5x faster
        // than the stage rules' root update (apps/results/cpu/depthwise_gap_probe_2026-12-02/).
        // Read pointwise (box sums of a guided filter, a norm's sum of squares) the stage rules'
        // fusion into the readers' tiles measured 1.9-2.8x faster.
        const auto reads_inputs_only = [&] {
            return std::all_of(p.operands.begin(), p.operands.end(), [&](const ContractionOperand &o) {
                const auto it = index_.find(o.func);
                return it == index_.end() || nodes_[it->second].is_input_wrapper || nodes_[it->second].wrapper_read_at_taps;
            });
        };
        // Nor an output that reads twins of this sum (a structure tensor's three smoothed
        // products): the first to reach it took the kernel and its twins the stage rules
        // (red-team round 12's Shi-Tomasi, 1.8-2.1x Adams2019), which fuse all three into the
        // output's tiles alike. Other sums beside it (a correlation's energies) keep the kernel.
        const bool lone_output = host.is_output && (host_ptr == &r || !reads_twin_reduction(nodes_, index_, host, r.name, epilogue));
        const bool reusing_pair = reusing < 0 && reusing_dim_pair(all_calls, r.func.args(), mapping).first > 0;
        if (reusing < 0 && !reusing_pair && !lone_output && !(reads_inputs_only() && reduced_over_by_a_consumer(nodes_, index_, host))) {
            reject("no operand is reused across its result (a weighted sum, not a product of matrices)");
            continue;
        }
        p.row_dim = std::max(reusing, 1);
        if (reusing < 0) {
            const auto [rows, depth] = reusing_dim_pair(all_calls, r.func.args(), mapping);
            if (rows > 0) p.row_dim = rows, p.depth_dim = depth;
            else p.row_dim = windowed_row_dim(p.operands, mapping);
        }
        std::vector<std::string> rnames, onames;
        for (const std::vector<LoopVar> &u : p.update_reductions) {
            std::vector<std::string> names;
            for (const LoopVar &l : u) names.push_back(l.name);
            rnames.push_back(joined(names));
        }
        for (const ContractionOperand &o : p.operands) onames.push_back(o.func);
        p.description = "contraction " + r.name + "(" + joined(r.func.args()) + ") += product of " + joined(onames) +
                        (p.inlined.empty() ? "" : " (read through " + joined(p.inlined) + ", inlined)") +
                        " over " + (rnames.size() == 1 ? rnames[0] : std::to_string(rnames.size()) + " updates, over " + [&] {
                            std::string all;
                            for (const std::string &n : rnames) all += (all.empty() ? "" : ", then ") + n;
                            return all;
                        }()) + "; " +
                        (p.update_liftable ? std::string("the update is on the output itself (lifted: the reduction in an rfactor "
                                                         "intermediate computed per tile, the output its initial value plus it)") +
                                                 (moved_from.empty() ? std::string() : "; vectors moved off " + moved_from + ", through a wrapper")
                         : p.update_on_output ? "the update is on the output itself (accumulated per tile in an rfactor intermediate)" +
                                                  (moved_from.empty() ? std::string() : "; vectors moved off " + moved_from)
                         : !summed_into.empty() ? "read pointwise by " + summed_into + ", tiled through a wrapper computed at root"
                         : !moved_from.empty() ? "vectors moved off " + moved_from + ", tiled through a wrapper computed at root"
                         : wraps_acc ? "read by other stages, tiled through a wrapper computed at root"
                                     : (host.is_output ? "output " : "result ") + host.name +
                                           (host.is_output ? "" : " (computed at root, read by " + joined({host.consumers.begin(), host.consumers.end()}) + ")") +
                                           (epilogue.empty() ? "" : " via epilogue " + joined(epilogue))) +
                        "; vectors along " + vector_var +
                        (p.vector_period ? " (read as " + vector_var + " / " + std::to_string(p.vector_period) +
                                               " by some operand: groups of " + std::to_string(p.vector_period) + ")"
                                         : std::string()) +
                        (mapping[0] == 0 ? "" : " (" + r.name + "'s dimension " + std::to_string(mapping[0]) + ", stored innermost)") +
                        (p.row_dim == 1 ? "" : ", rows along " + host.func.args()[p.row_dim]) +
                        (p.depth_dim < 0 ? "" : "; every operand moves with the vectors: register tiles over " +
                                                    host.func.args()[p.row_dim] + " x " + host.func.args()[p.depth_dim]) +
                        (p.fused_reduction.empty() ? "" : "; " + joined(p.fused_reduction) + " fused into one reduction of " +
                                                              std::to_string(*p.reduction_extent) + " (one contiguous run of every operand)") +
                        (p.reduction_predicated ? "; its reduction domain is predicated (where): one-row column kernels only" : "") +
                        (p.in_place.empty() ? "" : "; " + joined(p.in_place) + " read in place (at coordinates computed from values)");
        matmuls_.push_back(p);
    }
    // A contraction's result that another one reads is materialized at root (its host, or the
    // wrapper of its accumulator): read as a dense buffer, not recomputed where it is read.
    for (MatmulPattern &p : matmuls_) {
        for (ContractionOperand &o : p.operands) {
            for (const MatmulPattern &q : matmuls_) {
                if (&q != &p && !q.host_is_output && q.host == o.func) o.computed = false;
            }
        }
    }
    for (MatmulPattern &p : matmuls_) materialize_computed_operands(p);
    inline_staged_operands(nodes_, matmuls_);
}

// A computed operand (an activation, a scale, a boundary condition) that only this contraction
// reads, and that some output dimension does not move (so each value is reused across it), is
// computed once per call at root into a dense buffer (p.materialized): per-task copies would
// evaluate it once per task that reads it, and the dot-product kernels, which read operands in
// place, apply. Its buffer is at most the product's work over that dimension's extent. An operand
// that moves with every output dimension (non-local means' per-pixel weights) keeps the per-task
// copies, as does one read elsewhere too or with no known region.
void FunctionDAG::materialize_computed_operands(MatmulPattern &p) {
    std::set<std::string> readers = {p.acc};
    readers.insert(p.inlined.begin(), p.inlined.end());
    for (ContractionOperand &o : p.operands) {
        if (!o.computed || !has(o.func)) continue;
        const FuncNode &n = node(o.func);
        if (n.is_extern || n.is_output || n.has_updates() || n.func.outputs() != 1) continue;
        bool only_here = true;
        for (const std::string &c : n.consumers) only_here &= readers.count(c) > 0;
        if (!only_here || !o.reused || run_time_extents(*this, o.func).empty() || little_reuse_for_widening(*this, p, o)) continue;
        o.computed = false;
        if (std::find(p.materialized.begin(), p.materialized.end(), o.func) == p.materialized.end()) {
            p.materialized.push_back(o.func);
        }
    }
}

// If every call to `producer` in `consumer` uses the consumer's pure arguments, the mapping
// consumer-dim -> producer-arg; empty otherwise.
std::vector<int> pointwise_mapping(const Function &consumer, const std::string &producer) {
    const auto &cargs = consumer.args();
    std::vector<int> mapping;
    bool first = true;
    for (const Call *c : calls_of(consumer).func_calls) {
        if (c->name != producer) continue;
        if (c->args.size() != cargs.size()) return {};
        std::vector<int> m(cargs.size(), -1);
        for (size_t a = 0; a < c->args.size(); a++) {
            const Variable *v = c->args[a].as<Variable>();
            if (!v) return {};
            auto it = std::find(cargs.begin(), cargs.end(), v->name);
            if (it == cargs.end()) return {};
            int d = (int)(it - cargs.begin());
            if (m[d] != -1) return {};
            m[d] = (int)a;
        }
        if (!first && m != mapping) return {};
        mapping = m;
        first = false;
    }
    return mapping;
}

bool read_at_own_coordinates(const Function &consumer, const std::string &producer) {
    const std::vector<int> m = pointwise_mapping(consumer, producer);
    for (size_t d = 0; d < m.size(); d++) {
        if (m[d] != (int)d) return false;
    }
    return !m.empty();
}

}  // namespace diet
