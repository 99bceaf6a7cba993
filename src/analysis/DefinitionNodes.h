// The size of a definition's code in IR nodes: its values, arguments and where() predicates, a call
// of an inlined Func counted with that Func's definition (a boundary condition's clamps, a few
// levels deep), another Func's call as its arguments. What a loop body repeats per copy: per
// unrolled step of a window (analysis/WindowParams.h), per specialization of a group's root that
// copies its members (schedule/ApplyGroups.cpp heavy_group).
#pragma once

#include "Halide.h"

#include <cstdint>
#include <functional>
#include <string>

namespace diet {

struct DefinitionNodes {
    int64_t nodes = 0;
    bool calls_math = false;  // some node calls the math library (exp, log: a PureExtern call)
    bool gathers = false;     // some load's index reads a load (a table indexed by data: a gather per lane)
};

DefinitionNodes definition_nodes(const Halide::Internal::Definition &def, const std::function<bool(const std::string &)> &inlined);

}  // namespace diet
