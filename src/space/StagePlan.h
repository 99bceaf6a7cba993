// What the rules decided for every Func that is not a contraction's: the stage groups of the
// pipeline and, per group, the rule that schedules its root and the parameters of that rule. The
// planner (Rules.h) fills it from the analysis; ApplyGroups turns it into directives. Plain data:
// a search mutates it (a group's tile, a member moved out of its group) and re-applies it.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace diet {

enum class RuleKind {
    Inline,       // pure, cheap, read pointwise (or an input's wrapper): Halide inlines it
    Contraction,  // the matmul micro-kernel (MicroKernel.h; scheduled by its own code path)
    Extern,       // an extern stage: computed at root
    TiledGroup,   // a pure root tiled, its producers (members) computed per tile, vectorized, parallel
    UpdateLoops,  // a root with updates (reductions, scans): pure loops outside, dim 0 vectorized
    RFactor,      // a reduction whose pure loops cannot feed the cores: its RDom split, rfactored
};

const char *rule_name(RuleKind r);

struct PipelinePlan;
// A stable text of the plan's decisions (Halide's "$n" suffixes dropped): a measurement's label.
std::string plan_key(const PipelinePlan &p);

struct GroupPlan {
    std::string root;
    RuleKind rule = RuleKind::TiledGroup;
    // TiledGroup: producers computed inside each tile of the root (any order; Halide orders them).
    std::vector<std::string> members;
    // TiledGroup: tile extents along the root's dimensions 0 and 1 (0: the whole dimension).
    int tile_x = 0, tile_y = 0;
    // TiledGroup on an output: tile_x is wider than dim 0 at the family's smallest shape (an image
    // from 1 pixel wide), so the tile is min(row, tile_x) at run time, shifted inwards (a split by
    // a run-time factor; Halide bounds each tile's members by its own extent). Without it such a
    // family got whole-row tiles only, its members' rows beyond the L2 (red-team local contrast
    // normalization: 2.4x Adams2019's time at 1000 x 800).
    bool tile_x_clamped = false;
    // UpdateLoops hosting members: the members are computed per step of the root's last update's
    // reduction loops (inside the tile loop, the tile's loops inside the reduction), not once per
    // tile for the whole reduction (a member indexed by the reduction variables, e.g. non-local
    // means' weights per search offset, then needs one slice per step instead of all of them).
    bool members_per_step = false;
    // The tile's rows may be a ShiftInwards split (tile_y within dim 1 at the smallest shape).
    bool tile_y_shift = false;
    // A root that reads a producer transposed (dims 0 and 1 swapped): blocks of a vector by
    // transpose_block_rows(lanes) rows, the rows unrolled, so Halide loads whole vectors of the
    // producer and transposes them in registers instead of gathering one element per lane.
    bool transpose_blocks = false;
    // UpdateLoops hosting a member read on a diagonal (analysis/DiagonalReads.h) whose own
    // dimension 0 is the diagonal (one value per step along it): the root's last update runs its
    // reduction innermost, unvectorized, and computes the member per point (Halide's default
    // placement: the member's inner reduction is a short loop LLVM vectorizes), its tile rows
    // parallel. Otherwise (members_per_step) the member's slices per step are vectorized along
    // its dimension 0.
    bool members_per_point = false;
    // (UpdateLoops too, without members, where dims 0 and 1 are pure loops of every stage: the
    // reduction loops run outside the vectors; see Planner.cpp.)
    // TiledGroup, a pure root without members whose dimension 0 fills at most half a vector at
    // every shape of the family (interleaved colour channels, rgb(c, x, y)): the vectors run along
    // dimension 1 with dimension 0 a loop inside them, unrolled under a specialization on its
    // extent where the family's is constant (`short_dim0_extent`; 0: it varies), rather than one
    // vector of a few live lanes per point (predicated: probe 10's gamma table, 8x slower).
    // `short_dim0_shift`: dimension 1 is at least a vector at the family's smallest shape.
    bool short_dim0 = false;
    int short_dim0_extent = 0;
    bool short_dim0_shift = false;
    // TiledGroup, an output whose buffers declare a dimension >= 2 innermost (stride 1: an
    // interleaved image written x, y, c with c the fastest in memory, analysis/StorageOrder.h)
    // that the tile keeps inside (inner_dims): that dimension runs innermost, inside the vectors
    // along x, unrolled under a specialization on its extent where the family's is constant
    // (`interleaved_extent`; 0: it varies), so Halide stores whole interleaved vectors instead of
    // one strided vector per channel.
    int interleaved_dim = 0;
    int interleaved_extent = 0;
    // TiledGroup: the points of the root's dims 0 and 1 and its inner dims where each has the
    // same extent at every shape of the family (0: some varies): a plane of constant size, whose
    // iterations a task groups when members are computed per iteration (batched 8 x 8 products).
    int64_t constant_plane_points = 0;
    // The root's dim 0 at the family's largest shape (0: unknown): what bounds a dim 0 read from
    // an output's extent, which no Param's range does (schedule/ParallelTasks.cpp short rows).
    int64_t dim0_largest = 0;
    // Dimensions >= 2 of the root kept inside the tile (small ones, e.g. colour channels).
    std::vector<int> inner_dims;
    // TiledGroup: Funcs of the group (root or members) whose definition compares a dimension with
    // constants (analysis/ChannelSelects.h) where that dimension's extent is the same small
    // constant at every shape of the family: Func -> {dimension -> extent}. That dimension runs
    // unrolled (the root's under a specialization on its extent and min), so each copy keeps only
    // the branch its constant takes. Not the root's vectorized dim 0 nor its interleaved_dim.
    std::map<std::string, std::map<int, int>> select_unrolled;
    // UpdateLoops, without members: the update reduces along its operands' innermost dimension
    // (a row's maximum or sum) and dim 0 of the root moves along an outer one, so this innermost
    // reduction variable is split into vectors and rfactored into per-lane partial results
    // (vectorized, the tail predicated), which the update reduces per row; empty: dim 0 vectorized.
    std::string lane_rvar;
    // UpdateLoops, an intermediate whose updates load densely along its dimension 1 only
    // (Updates.cpp dense_along_dim1_only): short_dim0's loops whatever dimension 0's width,
    // stored with dimension 1 innermost, each update's reduction loops inside dimension 0's.
    bool dim1_vectors = false;
    // dim1_vectors: each update step's register tile, vectors along dimension 1 by points of
    // dimension 0 (half the vector registers hold the sums; the step's loads and broadcasts shared).
    int dim1_tile_vectors = 1;
    int dim1_tile_rows = 1;
    bool row_lanes() const { return rule == RuleKind::UpdateLoops && !lane_rvar.empty() && members.empty(); }
    // The same for members with an update (a LayerNorm's mean and variance computed per tile of
    // their consumer): member -> its innermost reduction variable.
    std::map<std::string, std::string> member_lane_rvars;
    // Members with updates -> their dim 0 at the family's smallest shape (their whole region):
    // with whole-row tiles (tile_x 0), a member's update takes several vectors per reduction step
    // only within it, as within tile_x otherwise (wider, the vectors past the row run predicated).
    std::map<std::string, int64_t> member_narrowest_x;
    // Members whose vectors, and innermost storage, run along their dimension 1 (the value: 1):
    // their readers read dimension 1 at their own vectorized dimension 0 and dimension 0 elsewhere
    // (analysis/ConsumerReductions.h read_along_dim1_at_vectors), and their
    // dimension 0 is short or gathers. A LayerNorm's Welford statistics per 32-wide chunk c of
    // each token t, merged per token over the chunks: vectors along c (NC <= 24 chunks) filled a
    // second vector at most half and gathered with stride 32; along t, 3.4x faster by hand (red-team
    // round 12). Round 17's Kuwahara statistics st(q, x, y) over 4 quadrants: 19-24x faster.
    // Decided after the tile, which costs members along dimension 0 as before.
    std::map<std::string, int> member_vector_dims;
    // RFactor: the reduction variable split into `rfactor_chunk`-long chunks, one per parallel task.
    std::string rfactor_rvar;
    int rfactor_chunk = 0;
    int vector_lanes = 1;
    // Funcs of the group (root or members) whose pure dim-0 vector split may shift its last vector
    // inwards (ShiftInwards): at the family's smallest shape each is still at least a vector wide,
    // so the shifted vector stays inside the data. Halide then partitions the loop (and a boundary
    // condition's clamps) into a dense steady state; a GuardWithIf vector tail left the guard and
    // the clamps (gathers) inside the innermost loop. The others keep GuardWithIf.
    std::vector<std::string> shift_inwards;
    std::string why;  // one line for the user: what the rule does here and why
};

// The rows of a transposing group's block (GroupPlan::transpose_blocks), unrolled: as many as a
// vector has lanes, up to 256 elements per block. An 8-bit transpose's 32 x 32 block, unrolled
// with guarded rows, took LLVM 11 s to compile on AVX2 (a random pipeline's build 57 s) and ran
// 1.1-2.3x slower than 32 x 8 (two noisy runs: apps/results/cpu/transpose_blocks_2026-11-30/);
// 8 x 8 float and 16 x 16 16-bit blocks are unchanged.
inline int transpose_block_rows(int lanes) {
    constexpr int kMaxBlockElements = 256;
    return lanes <= 1 ? 1 : std::max(1, std::min(lanes, kMaxBlockElements / lanes));
}

// What a search needs to change a plan and keep it valid, per non-inlined Func.
struct FuncFacts {
    int position = 0;            // in the DAG's producers-first order
    int lanes = 1;               // vector lanes of its widest type
    int64_t narrowest_x = 0;     // dim 0 (dim 1) at the family's smallest shape; 0: unknown
    int64_t narrowest_y = 0;
    bool pure = true;            // no update definitions
    bool tiles_may_clamp = false;  // tiles wider than narrowest_x are candidates (GroupPlan::tile_x_clamped)
    bool output = false;
    std::vector<std::string> feeds;      // its non-inlined consumers (through inlined Funcs)
    std::vector<std::string> producers;  // its non-inlined producers (through inlined Funcs)
};

struct PipelinePlan {
    std::vector<std::string> inlined;
    std::vector<GroupPlan> groups;  // producers' groups before consumers'
    std::map<std::string, FuncFacts> facts;
    const GroupPlan *group_of_root(const std::string &root) const {
        for (const GroupPlan &g : groups) {
            if (g.root == root) return &g;
        }
        return nullptr;
    }
};

}  // namespace diet
