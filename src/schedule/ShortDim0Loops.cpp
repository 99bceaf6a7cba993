// GroupPlan::short_dim0's loops (schedule/GroupApplier.h): vectors along a root's dimension 1,
// its dimension 0 a loop inside them or, stored with dimension 1 innermost (dim1_vectors),
// outside an update's reduction loops.
#include "schedule/GroupApplier.h"
#include "analysis/MathCalls.h"

namespace diet {

using namespace Halide;
using StageRef = GroupApplier::StageRef;

// GroupPlan::short_dim0 on stage `s`: vectors along dimension 1, dimension 0 a loop inside them
// (unrolled under a specialization on its extent where the family's is constant: Halide then
// stores the unrolled channels as one interleaved vector), an update's reduction loops outside
// the vectors, the outer pure dimensions parallel.
// (Halide 14 refuses ShiftInwards on an update.) Where dimension 1 may be narrower than a vector at
// the family's smallest shape, its last vector is guarded there and shifted inwards under a
// specialization where it holds a vector: an interleaved RGB output of 8-bit lanes, 129 pixels wide,
// ran 2.1x slower guarded (a predicated vector per row; round 13's demosaic).
std::string GroupApplier::short_dim0_stage(const GroupPlan &g, const FuncNode &n, StageRef &st, const StageNode &s) {
    if (s.index == 0 && !g.short_dim0_shift) {
        if (const std::optional<SizeExpr> width = extent_of(n, 1)) {
            StageRef wide = w_.specialize(st, w_.at_least(*width, g.vector_lanes));
            short_dim0_loops(g, n, wide, s, TailStrategy::ShiftInwards);
        }
    }
    return short_dim0_loops(g, n, st, s, s.index == 0 && g.short_dim0_shift ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
}

std::string GroupApplier::short_dim0_loops(const GroupPlan &g, const FuncNode &n, StageRef &st, const StageNode &s,
                                           TailStrategy tail) {
    const std::vector<std::string> args = n.func.args(), rvars = s.rvars();
    const std::string c = args[0], x = args[1];
    std::vector<std::string> v = vectorize_dim(st, x, g.vector_lanes, tail);
    // Stored with x innermost (dim1_vectors), an update keeps its sums in registers across its
    // reduction loops, c outside them: a tile of dim1_tile_rows points of c by dim1_tile_vectors
    // vectors per step (each step's loads and broadcasts shared). Otherwise c runs inside the vectors.
    const bool c_outside = g.dim1_vectors && s.index > 0;
    std::vector<std::string> order = c_outside ? std::vector<std::string>{v.front()} : std::vector<std::string>{c, v.front()};
    std::string c_loop = c;
    if (c_outside && v.size() > 1 && g.dim1_tile_vectors > 1) {
        const std::string outer_v = v.back();
        w_.split(st, outer_v, outer_v + "_o", outer_v + "_u", g.dim1_tile_vectors, TailStrategy::GuardWithIf);
        w_.unroll(st, outer_v + "_u");
        order.push_back(outer_v + "_u");
        v.back() = outer_v + "_o";
    }
    if (c_outside && g.dim1_tile_rows > 1) {
        w_.split(st, c, c + "_o", c + "_u", g.dim1_tile_rows, TailStrategy::GuardWithIf);
        w_.unroll(st, c + "_u");
        order.push_back(c + "_u");
        c_loop = c + "_o";
    }
    order.insert(order.end(), rvars.begin(), rvars.end());
    if (c_outside) order.push_back(c_loop);
    std::vector<std::string> outer;
    for (const std::string &p : s.pure_vars()) {
        if (p != c && p != x) outer.push_back(p);
    }
    if (v.size() > 1) (outer.empty() ? outer : order).push_back(v.back());
    // Members are computed per row, kRowsPerTask rows per parallel task: a task per row of a
    // small image (129 x 97) cost more than the members it kept out of memory (a guarded split
    // of the row loop; each row's members cover exactly that row).
    std::string member_loop;
    if (!g.members.empty() && !outer.empty()) {
        const std::string y = outer.front();
        w_.split(st, y, y + "_task", y + "_in_task", kRowsPerTask, TailStrategy::GuardWithIf);
        member_loop = y + "_in_task";
        order.push_back(member_loop);
        outer.front() = y + "_task";
    }
    order.insert(order.end(), outer.begin(), outer.end());
    w_.reorder(st, order);
    // The serial specialization's points count each member's as much as the root's.
    const std::string par =
        outer.empty() ? std::string()
                      : fused_parallel_unless_small(w_, st, outer, n.name + "_rows_",
                                                    stage_points(n, s.index, (1 + (int64_t)g.members.size()) *
                                                                                 (1 + kPointsPerMathCall * math_calls_per_point(dag_, n.func))));
    // Last: a specialization copies the schedule so far (the parallel loop), and the small
    // shapes' serial specialization is tested first.
    const std::optional<SizeExpr> channels = extent_of(n, 0);
    if (g.short_dim0_extent > 0 && channels && !c_outside) {
        StageRef constant = w_.specialize(st, channels_constant(n, 0, *channels, g.short_dim0_extent));
        if (n.is_output && n.consumers.empty()) {
            w_.unroll(constant, c);
        } else {
            // Computed at root, its region is what Halide infers from the readers (an output
            // read by other stages: its buffer's and theirs), which it may not prove constant
            // where the analysis does (test_fuzz seeds 20262116, a boundary condition read by a
            // product, and 20264448, an output read by another output: "Can only unroll for
            // loops over a constant extent"): a constant split, unrolled, guarded past the region.
            w_.split(constant, c, c + "_o", c + "_u", g.short_dim0_extent, TailStrategy::GuardWithIf);
            w_.unroll(constant, c + "_u");
        }
    }
    if (g.dim1_vectors) {
        note_once("Func " + n.name + ": its updates load densely along " + x + " only: vectors along " + x + ", stored innermost, " + c +
                  " outside its reduction loops.");
    } else {
        note_once("Func " + n.name + ": its dimension " + c + " fills at most half a vector: vectors along " + x + ", " + c +
                  " inside them" + (g.short_dim0_extent > 0 && channels ? " (unrolled where it is " + std::to_string(g.short_dim0_extent) + ")" : "") + ".");
    }
    return member_loop.empty() ? par : member_loop;
}

}  // namespace diet
