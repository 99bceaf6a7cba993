// Turns decisions into a schedule on the live Funcs: the micro-kernel of each matmul-like stage
// (as a specialize() chain of tile variants so that every shape is guard-free) and a sensible
// default for every other stage.
#pragma once

#include "analysis/FunctionDAG.h"
#include "dispatch/Dispatch.h"
#include "schedule/ScheduleWriter.h"
#include "space/Hardware.h"
#include "space/MicroKernel.h"
#include "space/StagePlan.h"

#include <string>
#include <vector>

namespace diet {

struct KernelChoice {
    MatmulPattern pattern;
    MicroKernel kernel;
    // Empty: the whole chain of tile variants (every shape). Else the host's extents at one shape:
    // only the variant that fits them, without specialize(), which compiles several times faster
    // (for measuring and featurizing a candidate at that shape; the code that runs is the same).
    std::vector<int64_t> only_for_extents;
    // Non-empty: several kernels, each for a box of output extents (nested specialize()); `kernel`
    // is then ignored. Every leaf's kernel must agree on operand staging (a wrapper Func exists for
    // all specializations or for none), but for in-place column leaves among staged ones where the
    // space holds both (space/MicroKernel.h unstaged_alternatives: they compute in an rfactor
    // intermediate that reads the operands themselves, schedule/CpuTiling.h tile_acc_direct).
    Dispatch dispatch;
    std::string chosen_by = "the register-tile intensity heuristic";  // for the emitted comment
    // The reduction's size in terms of the output's extents, for the run-time task grain (CPU).
    ReductionModel reduction;
    // The host's extents (in the kernel's order) at every shape of the family, where the family
    // is small enough to list: tile variants that no shape takes are not specialized on (CPU).
    // Empty: every variant of the chain is kept.
    std::vector<std::vector<int64_t>> family_extents;
    // Where the family is too large to list: the smallest and largest of each of those extents
    // over it (schedule/VariantCells.h). Empty: not known.
    std::vector<std::pair<int64_t, int64_t>> family_box;
};

// Returns one human-readable line per decision (placement and micro-kernel of each Func). Every
// other stage follows `plan` (the rules' stage groups) on the CPU; without a plan, or on a GPU,
// the fixed default rules (inline cheap pointwise Funcs, compute_root the rest, parallel and
// vectorized loops).
std::vector<std::string> apply_schedule(const FunctionDAG &dag, const std::vector<KernelChoice> &kernels,
                                        const Halide::Target &target, const CpuLimits &cpu, ScheduleWriter &w,
                                        const PipelinePlan *plan = nullptr);

}  // namespace diet
