// The tiled-group rule's heuristic (named: "arithmetic + traffic", in the manner of Mullapudi et
// al. 2016): a group's cost is the arithmetic it does, members' recomputation in the tiles'
// overlaps included, plus per-tile and per-task overheads, divided by the parallel efficiency of
// its tile rows; a working set beyond half of L2 doubles the members' cost. The tile of least
// cost wins. Every parameter comes from the hardware (vector lanes, cores, L2) and the extents at
// the representative shape, never from divisors of one shape: tiles are GuardWithIf splits, any
// extent works.
#include "analysis/ChannelSelects.h"
#include "space/rules/RuleContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace diet {

namespace {

constexpr double kTaskOverheadOps = 5000;   // a thread-pool task: scheduling, wake-up
constexpr double kTileOverheadOps = 64;     // a tile's loop setup
constexpr double kMemberOverheadOps = 256;  // a member's allocation and bounds per tile
constexpr int64_t kSmallInnerDim = 4;       // dims >= 2 up to this extent stay inside the tile
constexpr double kOpsPerByteDram = 8;       // scalar ops one byte of DRAM traffic costs
constexpr double kOpsPerByteCache = 2;      // ... of traffic that stays in the caches
constexpr double kAccumulatorOpsPerStep = 2;  // an accumulator's load + store per reduction step
// A member's buffer is allocated per tile: glibc's malloc serves blocks beyond its mmap threshold
// (128 KiB) with fresh pages, faulted in again for every tile (20% of unsharp's time).
constexpr double kMmapThresholdBytes = 128 * 1024;
constexpr double kPageBytes = 4096;
// A heuristic weight, set from development runs on the 2-core benchmark machine (taken beside
// other builds, not committed): unsharp and harris took about 1.4-1.9x as long with whole-row
// tiles whose members crossed the threshold as with 64 x 64 tiles that did not, so a page is
// weighed at more than its fault alone.
constexpr double kPageFaultOps = 8000;
constexpr double kClampedTileMargin = 0.8;  // choose_tile: a clamped tile's estimate must be this much cheaper

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / std::max<int64_t>(b, 1); }

ConstBox whole_or_default(const RuleContext &cx, const FuncNode &n) {
    auto it = cx.whole.find(n.name);
    if (it != cx.whole.end() && it->second.bounded && (int)it->second.extent.size() == n.dims()) return it->second;
    ConstBox b;
    for (int d = 0; d < n.dims(); d++) {
        b.min.push_back(0);
        b.extent.push_back(d < 2 ? 1024 : 1);
    }
    return b;
}

std::vector<int> tile_candidates(int64_t extent, const std::vector<int> &sizes) {
    std::vector<int> c = {0};  // the whole dimension
    for (int s : sizes) {
        if (s < extent) c.push_back(s);
    }
    return c;
}

}  // namespace

double traffic_cost(const RuleContext &cx, const FuncNode &n) {
    const double bytes = (double)whole_or_default(cx, n).size() * bytes_per_point(n);
    const double cache = (double)cx.in.cpu.l2_bytes * std::max(1, cx.in.cpu.cores);
    return 2 * bytes * (bytes > cache ? kOpsPerByteDram : kOpsPerByteCache);
}

// Whether tiles wider than the family's narrowest row are candidates for this root
// (GroupPlan::tile_x_clamped): a pure output of two or more dimensions (its row is its buffer's,
// known when it runs), not transposing.
bool tiles_may_clamp(const RuleContext &cx, const FuncNode &root) {
    return root.is_output && !root.has_updates() && root.dims() >= 2 && !root.region_narrowed && !reads_transposed(root, cx.dag);
}

bool short_dim0_with_members(const RuleContext &cx, const FuncNode &root) {
    const auto largest = cx.whole_largest.find(root.name);
    const auto smallest = cx.whole_smallest.find(root.name);
    if (root.dims() < 3 || root.has_updates() || largest == cx.whole_largest.end() || smallest == cx.whole_smallest.end() ||
        !largest->second.bounded || !smallest->second.bounded || reads_transposed(root, cx.dag)) {
        return false;
    }
    const int lanes = cx.lanes_of(root);
    const int64_t widest0 = largest->second.extent[0];
    return lanes > 1 && widest0 > 0 && widest0 * 2 <= lanes && largest->second.extent[1] >= lanes;
}

namespace {

// What does not depend on the tile: the root's extents and work, its inner dimensions, the
// candidates for tile_x and tile_y.
struct RootFacts {
    ConstBox R;
    int dims = 0, lanes = 1, cores = 1;
    std::vector<int> inner_dims;
    int64_t outer_slices = 1;
    std::vector<int> xs = {1}, ys = {0};
    int64_t narrowest_x = 0;  // dim 0 at the family's smallest shape (0: unknown)
    bool may_clamp = false;   // tiles wider than narrowest_x are candidates (GroupPlan::tile_x_clamped)
    int64_t steps = 1;
    double root_ops = 0;
    bool short_dim0 = false;  // short_dim0_with_members: whole rows, lanes along dimension 1
    bool x_tasks = false;     // rows_select_formulas: whole columns, the tiles along dim 0 are the tasks
};

// Whether the root's dim 1 has a small constant extent at every shape of the family and its pure
// definition compares it with constants.
bool rows_select_formulas(const RuleContext &cx, const FuncNode &root) {
    const auto largest = cx.whole_largest.find(root.name), smallest = cx.whole_smallest.find(root.name);
    if (largest == cx.whole_largest.end() || smallest == cx.whole_smallest.end() || !largest->second.bounded ||
        !smallest->second.bounded || largest->second.extent.size() < 2 || smallest->second.extent.size() < 2) {
        return false;
    }
    const int64_t rows = largest->second.extent[1];
    if (rows <= 1 || rows > kUnrolledSelectExtent || rows != smallest->second.extent[1]) return false;
    const std::vector<int> compared = dims_compared_with_constants(root.func);
    return std::find(compared.begin(), compared.end(), 1) != compared.end();
}

RootFacts root_facts(const RuleContext &cx, const FuncNode &root, bool per_step) {
    RootFacts f;
    f.R = whole_or_default(cx, root);
    f.dims = root.dims();
    f.lanes = cx.lanes_of(root);
    f.cores = std::max(1, cx.in.cpu.cores);
    for (int d = 2; d < f.dims; d++) {
        if (f.R.extent[d] <= kSmallInnerDim) f.inner_dims.push_back(d);
        else f.outer_slices *= std::max<int64_t>(f.R.extent[d], 1);
    }
    if (f.dims >= 1) {
        // Tiles along dim 0 are ShiftInwards splits (a guarded one would leave its guard, and a
        // boundary condition's clamps, inside the vectorized loop): no wider than dim 0 at the
        // family's smallest shape, or on a pure output of two or more dimensions min(row, tile)
        // at run time (GroupPlan::tile_x_clamped; its row is its buffer's, known when it runs).
        auto small = cx.whole_smallest.find(root.name);
        const int64_t narrowest = small != cx.whole_smallest.end() && small->second.bounded && !small->second.extent.empty()
                                      ? small->second.extent[0] : 0;
        f.narrowest_x = narrowest;
        f.may_clamp = tiles_may_clamp(cx, root);
        f.xs = {0};  // the whole row
        for (int t : tile_candidates(f.R.extent[0], {2 * f.lanes, 4 * f.lanes, 8 * f.lanes, 16 * f.lanes, 32 * f.lanes})) {
            if (t > 0 && (t <= narrowest || f.may_clamp)) f.xs.push_back(t);
        }
    }
    if (f.dims >= 2) f.ys = tile_candidates(f.R.extent[1], {1, 2, 4, 8, 16, 32, 64});
    // Rows that select among formulas (a 3 x 3 matrix's entries by mux(3 * i + j, ...), a pure
    // stage comparing dim 1 with constants) over a small constant extent stay whole in every
    // tile, to be unrolled (GroupPlan::select_unrolled): tiled by 2 rows of 3, shifted inwards,
    // a batched 3x3 inverse computed its middle row twice and every entry's nine-way select
    // (red-team round 18, 2.1-2.7x the serial reference).
    if (f.dims >= 2 && !root.has_updates() && rows_select_formulas(cx, root)) {
        f.ys = {0};
        f.x_tasks = f.outer_slices == 1;  // ApplyGroups runs the tiles along dim 0 in parallel then
    }
    f.short_dim0 = short_dim0_with_members(cx, root);
    if (f.short_dim0) f.xs = f.ys = {0};
    f.steps = per_step ? last_update_trips(root, cx.in.shape) : 1;
    // A root with updates does its updates' iterations (a scatter's reduction domain, a scan's
    // rows), not its reduction extents at every point of its region. Per step, the accumulator
    // is loaded and stored once more per point.
    const double root_work = root.has_updates() ? work_for_region(root, f.R, cx.in.shape, nullptr) : 0;
    f.root_ops = (root_work > 0 ? root_work : ops_per_point(root) * (double)f.R.size()) +
                 (per_step ? kAccumulatorOpsPerStep * (double)f.R.size() * (double)std::max<int64_t>(f.steps, 0) : 0);
    return f;
}

// `describe`: also the terms only the plan features use (member_ops_once).
TileCost cost_with(const RuleContext &cx, const FuncNode &root, const std::vector<std::string> &members, bool per_step,
                   const RootFacts &f, int tx, int ty, bool describe = false) {
    TileCost c;
    const ConstBox &R = f.R;
    const int dims = f.dims;
    ConstBox tile = R;
    const int64_t ex = dims >= 1 ? (tx ? std::min<int64_t>(tx, R.extent[0]) : R.extent[0]) : 1;
    const int64_t ey = dims >= 2 ? (ty ? std::min<int64_t>(ty, R.extent[1]) : R.extent[1]) : 1;
    if (dims >= 1) tile.extent[0] = ex;
    if (dims >= 2) tile.extent[1] = ey;
    for (int d = 2; d < dims; d++) {
        if (std::find(f.inner_dims.begin(), f.inner_dims.end(), d) == f.inner_dims.end()) tile.extent[d] = 1;
    }
    const int64_t tiles_x = dims >= 1 ? ceil_div(R.extent[0], ex) : 1;
    const int64_t tiles_y = dims >= 2 ? ceil_div(R.extent[1], ey) : 1;
    // The rows and outer slices are the parallel tasks, or the tiles along dim 0 (x_tasks).
    const bool x_tasks = f.x_tasks && tx > 0;
    c.tasks = x_tasks ? (double)tiles_x : (double)(tiles_y * f.outer_slices);
    c.starves_cores = c.tasks < f.cores && (f.x_tasks ? R.extent[0] : (dims >= 2 ? R.extent[1] : 1) * f.outer_slices) >= f.cores;
    c.tiles = x_tasks ? c.tasks : (double)tiles_x * c.tasks;
    c.root_ops = f.root_ops;
    c.steps = (double)f.steps;
    std::set<std::string> within(cx.inlined.begin(), cx.inlined.end());
    within.insert(members.begin(), members.end());
    if (!members.empty()) {
        std::map<std::string, ConstBox> regions =
            regions_required(cx.dag, {{root.name, tile}}, within, cx.in.shape, per_step ? root.name : "");
        for (const std::string &m : members) {
            auto it = regions.find(m);
            if (it == regions.end()) continue;  // not needed by this root after all
            if (!it->second.bounded) {
                c.bounded = false;
                return c;
            }
            const FuncNode &mn = cx.dag.node(m);
            ConstBox computed;
            const double work = work_for_region(mn, it->second, cx.in.shape, &computed);
            if (!computed.bounded) {
                c.bounded = false;
                return c;
            }
            // A member narrower than two vectors wastes most of its lanes (a transpose's tile
            // rows are the member's columns). Wider members shift their last vector inwards,
            // and 64-wide tiles beat whole rows on unsharp and harris in the same development
            // runs although a 70-wide member region rounds up to 80 lanes: not counted.
            const int m_lanes = cx.lanes_of(mn);
            const int64_t m_x = computed.extent.empty() ? 1 : std::max<int64_t>(computed.extent[0], 1);
            // Per row of a root with vectors along dimension 1, a member short along its own
            // dimension 0 (a composite's 4 channels, c(c, x, y)) is vectorized along it: a scan of
            // RGBA layers per row ran 1.8x slower than at root (AVX2). Nor a member with updates
            // (a dark channel's window minimum per row: 1.17-1.39x slower at 1024 x 768). Not fused.
            if (f.short_dim0 && (m_x * 2 <= m_lanes || mn.has_updates())) {
                c.bounded = false;
                return c;
            }
            const double m_waste = m_x < 2 * m_lanes ? (double)ceil_div(m_x, m_lanes) * m_lanes / (double)m_x : 1.0;
            c.member_ops += work * c.tiles * c.steps * m_waste;
            // The members' work once each over the root's whole region: what the tiles recompute.
            if (describe) c.member_ops_once += work_for_region(mn, whole_or_default(cx, mn), cx.in.shape, nullptr);
            const double bytes = (double)computed.size() * bytes_per_point(mn);
            if (bytes > kMmapThresholdBytes) c.page_faults += c.tiles * c.steps * bytes / kPageBytes;
            c.footprint_bytes += bytes;
        }
    }
    const double budget = (double)cx.in.cpu.l2_bytes / 2;
    c.members_spill = c.footprint_bytes > budget;
    const double member_ops = c.members_spill ? 2 * c.member_ops : c.member_ops;
    // Lanes computed per point of a row: tiles along dim 0 shift the last one inwards, so a row of
    // 56 in tiles of 32 computes 64 points, as many as whole rows in vectors of 16 (counting only
    // the tile's own rounding made a per-channel scale over 56-wide NCHW rows take 32-wide column
    // strips, 1.7x slower than Adams2019's whole rows, probe 13).
    c.vector_waste = dims >= 1 ? (double)tiles_x * ceil_div(ex, f.lanes) * f.lanes / (double)std::max<int64_t>(R.extent[0], 1) : 1;
    // Vectors along dimension 1 (GroupPlan::short_dim0): 3 colour channels in 16 lanes counted
    // along dimension 0 made a per-pixel Tuple Func's tiles cost 10x, so it stayed at root
    // (round 16's 3-D LUT: 7.3-10.5 ms against 3.5 per row by hand, AVX2).
    if (f.short_dim0) c.vector_waste = (double)ceil_div(R.extent[1], f.lanes) * f.lanes / (double)std::max<int64_t>(R.extent[1], 1);
    // Members per step are allocated (and their bounds computed) once per step of every tile.
    c.overhead = c.tiles * (kTileOverheadOps + kMemberOverheadOps * (double)members.size() * c.steps) +
                 c.page_faults * kPageFaultOps +
                 c.tasks * kTaskOverheadOps;
    // The cores finish after ceil(tasks / cores) rounds of a whole tile's rows each: the last
    // tile of rows may be short (guarded) or overlap the one before (shifted inwards), so the
    // work the cores share is the rows themselves, not whole tiles (37 rows in tiles of 32 ran
    // as 32 rows on one core and 5 on the other: 1.8x slower than a task per row).
    const double rounds = (double)ceil_div((int64_t)c.tasks, f.cores);
    const double rows = dims >= 2 ? (double)R.extent[1] : 1.0;
    c.efficiency = x_tasks ? std::min(1.0, (double)R.extent[0] / (rounds * (double)ex * f.cores))
                           : std::min(1.0, rows * (double)f.outer_slices / (rounds * (double)ey * f.cores));
    c.cost = ((c.root_ops + member_ops) * c.vector_waste + c.overhead) / (c.efficiency * f.cores);
    return c;
}

}  // namespace

TileCost tile_cost(const RuleContext &cx, const FuncNode &root, const std::vector<std::string> &members, bool per_step,
                   int tile_x, int tile_y) {
    const RootFacts f = root_facts(cx, root, per_step);
    if (f.steps <= 0) {
        TileCost c;
        c.bounded = false;
        return c;
    }
    return cost_with(cx, root, members, per_step, f, tile_x, tile_y, true);
}

TileChoice choose_tile(const RuleContext &cx, const FuncNode &root, const std::vector<std::string> &members,
                       bool per_step) {
    const RootFacts f = root_facts(cx, root, per_step);
    const double budget = (double)cx.in.cpu.l2_bytes / 2;
    // The tiles within the narrowest row (and whole rows), then the clamped ones
    // (GroupPlan::tile_x_clamped). A heuristic (named): a clamped tile only where it is estimated
    // at most kClampedTileMargin of the other tiles' cost. The tile cost model leaves out what
    // narrow tiles cost per row (short vector loops, a shifted vector per member row): a 3x3 blur
    // 700 wide in 64 x 64 tiles, estimated 1.5% cheaper than whole rows x 32, ran 1.4x slower;
    // local contrast normalization's eleven members over 1000-pixel rows, estimated 0.58x in
    // 256 x 32 tiles against whole rows x 4, ran 0.60x (apps/results/cpu/clamped_tiles_2026-11-30/).
    struct Best {
        TileChoice best, oversized;
    } plain, clamped;
    for (Best *b : {&plain, &clamped}) b->best.cost = b->oversized.cost = std::numeric_limits<double>::infinity();
    if (f.steps <= 0) return plain.best;
    // Not over a scatter or a scan (a bilateral grid's histogram per 256 x 64 tile of its output,
    // estimated under 0.8x its 64 x 64 tiles without it, ran 1.05-1.2x slower; an IIR filter's
    // scan per 16 x 64 tile 1.7x: their regions per tile are not estimated that well).
    const bool members_scatter = std::any_of(members.begin(), members.end(), [&](const std::string &m) {
        const FuncNode &mn = cx.dag.node(m);
        const std::vector<Halide::Internal::Definition> &updates = mn.func.updates();
        return std::any_of(updates.begin(), updates.end(), [&](const auto &u) { return !update_at_pure_args(mn, u); });
    });
    for (int tx : f.xs) {
        const bool x_clamped = f.may_clamp && tx > f.narrowest_x;
        if (x_clamped && members_scatter) continue;
        Best &into_class = x_clamped ? clamped : plain;
        for (int ty : f.ys) {
            const TileCost c = cost_with(cx, root, members, per_step, f, tx, ty);
            // A tile that leaves cores idle, where the root has rows enough to feed them all, is
            // not a candidate: fusing must not cost the parallel loop.
            if (c.starves_cores) continue;
            if (!c.bounded) return plain.best;  // a member needs a data-dependent region: no tiling fuses it
            // Members beyond twice the L2 only when there is no other tile (a member
            // that must be fused to stay within Halide's buffer limit, whatever the tile).
            const bool oversize = c.footprint_bytes > 4 * budget;
            TileChoice &into = oversize ? into_class.oversized : into_class.best;
            if (c.cost < into.cost) {
                into.cost = c.cost;
                into.tile_x = tx;
                into.tile_y = ty;
                into.x_clamped = x_clamped;
                into.feasible = true;
                into.per_step = per_step;
            }
        }
    }
    for (Best *b : {&plain, &clamped}) {
        if (!b->best.feasible) b->best = b->oversized;
    }
    const bool take_clamped = clamped.best.feasible && (!plain.best.feasible || clamped.best.cost < kClampedTileMargin * plain.best.cost);
    TileChoice best = take_clamped ? clamped.best : plain.best;
    best.inner_dims = f.inner_dims;
    return best;
}

TileChoice fit_group(const RuleContext &cx, const GroupPlan &g, const std::vector<std::string> &members) {
    const FuncNode &root = cx.dag.node(g.root);
    GroupPlan with = g;
    with.members = members;
    // A member read on a diagonal: per step only (per tile it computes the square of its reads).
    if (g.rule == RuleKind::UpdateLoops && cx.hosts_diagonal_member(with)) return choose_tile(cx, root, members, true);
    TileChoice t = choose_tile(cx, root, members);
    if (g.rule == RuleKind::UpdateLoops && !members.empty()) {
        TileChoice step = choose_tile(cx, root, members, true);
        if (step.feasible && (!t.feasible || step.cost < t.cost)) t = step;
    }
    return t;
}

void take_tile(GroupPlan &g, const TileChoice &t) {
    g.tile_x = t.tile_x;
    g.tile_x_clamped = t.tile_x > 0 && t.x_clamped;
    g.tile_y = t.tile_y;
    g.inner_dims = t.inner_dims;
    g.members_per_step = t.per_step;
}

}  // namespace diet
