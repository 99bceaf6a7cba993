// Candidates: one micro-kernel per matmul-like stage. A candidate is compiled on a deep copy of
// the pipeline's Funcs, so any number of them can be built from one pipeline without touching
// the Funcs the plugin finally schedules.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "schedule/ApplySchedule.h"
#include "space/Hardware.h"

#include <memory>
#include <string>
#include <vector>

namespace diet {

struct Candidate {
    std::vector<KernelChoice> kernels;  // in FunctionDAG::matmuls() order
    // The rules' stage groups for every other stage (null: the fixed default rules).
    std::shared_ptr<const PipelinePlan> plan;
    std::string describe() const;       // "acc:cpu{...};acc2:cpu{...}", stable, used as a key
};

// A fresh copy of the (not yet scheduled) pipeline: same Funcs, names and parameters, with the
// candidate's micro-kernels and Diet's default rules for every other stage applied. Halide 14
// compiles (JIT too) only constant estimates, so they are made constant at `estimates_at`: in the
// copy's Funcs and in the input buffer parameters, which the copy shares with the original.
Halide::Pipeline instantiate(const std::vector<Halide::Internal::Function> &outputs, const Candidate &c,
                             const Halide::Target &target, const CpuLimits &cpu, const Shape &estimates_at);

// A fresh unscheduled copy (Halide's defaults), the reference candidates are checked against.
Halide::Pipeline unscheduled_copy(const std::vector<Halide::Internal::Function> &outputs, const Shape &estimates_at);

}  // namespace diet
