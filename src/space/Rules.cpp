#include "space/Rules.h"

namespace diet {

const char *rule_name(RuleKind r) {
    switch (r) {
    case RuleKind::Inline: return "inline";
    case RuleKind::Contraction: return "contraction micro-kernel";
    case RuleKind::Extern: return "extern at root";
    case RuleKind::TiledGroup: return "tiled group";
    case RuleKind::UpdateLoops: return "update loops";
    case RuleKind::RFactor: return "rfactor";
    }
    return "?";
}

const std::vector<RuleInfo> &rule_table() {
    static const std::vector<RuleInfo> table = {
        {RuleKind::Contraction, "contraction micro-kernel",
         "a contraction recognized by FunctionDAG (acc += product of two producers over an RDom)",
         "register-tiled micro-kernel per output tile, specialize() chain of tile variants, operand panels",
         "register tile and vector width from the SIMD register file; task grain from the reduction extent "
         "(MicroKernel.h; searched with the learned cost model)"},
        {RuleKind::Inline, "inline",
         "a pure Func, not an output, read pointwise by every consumer, or a wrapper of the inputs "
         "(boundary conditions)",
         "nothing: Halide inlines it into its consumers", "none"},
        {RuleKind::Extern, "extern at root", "a define_extern stage", "compute_root", "none"},
        {RuleKind::UpdateLoops, "update loops",
         "a Func with update definitions (reductions, scans, scatters) that stays a group root",
         "pure stage: dim 0 vectorized, outer pure loop parallel; each update: the pure loops moved "
         "outside the reduction loops, dim 0 vectorized innermost when it is pure in the update, the "
         "outermost pure loop parallel; members read by its last update only: that update tiled as a "
         "tiled group's root, members computed per tile or per step of its reduction loops; an "
         "associative reduction along its operands' rows (dim 0 strided there): the innermost "
         "reduction variable split into vectors, rfactored into per-lane partial results computed "
         "per row (the tail predicated), the row reduced from them; an arg-reduction gathering along "
         "dim 0 (no associativity proof): computed per group of 8 rows of a wrapper at root, its "
         "accumulators on the task's stack; an output's only update adding a reduction over a "
         "predicated domain: lifted into an rfactor intermediate computed per group of 4 vectors",
         "vector lanes from the target's vector width and the Func's type; members, tile and placement "
         "(per tile or per reduction step) by the tiled group's cost estimate"},
        {RuleKind::RFactor, "rfactor",
         "an update with no pure loop (a histogram's scatter) over a large, associative reduction",
         "split the outermost reduction variable into chunks, rfactor the chunk index into a parallel "
         "intermediate computed at root, merge the chunks in the original update",
         "chunk length: the reduction extent at the representative shape over 4 x cores"},
        {RuleKind::TiledGroup, "tiled group",
         "a pure Func that stays a group root (an output, a Func read by several groups, a Func read "
         "at data-dependent coordinates or whose consumers' group rejected it)",
         "tile dims 0 and 1 (GuardWithIf outer tiles: loop partitioning keeps the steady state "
         "guard-free), small outer dims inside the tile, tile rows fused with large outer dims and "
         "parallel, dim 0 vectorized; members (producers merged into the group) computed per tile, "
         "vectorized; a member read by the root alone at its own coordinates whose reduction keeps "
         "its accumulators in memory (a predicated RDom, or rows sharing the steps' loads): computed "
         "per group of a wrapper (4 vectors, or 1 vector x 8 rows), a constant stack buffer (registers)",
         "members: greedy merging of producers, consumers first, when the arithmetic + memory-traffic "
         "cost estimate does not grow (regions from Halide's bounds inference at the representative "
         "shape; forced when the producer alone would exceed 2^31 bytes); tile: the candidate of "
         "least estimated cost among tile widths of 2-32 vectors and heights 1-64 rows, the tile's "
         "working set within half of L2; then the re-rooting pass (Regroup.cpp): members that do "
         "better as roots hosting the producers next to them"},
    };
    return table;
}

PlanInputs plan_inputs(const FunctionDAG &dag, const ShapeFamily &family, const CpuLimits &cpu,
                       const std::set<std::string> &contraction_funcs) {
    PlanInputs pin;
    pin.dag = &dag;
    pin.family = &family;
    pin.shape = family.representative();
    for (const ShapeVar &v : family.vars) {
        pin.largest[v.name] = v.values.back();
        pin.smallest[v.name] = v.values.front();
    }
    // Params outside the family that size windows (analysis/ParamRanges.h): bound for the costs
    // and the allocation limits, not in `smallest`, whose extents are lower bounds (a region read
    // through x / F shrinks as F grows: its smallest value is no lower bound there).
    pin.params = param_cost_values(dag, family);
    pin.shape.insert(pin.params.representative.begin(), pin.params.representative.end());
    pin.largest.insert(pin.params.largest.begin(), pin.params.largest.end());
    pin.cpu = cpu;
    pin.contraction_funcs = contraction_funcs;
    return pin;
}

std::string plan_key(const PipelinePlan &p) {
    auto base = [](const std::string &n) { return n.substr(0, n.find('$')); };
    std::string s;
    for (const GroupPlan &g : p.groups) {
        s += (s.empty() ? "" : ";") + base(g.root) + ":" + rule_name(g.rule);
        if (g.rule == RuleKind::TiledGroup || !g.members.empty()) s += " " + std::to_string(g.tile_x) + "x" + std::to_string(g.tile_y);
        if (g.members_per_step && !g.members.empty()) s += g.members_per_point ? "/point" : "/step";
        for (const std::string &m : g.members) s += "+" + base(m);
    }
    return s;
}

std::set<std::string> member_ancestors(const GroupPlan &g, const std::string &f,
                                       const std::map<std::string, std::vector<std::string>> &producers) {
    const std::set<std::string> in(g.members.begin(), g.members.end());
    std::set<std::string> out;
    std::vector<std::string> todo = {f};
    while (!todo.empty()) {
        const std::string cur = todo.back();
        todo.pop_back();
        auto it = producers.find(cur);
        if (it == producers.end()) continue;
        for (const std::string &p : it->second) {
            if (in.count(p) && out.insert(p).second) todo.push_back(p);
        }
    }
    return out;
}

std::string describe(const GroupPlan &g) {
    std::string s = std::string(rule_name(g.rule));
    if (g.rule == RuleKind::TiledGroup || !g.members.empty()) {
        const std::string x = g.tile_x_clamped ? "min(row, " + std::to_string(g.tile_x) + ")" : std::to_string(g.tile_x);
        s += " " + (g.tile_x ? x : std::string("all")) + " x " +
             (g.tile_y ? std::to_string(g.tile_y) : std::string("all"));
        if (!g.members.empty()) {
            s += g.members_per_point  ? ", computing per point and reduction step:"
                 : g.members_per_step ? ", computing per tile and reduction step:"
                                      : ", computing per tile:";
            for (const std::string &m : g.members) s += " " + m;
        }
    }
    if (g.row_lanes()) s += ", " + g.lane_rvar + " in vectors of per-lane partial results reduced per row";
    if (g.rule == RuleKind::RFactor) s += " of " + g.rfactor_rvar + " in chunks of " + std::to_string(g.rfactor_chunk);
    if (!g.why.empty()) s += " (" + g.why + ")";
    return s;
}

}  // namespace diet
