// A Func's stages as loop lists (StageNode, analysis/FunctionDAG.h): the loops of each definition,
// innermost first, as Halide's schedule lists them, with the reduction variables' bounds.
#include "analysis/FunctionDAG.h"
#include "analysis/VanishingReads.h"

#include <map>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

std::vector<std::string> StageNode::pure_vars() const {
    std::vector<std::string> v;
    for (const auto &l : loops) {
        if (!l.is_rvar) v.push_back(l.name);
    }
    return v;
}

std::vector<std::string> StageNode::rvars() const {
    std::vector<std::string> v;
    for (const auto &l : loops) {
        if (l.is_rvar) v.push_back(l.name);
    }
    return v;
}

namespace {

// The loops of one stage, innermost first, as Halide's schedule lists them.
StageNode make_stage(const Definition &def, int index) {
    StageNode s;
    s.index = index;
    s.vanishing_reads = reads_vanishing_when_simplified(def);
    std::map<std::string, ReductionVariable> rv;
    for (const ReductionVariable &r : def.schedule().rvars()) {
        rv[r.var] = r;
    }
    for (const Dim &d : def.schedule().dims()) {
        if (d.var == Var::outermost().name()) continue;
        LoopVar l;
        l.name = d.var;
        auto it = rv.find(d.var);
        if (it != rv.end()) {
            l.is_rvar = true;
            l.min = it->second.min;
            l.extent = it->second.extent;
        }
        s.loops.push_back(l);
    }
    return s;
}

}  // namespace

std::vector<StageNode> stages_of(const Function &f) {
    std::vector<StageNode> s;
    if (!f.has_pure_definition()) return s;
    s.push_back(make_stage(f.definition(), 0));
    for (size_t u = 0; u < f.updates().size(); u++) s.push_back(make_stage(f.updates()[u], (int)u + 1));
    return s;
}

}  // namespace diet
