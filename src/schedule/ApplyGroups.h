// Turns the planner's stage groups (StagePlan.h) into directives on the live Funcs, on the CPU:
// each rule's loop structure (tiles, members computed per tile, vectorized and parallel loops,
// update loop orders, rfactor). One note per Func says what was done.
#pragma once

#include "analysis/FunctionDAG.h"
#include "schedule/ScheduleWriter.h"
#include "space/StagePlan.h"

#include <functional>
#include <string>
#include <vector>

namespace diet {

using FuncRefLookup = std::function<ScheduleWriter::FuncRef &(const std::string &)>;

// The C++ spelling of an output buffer by its Parameter's name ("y.output_buffer()", or
// "y.output_buffers()[1]" for a Tuple's second buffer); empty for an input buffer.
std::string output_buffer_ident(const FunctionDAG &dag, const FuncRefLookup &ref, const std::string &buffer);

// Applies one group; returns the notes ("Func f: ...") of the root and every member.
std::vector<std::string> apply_group(const GroupPlan &g, const FunctionDAG &dag, ScheduleWriter &w,
                                     const FuncRefLookup &ref, int vector_bits);

}  // namespace diet
