// plan_pipeline: applies the rule table to every Func, consumers first (TVM's sketch generation
// order): a Func is inlined, joins the tiled group of the one group that consumes it when the
// tiled-group heuristic says fusing pays, or roots a group of its own under the rule its
// definition calls for.
#include "space/rules/RuleContext.h"
#include "analysis/StorageOrder.h"
#include "analysis/ClampedReads.h"
#include "analysis/DivisionReads.h"
#include "analysis/ChannelSelects.h"
#include "analysis/RecomputeCost.h"
#include "analysis/Loads.h"
#include "analysis/ConsumerReductions.h"

#include <algorithm>
#include <limits>

namespace diet {

namespace {

constexpr double kHalideAllocationLimit = 2147483647.0;  // bytes; Halide refuses larger buffers


// Whether a consumer of `n` reads it in an update with no pure loop (a scatter or a serial
// reduction: no loop there is vectorized).
bool read_by_serial_update(const FunctionDAG &dag, const FuncNode &n) {
    for (const std::string &c : n.consumers) {
        if (!dag.has(c)) continue;
        const FuncNode &consumer = dag.node(c);
        for (const StageNode &s : consumer.stages) {
            if (s.index == 0 || !s.pure_vars().empty()) continue;
            const Halide::Internal::Definition &u = consumer.func.updates()[s.index - 1];
            std::vector<Halide::Expr> exprs = u.values();
            exprs.insert(exprs.end(), u.args().begin(), u.args().end());
            for (const Halide::Expr &e : exprs) {
                for (const Halide::Internal::Call *call : loads_in(e)) {
                    if (call->name == n.name) return true;
                }
            }
        }
    }
    return false;
}

}  // namespace

RuleContext::RuleContext(const PlanInputs &in) : in(in), dag(*in.dag) {
    std::set<std::string> all;
    for (const FuncNode &n : dag.nodes()) all.insert(n.name);
    // The regions first: the inline rule reads them (a broadcast's recomputation).
    whole = regions_required(dag, output_boxes(dag, *in.family, in.shape), all, in.shape);
    for (const auto &[name, box] : output_boxes(dag, *in.family, in.shape)) whole[name] = box;
    whole_largest = regions_required(dag, output_boxes(dag, *in.family, in.largest), all, in.largest);
    for (const auto &[name, box] : output_boxes(dag, *in.family, in.largest)) whole_largest[name] = box;
    const std::map<std::string, ConstBox> smallest_outputs = smallest_output_boxes(dag, *in.family, in.smallest);
    whole_smallest = regions_required(dag, smallest_outputs, all, in.smallest);
    for (const auto &[name, box] : smallest_outputs) whole_smallest[name] = box;
    // A region a predicate may narrow has no known lower bound: nothing is shifted inwards by it.
    for (const FuncNode &n : dag.nodes()) {
        auto it = whole_smallest.find(n.name);
        if (n.region_narrowed && it != whole_smallest.end()) it->second.bounded = false;
    }
    for (const FuncNode &n : dag.nodes()) {
        if (inline_applies(*this, n) && !in.contraction_funcs.count(n.name)) inlined.insert(n.name);
    }
    compute_feeds();
    // A Func that calls the math library, inlined into Funcs that reach several groups, would be
    // evaluated once per group at every point: computed once instead. (A Canny edge detector's
    // orientation bin, atan2 per pixel, inlined through the non-maximum suppression into the
    // thresholded output and the strong-edge mask: 1.6x Mullapudi2016's time, 49% / 48% of it in
    // the two copies of atan2; computed at root it ran faster than Mullapudi2016. Red-team round 11.)
    // The same for one read by an update that runs serially (no pure variable among its
    // arguments: a histogram's scatter), where, inlined, it is computed lane by lane: an auto
    // exposure's log-luminance bin, log2 per pixel in the scatter, 3.2x the time of the bin
    // computed at root, vectorized (red-team round 12, apps/results/cpu/redteam12_2026-12-02/).
    bool shared = false;
    for (const FuncNode &n : dag.nodes()) {
        if (inlined.count(n.name) && (feeds[n.name].size() > 1 || read_by_serial_update(dag, n)) &&
            !cheap_to_recompute(n.func)) {
            inlined.erase(n.name);
            shared = true;
        }
    }
    if (limit_inline_expansion(dag, inlined)) shared = true;
    if (shared) compute_feeds();
    const std::vector<FuncNode> &nodes = dag.nodes();
    for (const FuncNode &n : nodes) {
        if (inlined.count(n.name) || in.contraction_funcs.count(n.name)) continue;
        if (const std::optional<DiagonalRead> d = diagonal_read(dag, n)) {
            diagonal_reads.emplace(n.name, *d);
            diagonal_hosts.insert(d->reader);
        }
    }
}

// feeds: each Func's non-inlined consumers, looking through inlined ones (consumers first).
void RuleContext::compute_feeds() {
    feeds.clear();
    const std::vector<FuncNode> &nodes = dag.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        std::set<std::string> &f = feeds[it->name];
        for (const std::string &c : it->consumers) {
            if (inlined.count(c)) f.insert(feeds[c].begin(), feeds[c].end());
            else f.insert(c);
        }
    }
}

bool RuleContext::hosts_diagonal_member(const GroupPlan &g) const {
    for (const std::string &m : g.members) {
        auto it = diagonal_reads.find(m);
        if (it != diagonal_reads.end() && it->second.reader == g.root) return true;
    }
    return false;
}

int RuleContext::lanes_of(const FuncNode &n) const {
    int bits = 8;
    for (const Halide::Type &t : n.func.output_types()) bits = std::max(bits, t.bits());
    return std::max(1, in.cpu.vector_bits / bits);
}

// Whether the pure definition reads some Func with the root's first two variables swapped.
// Whether the root reads a producer transposed: the producer's innermost stored argument is the
// root's dim 1 and the root's dim 0 is another of its arguments. Stored innermost is argument 0,
// but for the wrapper of a contraction whose vectors were moved off its output's innermost
// dimension (MatmulPattern::moved_vector_arg: the output o(t, n) reads sum(t, n) stored n first).
bool reads_transposed(const FuncNode &n, const FunctionDAG &dag, const std::set<std::string> &stored_dim1) {
    if (n.dims() < 2 || n.has_updates() || !n.func.has_pure_definition()) return false;
    std::map<std::string, int> innermost;
    for (const MatmulPattern &p : dag.matmuls()) {
        if (p.moved_vector_arg >= 0) innermost[p.acc] = p.moved_vector_arg;
    }
    struct Finder : Halide::Internal::IRVisitor {
        std::string x, y;
        const std::map<std::string, int> *innermost = nullptr;
        const std::set<std::string> *stored_dim1 = nullptr;
        bool found = false;
        using IRVisitor::visit;
        void visit(const Halide::Internal::Call *c) override {
            if (c->call_type == Halide::Internal::Call::Halide && c->args.size() >= 2 && !stored_dim1->count(c->name)) {
                const auto it = innermost->find(c->name);
                const size_t inner = it == innermost->end() ? 0 : (size_t)it->second;
                const auto is_var = [&](size_t i, const std::string &name) {
                    const auto *v = c->args[i].as<Halide::Internal::Variable>();
                    return v && v->name == name;
                };
                if (inner < c->args.size() && is_var(inner, y)) {
                    if (inner == 0) {
                        found |= is_var(1, x);
                    } else {
                        for (size_t i = 0; i < c->args.size(); i++) found |= i != inner && is_var(i, x);
                    }
                }
            }
            IRVisitor::visit(c);
        }
    } f;
    f.x = n.func.args()[0];
    f.y = n.func.args()[1];
    f.innermost = &innermost;
    f.stored_dim1 = &stored_dim1;
    for (const Halide::Expr &e : n.func.definition().values()) e.accept(&f);
    return f.found;
}

namespace {

// The Funcs a definition reads, looking through inlined Funcs.
std::set<std::string> funcs_read(const RuleContext &cx, const Halide::Internal::Definition &def) {
    struct Calls : Halide::Internal::IRVisitor {
        std::set<std::string> names;
        using IRVisitor::visit;
        void visit(const Halide::Internal::Call *c) override {
            if (c->call_type == Halide::Internal::Call::Halide) names.insert(c->name);
            IRVisitor::visit(c);
        }
    } calls;
    for (const Halide::Expr &e : def.values()) e.accept(&calls);
    for (const Halide::Expr &e : def.args()) e.accept(&calls);
    std::set<std::string> out;
    std::vector<std::string> todo(calls.names.begin(), calls.names.end());
    while (!todo.empty()) {
        const std::string f = todo.back();
        todo.pop_back();
        if (!out.insert(f).second || !cx.inlined.count(f) || !cx.dag.has(f)) continue;
        for (const std::string &p : cx.dag.node(f).producers) todo.push_back(p);
    }
    return out;
}

}  // namespace

// Whether an update of the Func is defined at its own pure variables in every dimension (not a
// scan, f(r, y) = f(r - 1, y) + ..., nor a scatter, f(z(x)) += ...).
bool update_at_pure_args(const FuncNode &f, const Halide::Internal::Definition &u) {
    const std::vector<std::string> &args = f.func.args();
    if (u.args().size() != args.size()) return false;
    for (size_t d = 0; d < args.size(); d++) {
        const auto *v = u.args()[d].as<Halide::Internal::Variable>();
        if (!v || v->name != args[d]) return false;
    }
    return true;
}

// The last update so: the tiles of a root with members split and reorder the last update's pure
// loops (ApplyGroups.cpp tile_stage).
bool last_update_at_pure_args(const FuncNode &root) {
    return root.has_updates() && update_at_pure_args(root, root.func.updates().back());
}

bool last_update_hosts(const RuleContext &cx, const FuncNode &root, const std::string &producer) {
    if (!last_update_at_pure_args(root)) return false;
    const std::vector<Halide::Internal::Definition> &updates = root.func.updates();
    const Halide::Internal::Definition &last = updates.back();
    if (funcs_read(cx, root.func.definition()).count(producer)) return false;
    for (size_t i = 0; i + 1 < updates.size(); i++) {
        if (funcs_read(cx, updates[i]).count(producer)) return false;
    }
    return funcs_read(cx, last).count(producer) > 0;
}

namespace {

// Whether a consumer reads `producer` through a division (an upsample) or a clamp of its own variables,
// directly or through Funcs inlined into it (analysis/DivisionReads.h).
bool read_through_division_or_clamp(const RuleContext &cx, const std::string &producer) {
    for (const std::string &c : cx.dag.node(producer).consumers) {
        if (reads_through_division_or_clamp(cx.dag, c, producer)) return true;
        if (cx.inlined.count(c) && read_through_division_or_clamp(cx, c)) return true;
    }
    return false;
}

}  // namespace

bool may_host(const RuleContext &cx, const GroupPlan &host, const std::string &producer) {
    // Computed per tile, a producer read through a division or a clamp is bounded loosely by
    // Halide 14 and may be computed past its consumers' needs: only where that reads no input out
    // of range.
    if (read_through_division_or_clamp(cx, producer) && !reads_inputs_clamped(cx.dag, producer)) return false;
    // Members are computed in the tiles of the root's last stage (test_fuzz seed 20264453: a
    // member of a scan along dim 0, whose update has no loop over x to tile).
    const FuncNode &root = cx.dag.node(host.root);
    if (root.has_updates() && !last_update_at_pure_args(root)) return false;
    if (host.rule == RuleKind::TiledGroup) return true;
    if (host.rule != RuleKind::UpdateLoops) return false;
    // A row reduction's per-lane partials need a root without members (GroupPlan::row_lanes):
    // a gemv of v(j) = u(j) / norm() hosting v gathered along its rows, 4.3x the serial reference.
    // (Producers with updates still join: a scan at root of its own lost its update to a Halide 14
    // bug with exclusive pure and update specializations; apps/results/cpu/broadcast_wrappers_2026-12-06/.)
    if (!host.lane_rvar.empty() && !cx.dag.node(producer).has_updates()) return false;
    auto feeds = cx.feeds.find(producer);
    const bool reads_directly = feeds != cx.feeds.end() && feeds->second.count(host.root);
    return !reads_directly || last_update_hosts(cx, cx.dag.node(host.root), producer);
}

bool exceeds_allocation_limit(const RuleContext &cx, const FuncNode &n) {
    auto big = cx.whole_largest.find(n.name);
    return big != cx.whole_largest.end() && big->second.bounded &&
           (double)big->second.size() * bytes_per_point(n) > kHalideAllocationLimit;
}

namespace {

// Whether a group with this tile has a loop to compute its members in (ApplyGroups' tile_var):
// a tile along dim 0 or 1, or an outer dimension >= 2 outside the tile.
bool has_tile_loop(const TileChoice &t, int root_dims) {
    if (t.tile_x > 0 || t.tile_y > 0) return true;
    for (int d = 2; d < root_dims; d++) {
        if (std::find(t.inner_dims.begin(), t.inner_dims.end(), d) == t.inner_dims.end()) return true;
    }
    return false;
}

int64_t smallest_extent(const RuleContext &cx, const std::string &f, int dim) {
    auto it = cx.whole_smallest.find(f);
    if (it == cx.whole_smallest.end() || !it->second.bounded || (int)it->second.extent.size() <= dim) return 0;
    return it->second.extent[dim];
}

int64_t largest_extent(const RuleContext &cx, const std::string &f, int dim) {
    auto it = cx.whole_largest.find(f);
    if (it == cx.whole_largest.end() || !it->second.bounded || (int)it->second.extent.size() <= dim) return 0;
    return it->second.extent[dim];
}

// GroupPlan::short_dim0 where the root's dim 0 fills at most half a vector at every shape of the
// family, or its updates load densely along dim 1 only (GroupPlan::dim1_vectors), and dim 1 holds
// a vector somewhere: sets it (and its constant extent) and says so.
bool take_short_dim0(const RuleContext &cx, GroupPlan &g) {
    const FuncNode &root = cx.dag.node(g.root);
    const int lanes = cx.lanes_of(root);
    const int64_t widest_x = largest_extent(cx, g.root, 0);
    const bool short_x = widest_x > 0 && widest_x * 2 <= lanes;
    if (root.dims() < 2 || lanes <= 1 || !(short_x || g.dim1_vectors) || largest_extent(cx, g.root, 1) < lanes) return false;
    g.short_dim0 = true;
    g.short_dim0_extent = short_x && widest_x == smallest_extent(cx, g.root, 0) ? (int)widest_x : 0;
    if (g.dim1_vectors) {
        // Heuristic (named, "half the registers hold sums"): up to 4 points of dimension 0 by as
        // many vectors along dimension 1 as fit in half the vector registers with them.
        g.dim1_tile_rows = (int)std::clamp<int64_t>(widest_x, 1, 4);
        const int64_t sums = std::max(1, cx.in.cpu.vector_registers / 2);
        g.dim1_tile_vectors = (int)std::clamp<int64_t>(sums / g.dim1_tile_rows, 1, 4);
        while (g.dim1_tile_vectors > 1 && largest_extent(cx, g.root, 1) < (int64_t)g.dim1_tile_vectors * lanes) g.dim1_tile_vectors /= 2;
    }
    return true;
}

// Whether some load of `n`'s definitions moves with its dimension `x` other than densely along
// the callee's innermost dimension (a gather, or a load across rows).
bool gathers_along_dim(const FuncNode &n, const std::string &x) {
    const auto gathers = [&](const Halide::Expr &e) {
        for (const Halide::Internal::Call *c : loads_in(e)) {
            for (size_t i = 0; i < c->args.size(); i++) {
                if (expr_uses_var(c->args[i], x) && (i > 0 || !dense_along(c->args[i], x))) return true;
            }
        }
        return false;
    };
    std::vector<Halide::Internal::Definition> defs = {n.func.definition()};
    defs.insert(defs.end(), n.func.updates().begin(), n.func.updates().end());
    for (const Halide::Internal::Definition &d : defs) {
        for (const Halide::Expr &v : d.values()) {
            if (gathers(v)) return true;
        }
    }
    return false;
}

// GroupPlan::member_vector_dims for member `m` of `g`: its readers, all in the group and
// vectorized along their dimension 0, read its dimension 1 at their vectors and its dimension 0
// elsewhere; its dimension 0 is shorter than two vectors at every shape or gathers, and its
// dimension 1 fills a vector within the tile.
bool member_along_dim1(const RuleContext &cx, const GroupPlan &g, const std::string &m) {
    const FuncNode &mn = cx.dag.node(m);
    if (g.members_per_point || g.member_lane_rvars.count(m) || g.select_unrolled.count(m) ||
        (g.rule != RuleKind::TiledGroup && g.rule != RuleKind::UpdateLoops) || !read_along_dim1_at_vectors(cx.dag, mn)) {
        return false;
    }
    // Its readers: the group's, or inlined Funcs the group reads at their own coordinates (a
    // normalization `vp(x, y, c) = sum(...)(y, x, c) / ny(y)` read as `out(x, y, c) = f(vp(x, y, c))`).
    std::vector<std::string> readers;
    for (const std::string &c : mn.consumers) {
        if (!cx.inlined.count(c)) {
            readers.push_back(c);
            continue;
        }
        const FuncNode &cn = cx.dag.node(c);
        if (cn.consumers.empty()) return false;
        for (const std::string &r : cn.consumers) {
            if (cx.inlined.count(r) || !read_at_own_coordinates(cx.dag.node(r).func, c)) return false;
            readers.push_back(r);
        }
    }
    for (const std::string &c : readers) {
        const bool member = std::find(g.members.begin(), g.members.end(), c) != g.members.end();
        if (c != g.root && !member) return false;
        if (g.member_lane_rvars.count(c)) return false;
        if (c == g.root && (g.short_dim0 || g.transpose_blocks || g.row_lanes())) return false;
    }
    const int lanes = cx.lanes_of(mn);
    const int64_t widest_dim0 = largest_extent(cx, m, 0);
    // Its dimension 1 is read at its readers' dimension 0, the root's tile columns.
    const int64_t rows = g.tile_x > 0 ? std::min<int64_t>(g.tile_x, largest_extent(cx, m, 1)) : largest_extent(cx, m, 1);
    if (lanes <= 1 || rows < lanes || widest_dim0 <= 0) return false;
    return widest_dim0 < 2 * lanes || gathers_along_dim(mn, mn.func.args()[0]);
}

// A member read on a diagonal along its own dimension 0 has one value per reduction step there:
// vectorized along it, each step would compute a single lane. It is computed per point instead
// (GroupPlan::members_per_point).
void place_diagonal_members(const RuleContext &cx, GroupPlan &g) {
    for (const std::string &m : g.members) {
        auto it = cx.diagonal_reads.find(m);
        if (it == cx.diagonal_reads.end()) continue;
        const DiagonalRead &d = it->second;
        if (d.reader != g.root) {
            g.members_per_point = true;
            g.why = "sums nested three deep: each read on a diagonal computed per point of its reader's reduction";
            return;
        }
        if (std::find(d.args.begin(), d.args.end(), 0) != d.args.end()) {
            g.members_per_point = true;
            g.why = m + " is read on a diagonal along its dimension 0: computed per point of " + d.rvar;
        }
    }
}

}  // namespace

bool RuleContext::vector_fits_smallest(const FuncNode &n) const {
    auto it = whole_smallest.find(n.name);
    return n.dims() >= 1 && it != whole_smallest.end() && it->second.bounded && !it->second.extent.empty() &&
           it->second.extent[0] >= lanes_of(n);
}

PipelinePlan plan_pipeline(const PlanInputs &in) {
    RuleContext cx(in);
    const FunctionDAG &dag = *in.dag;
    PipelinePlan plan;
    plan.inlined.assign(cx.inlined.begin(), cx.inlined.end());
    std::vector<GroupPlan> groups;
    std::vector<double> cost;
    std::map<std::string, size_t> group_of;
    const std::vector<FuncNode> &nodes = dag.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        const FuncNode &n = *it;
        if (cx.inlined.count(n.name) || in.contraction_funcs.count(n.name)) continue;
        // Join the one group that consumes it?
        std::set<size_t> consumer_groups;
        bool all_grouped = !cx.feeds[n.name].empty();
        for (const std::string &c : cx.feeds[n.name]) {
            auto g = group_of.find(c);
            if (g == group_of.end()) all_grouped = false;
            else consumer_groups.insert(g->second);
        }
        const bool mergeable = !n.is_output && !n.is_extern && all_grouped && consumer_groups.size() == 1 &&
                               may_host(cx, groups[*consumer_groups.begin()], n.name) && !cx.diagonal_hosts.count(n.name);
        // Read on a diagonal (a nested sum's inner one): computed per step of the reader's
        // reduction, one slice each, whatever the estimate says of the alternatives (each computes
        // the square of what is read). The reader is the group's root, or (sums nested three
        // deep) a member read on a diagonal itself, computed per point.
        const auto diagonal = cx.diagonal_reads.find(n.name);
        const auto reader_group = diagonal != cx.diagonal_reads.end() ? group_of.find(diagonal->second.reader) : group_of.end();
        const bool joins_reader =
            reader_group != group_of.end() && groups[reader_group->second].rule == RuleKind::UpdateLoops &&
            (groups[reader_group->second].root == reader_group->first || cx.diagonal_reads.count(reader_group->first));
        if (joins_reader) {
            const std::string &rvar = diagonal->second.rvar;
            const size_t gi = reader_group->second;
            GroupPlan &g = groups[gi];
            g.members.push_back(n.name);
            const TileChoice t = fit_group(cx, g, g.members);
            take_tile(g, t);
            cost[gi] = t.cost;
            g.why = n.name + " is read on a diagonal (" + rvar + " twice): computed per step of " + rvar;
            group_of[n.name] = gi;
            continue;
        }
        if (mergeable) {
            const size_t gi = *consumer_groups.begin();
            GroupPlan &g = groups[gi];
            std::vector<std::string> members = g.members;
            members.push_back(n.name);
            const TileChoice t = fit_group(cx, g, members);
            const bool too_big_alone = exceeds_allocation_limit(cx, n);
            // Its own cost as a root of its own (an update root's: its updates' iterations), so that
            // a row reduction joins the tiles that read its rows (a layer norm's mean and variance)
            // when that costs no more. An update with no pure loop (a histogram's scatter) counts
            // nothing alone and so stays a root of its own: as a member it would lose the rfactor
            // rule's parallel chunks.
            // The same when the group has no tile loop to compute it in: as a member it would run at
            // root, serially, where as a root its pure loops are parallel (a row's argmax for a 1-D
            // output).
            bool every_update_has_pure_loops = true;
            for (size_t s = 1; s < n.stages.size(); s++) every_update_has_pure_loops &= !n.stages[s].pure_vars().empty();
            const bool weighed = every_update_has_pure_loops && has_tile_loop(t, dag.node(g.root).dims());
            const double alone = !n.has_updates() || weighed ? choose_tile(cx, n, {}).cost : 0;
            if (t.feasible && (too_big_alone || t.cost <= cost[gi] + alone + traffic_cost(cx, n))) {
                g.members = members;
                take_tile(g, t);
                cost[gi] = t.cost;
                if (too_big_alone) g.why = "fused: " + n.name + " alone would exceed Halide's 2^31-byte buffer limit";
                group_of[n.name] = gi;
                continue;
            }
        }
        GroupPlan g;
        g.root = n.name;
        double c = 0;
        if (n.is_extern) {
            g.rule = RuleKind::Extern;
        } else if (n.has_updates()) {
            g = plan_update_root(cx, n);
            // The cost members are weighed against (update roots hosting members).
            if (g.rule == RuleKind::UpdateLoops) c = choose_tile(cx, n, {}).cost;
        } else {
            const TileChoice t = choose_tile(cx, n, {});
            g.rule = RuleKind::TiledGroup;
            take_tile(g, t);
            c = t.cost;
        }
        g.vector_lanes = cx.lanes_of(n);
        group_of[n.name] = groups.size();
        groups.push_back(g);
        cost.push_back(c);
    }
    regroup(cx, groups);
    // Producers' groups first (the order directives are emitted in).
    std::map<std::string, int> position;
    for (size_t i = 0; i < nodes.size(); i++) position[nodes[i].name] = (int)i;
    std::sort(groups.begin(), groups.end(),
              [&](const GroupPlan &a, const GroupPlan &b) { return position[a.root] < position[b.root]; });
    for (GroupPlan &g : groups) {
        std::sort(g.members.begin(), g.members.end(),
                  [&](const std::string &a, const std::string &b) { return position[a] < position[b]; });
    }
    for (GroupPlan &g : groups) g.dim0_largest = largest_extent(cx, g.root, 0);
    for (GroupPlan &g : groups) {
        if (g.rule != RuleKind::TiledGroup) continue;
        const FuncNode &root = dag.node(g.root);
        const int lanes = cx.lanes_of(root);
        // Members whose dimension 0 gathers and which are read along their dimension 1 at the
        // root's vectors: stored dimension 1 innermost (member_along_dim1), they are not read
        // transposed. A resampler's vertical pass as an inline sum, free variables (y, x, c), read
        // as out(x, y, c): blocks of the output transposed it while its vectors gathered the
        // horizontal pass's rows lane by lane.
        std::set<std::string> stored_dim1;
        for (const std::string &m : g.members) {
            const FuncNode &mn = dag.node(m);
            if (mn.has_updates() && mn.dims() >= 2 && read_along_dim1_at_vectors(dag, mn) && gathers_along_dim(mn, mn.func.args()[0]) &&
                cx.lanes_of(mn) > 1 && largest_extent(cx, m, 1) >= cx.lanes_of(mn)) {
                stored_dim1.insert(m);
            }
        }
        if (reads_transposed(root, dag, stored_dim1)) {
            g.transpose_blocks = true;
            if (g.members.empty()) {
                g.tile_x = lanes <= smallest_extent(cx, g.root, 0) ? lanes : 0;
                g.tile_x_clamped = false;
                g.tile_y = transpose_block_rows(lanes);
            }
            g.why = "reads a producer transposed: blocks of a vector by up to a vector of rows";
        }
        // Shifted inwards only where the rows are known to hold a tile: an output's are its
        // buffer's; a Func computed at root has the region Halide infers from its readers, which
        // can be smaller than the analysis' (test_fuzz seed 20261979: rows read through an RDom
        // with a predicate, r <= x, 5 at T = 1 against 31 estimated: the shifted tile started at
        // row -11). Guarded there, unless members are computed per tile (their bounds need the
        // shifted tile: schedule/ApplyGroups.cpp tile_stage).
        g.tile_y_shift = g.tile_y > 0 && g.tile_y <= smallest_extent(cx, g.root, 1) &&
                         (root.is_output || !g.members.empty());
        const bool members_per_row = !g.members.empty() && g.tile_x == 0 && g.tile_y == 0 && short_dim0_with_members(cx, root);
        if (!g.transpose_blocks && (g.members.empty() || members_per_row) && !root.has_updates() && take_short_dim0(cx, g)) {
            g.short_dim0_shift = smallest_extent(cx, g.root, 1) >= lanes;
            g.why = "dimension 0 fills at most half a vector: vectors along dimension 1";
        }
        g.constant_plane_points = 1;
        for (int d = 0; d < root.dims() && g.constant_plane_points > 0; d++) {
            if (d >= 2 && std::find(g.inner_dims.begin(), g.inner_dims.end(), d) == g.inner_dims.end()) continue;
            const int64_t widest = largest_extent(cx, g.root, d);
            g.constant_plane_points = widest > 0 && widest == smallest_extent(cx, g.root, d) ? g.constant_plane_points * widest : 0;
        }
        const int inner = declared_innermost_dim(root);
        if (inner >= 2 && !g.short_dim0 && !g.transpose_blocks && !root.has_updates() && lanes > 1 &&
            std::find(g.inner_dims.begin(), g.inner_dims.end(), inner) != g.inner_dims.end()) {
            g.interleaved_dim = inner;
            const int64_t widest = largest_extent(cx, g.root, inner);
            g.interleaved_extent = widest > 0 && widest == smallest_extent(cx, g.root, inner) ? (int)widest : 0;
        }
        std::vector<std::string> funcs = g.members;
        funcs.push_back(g.root);
        for (const std::string &f : funcs) {
            if (cx.vector_fits_smallest(dag.node(f))) g.shift_inwards.push_back(f);
        }
        for (const std::string &f : funcs) {
            for (int d : dims_compared_with_constants(dag.node(f).func)) {
                const bool root_dim = f == g.root;
                // The root's rows only where its tiles hold them whole (rows_select_formulas).
                const bool inside_tile = std::find(g.inner_dims.begin(), g.inner_dims.end(), d) != g.inner_dims.end() ||
                                         (d == 1 && g.tile_y == 0);
                if (d == 0 || d == g.interleaved_dim || (root_dim && (g.short_dim0 || g.transpose_blocks)) ||
                    (root_dim && !inside_tile)) {
                    continue;
                }
                const int64_t widest = largest_extent(cx, f, d);
                if (widest > 1 && widest <= kUnrolledSelectExtent && widest == smallest_extent(cx, f, d)) {
                    g.select_unrolled[f][d] = (int)widest;
                }
            }
        }
    }
    for (GroupPlan &g : groups) {
        if (g.rule == RuleKind::UpdateLoops && cx.hosts_diagonal_member(g)) place_diagonal_members(cx, g);
    }
    // An update root whose dim 0 fills at most half a vector at every shape (colour channels
    // innermost, s(c, x, y) with a scan along y) takes its vectors along dim 1 as a tiled group's
    // root does: with dim 0 in the lanes, a scan down the columns of a 4-channel image ran 4 of
    // 16 lanes (red-team round 6, 6.6x Mullapudi2016's time). Only where dims 0 and 1 are pure
    // loops of every stage; never shifted inwards (Halide 14 refuses ShiftInwards on an update).
    for (GroupPlan &g : groups) {
        if (g.rule != RuleKind::UpdateLoops || !g.members.empty() || !g.lane_rvar.empty()) continue;
        const FuncNode &root = dag.node(g.root);
        if (root.dims() < 2) continue;
        const std::vector<std::string> args = root.func.args();
        bool rows_pure = true;
        for (const StageNode &st : root.stages) {
            const std::vector<std::string> pure = st.pure_vars();
            for (int d : {0, 1}) rows_pure &= std::find(pure.begin(), pure.end(), args[d]) != pure.end();
        }
        if (!rows_pure || !take_short_dim0(cx, g)) g.dim1_vectors = false;
    }
    for (GroupPlan &g : groups) {
        for (const std::string &m : g.members) {
            const FuncNode &mn = dag.node(m);
            const int64_t narrowest = mn.has_updates() ? smallest_extent(cx, m, 0) : 0;
            if (narrowest > 0) g.member_narrowest_x[m] = narrowest;
            if (!one_reduction_then_pointwise(mn) || (g.members_per_point && cx.diagonal_reads.count(m))) continue;
            const std::string r = row_reduction_rvar(cx, mn);
            if (!r.empty()) g.member_lane_rvars[m] = r;
        }
        for (const std::string &m : g.members) {
            if (member_along_dim1(cx, g, m)) g.member_vector_dims[m] = 1;
        }
        // A reader with its own vectors along its dimension 1 no longer reads at them.
        for (auto it = g.member_vector_dims.begin(); it != g.member_vector_dims.end();) {
            const std::set<std::string> &readers = dag.node(it->first).consumers;
            const bool moved_reader = std::any_of(readers.begin(), readers.end(), [&](const std::string &c) { return g.member_vector_dims.count(c) > 0; });
            it = moved_reader ? g.member_vector_dims.erase(it) : std::next(it);
        }
    }
    plan.groups = groups;
    for (const FuncNode &n : nodes) {
        if (cx.inlined.count(n.name) || in.contraction_funcs.count(n.name)) continue;
        FuncFacts f;
        f.position = position[n.name];
        f.lanes = cx.lanes_of(n);
        f.narrowest_x = smallest_extent(cx, n.name, 0);
        f.narrowest_y = smallest_extent(cx, n.name, 1);
        f.pure = !n.has_updates();
        f.tiles_may_clamp = tiles_may_clamp(cx, n);
        f.output = n.is_output;
        f.feeds.assign(cx.feeds[n.name].begin(), cx.feeds[n.name].end());
        plan.facts[n.name] = f;
    }
    for (auto &[name, f] : plan.facts) {
        for (const std::string &c : f.feeds) {
            auto it = plan.facts.find(c);
            if (it != plan.facts.end()) it->second.producers.push_back(name);
        }
    }
    return plan;
}

}  // namespace diet
