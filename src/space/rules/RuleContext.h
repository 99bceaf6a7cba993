// What every rule of the planner reads: the pipeline, the shape the heuristics are evaluated at,
// the hardware, and facts derived once (each Func's region over the whole pipeline, which Funcs
// are inlined, whom a Func really feeds once inlined Funcs are looked through).
#pragma once

#include "analysis/DiagonalReads.h"
#include "analysis/Regions.h"
#include "space/Rules.h"

#include <map>
#include <set>
#include <string>

namespace diet {

struct RuleContext {
    const PlanInputs &in;
    const FunctionDAG &dag;
    std::set<std::string> inlined;
    std::map<std::string, ConstBox> whole;          // each Func's region at in.shape
    std::map<std::string, ConstBox> whole_largest;  // ... at in.largest
    std::map<std::string, ConstBox> whole_smallest;  // ... at in.smallest
    std::map<std::string, std::set<std::string>> feeds;  // non-inlined consumers, through inlined Funcs
    void compute_feeds();
    // Funcs read on a diagonal (analysis/DiagonalReads.h: a nested sum's inner one) -> their
    // reader, and those readers: a reader stays a group root (it is not merged into its consumers'
    // tiles) and computes the Func per step of its reduction.
    std::map<std::string, DiagonalRead> diagonal_reads;
    std::set<std::string> diagonal_hosts;
    // Whether the group's root computes some member read on a diagonal (members per step, always).
    bool hosts_diagonal_member(const GroupPlan &g) const;

    explicit RuleContext(const PlanInputs &in);
    int lanes_of(const FuncNode &n) const;
    // Whether a vector of the Func's lanes fits its dim 0 at the smallest shape (ShiftInwards safe).
    bool vector_fits_smallest(const FuncNode &n) const;
};

// Whether `producer` can be computed per tile of the update root `root` (the update-loops rule
// hosting members): the root's last update writes at its own pure coordinates (the loops a tile
// splits) and is the only definition of the root that reads the producer (Halide places a
// Func computed at a root's loop inside the root's last stage).
bool last_update_hosts(const RuleContext &cx, const FuncNode &root, const std::string &producer);

// Whether the Func's whole buffer at the family's largest shape exceeds Halide's 2^31 bytes.
bool exceeds_allocation_limit(const RuleContext &cx, const FuncNode &n);

// Whether the group `host` may compute `producer` per tile: a tiled group always; an update root
// when it reads the producer in its last update only (or the producer feeds its members only).
bool may_host(const RuleContext &cx, const GroupPlan &host, const std::string &producer);

// ---- the rules' heuristics (one file each under space/rules/) ----

// Inline.cpp: whether the inline rule applies (reads cx.whole_largest: set before `inlined`).
bool inline_applies(const RuleContext &cx, const FuncNode &n);
// Inline.cpp, a heuristic (named): the largest expression, in IR nodes counted as a tree, that an
// inlined Func may expand to once the inlined Funcs it calls are expanded in it. A chain of Funcs
// each reading the one before at several places (an unrolled iteration: 14 levels of a bisection,
// each level's midpoint read twice) doubles per level inlined: round 13's bisection took 26 s to
// JIT (1 s computed). Such a Func is computed instead, which restarts the count for its readers.
constexpr double kMaxInlinedNodes = 4096;
// Heuristic: a dimension compared with constants runs unrolled up to this many copies of the
// loop body (colour channels, RGBA's 4; a few more cost code size, not time).
constexpr int64_t kUnrolledSelectExtent = 8;
// Removes from `inlined` the Funcs that would expand beyond kMaxInlinedNodes (producers first);
// returns whether it removed any.
bool limit_inline_expansion(const FunctionDAG &dag, std::set<std::string> &inlined);

// Updates.cpp: the rule (UpdateLoops or RFactor) and parameters of a root with updates.
GroupPlan plan_update_root(const RuleContext &cx, const FuncNode &n);
// Updates.cpp: GroupPlan::lane_rvar for a Func with one update: the innermost reduction variable
// when the update reduces along its operands' rows and dim 0 moves along an outer dimension of
// theirs; empty otherwise.
std::string row_reduction_rvar(const RuleContext &cx, const FuncNode &n);
// Whether coordinate `a` moves by exactly 1 with `x` (clamps looked through): a dense vector
// along x in a buffer's innermost dimension (Updates.cpp).
bool dense_along(const Halide::Expr &a, const std::string &x);
bool one_reduction_then_pointwise(const FuncNode &n);

// Planner.cpp: whether a pure root reads a producer with its dims 0 and 1 swapped (its group
// then runs transposing blocks).
// `stored_dim1`: producers that will be stored with their dimension 1 innermost (not transposed).
bool reads_transposed(const FuncNode &n, const FunctionDAG &dag, const std::set<std::string> &stored_dim1 = {});
// Whether the update is defined at the Func's own pure variables (not a scan nor a scatter).
bool update_at_pure_args(const FuncNode &f, const Halide::Internal::Definition &u);

// TiledGroup.cpp: whether the root may take tiles of min(row, tile) (GroupPlan::tile_x_clamped).
bool tiles_may_clamp(const RuleContext &cx, const FuncNode &root);
// Whether a pure root of three or more dimensions runs GroupPlan::short_dim0's loops with members:
// its dimension 0 fills at most half a vector at every shape and dimension 1 a vector at the
// largest (interleaved colour channels, out(c, x, y)), it reads no producer transposed. Its
// tile is then whole rows (dimensions 0 and 1 whole), its members computed per row, and its
// lanes counted along dimension 1 (TiledGroup.cpp).
bool short_dim0_with_members(const RuleContext &cx, const FuncNode &root);

// TiledGroup.cpp: the tile of least estimated cost for a root and its members, and that cost
// (infinite when a member's per-tile region is unbounded).
struct TileChoice {
    int tile_x = 0, tile_y = 0;
    bool x_clamped = false;  // GroupPlan::tile_x_clamped
    bool per_step = false;  // members per step of the root's reduction (GroupPlan::members_per_step)
    std::vector<int> inner_dims;
    double cost = 0;
    bool feasible = false;
};
// The estimate of one tile for a root and its members, term by term: what choose_tile minimizes
// and what the plan features (features/PlanFeatures.h) are made of.
struct TileCost {
    double root_ops = 0;         // the root's own work (an update root: its iterations)
    double member_ops = 0;       // the members' work over all tiles (and steps), lanes wasted included
    double member_ops_once = 0;  // the members' work computed once each over their whole regions
    double tiles = 1, tasks = 1, steps = 1;
    double footprint_bytes = 0;  // the members' buffers of one tile
    bool members_spill = false;  // footprint beyond half the L2: the members' work counts double
    double page_faults = 0;      // pages of per-tile buffers beyond malloc's mmap threshold
    double vector_waste = 1;     // lanes computed per useful lane along dim 0
    double overhead = 0;         // per tile, per member, per page, per task (operation-equivalents)
    double efficiency = 1;       // busy fraction of the cores over the tasks' waves
    double cost = 0;             // the estimate, in operation-equivalents per core
    bool starves_cores = false;  // fewer tasks than cores where the root's rows could feed them all
    bool bounded = true;         // false: a member's per-tile region is data-dependent
};
TileCost tile_cost(const RuleContext &cx, const FuncNode &root, const std::vector<std::string> &members, bool per_step,
                   int tile_x, int tile_y);

// With `per_step` (an update root), the members are costed per step of its last update's
// reduction: one step's region, times the steps, plus the accumulator's load and store per step.
TileChoice choose_tile(const RuleContext &cx, const FuncNode &root, const std::vector<std::string> &members,
                       bool per_step = false);
// The tile of least estimated cost for a group's root with `members`: an update root hosting
// members is costed both ways (per tile, per reduction step) and takes the cheaper.
TileChoice fit_group(const RuleContext &cx, const GroupPlan &g, const std::vector<std::string> &members);
// The group takes the choice's tile, inner dimensions and member placement.
void take_tile(GroupPlan &g, const TileChoice &t);
// The memory traffic (in operation-equivalents) a producer's own buffer costs: written once,
// read back once, from DRAM when it does not fit the cores' caches.
double traffic_cost(const RuleContext &cx, const FuncNode &n);

// Regroup.cpp: the re-rooting pass over the greedy plan (members that do better as roots
// hosting the producers next to them), by the same cost estimate.
void regroup(const RuleContext &cx, std::vector<GroupPlan> &groups);

}  // namespace diet
