// What the rules decided for every Func that is not a contraction's: the stage groups of the
// pipeline and, per group, the rule that schedules its root and the parameters of that rule. The
// planner (Rules.h) fills it from the analysis; ApplyGroups turns it into directives. Plain data:
// a search mutates it (a group's tile, a member moved out of its group) and re-applies it.
#pragma once

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

struct GroupPlan {
    std::string root;
    RuleKind rule = RuleKind::TiledGroup;
    // TiledGroup: producers computed inside each tile of the root (any order; Halide orders them).
    std::vector<std::string> members;
    // TiledGroup: tile extents along the root's dimensions 0 and 1 (0: the whole dimension).
    int tile_x = 0, tile_y = 0;
    // Dimensions >= 2 of the root kept inside the tile (small ones, e.g. colour channels).
    std::vector<int> inner_dims;
    // RFactor: the reduction variable split into `rfactor_chunk`-long chunks, one per parallel task.
    std::string rfactor_rvar;
    int rfactor_chunk = 0;
    int vector_lanes = 1;
    std::string why;  // one line for the user: what the rule does here and why
};

struct PipelinePlan {
    std::vector<std::string> inlined;
    std::vector<GroupPlan> groups;  // producers' groups before consumers'
    const GroupPlan *group_of_root(const std::string &root) const {
        for (const GroupPlan &g : groups) {
            if (g.root == root) return &g;
        }
        return nullptr;
    }
};

}  // namespace diet
