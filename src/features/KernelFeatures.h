// Loop-nest features of a CPU micro-kernel at one shape, computed from Diet's own description of
// the kernel (space/MicroKernel.h) and of the contraction, without lowering anything (as
// Adams2019 featurizes its own LoopNest instead of Halide's Stmt).
//
// Why: the Ansor features of the lowered Stmt (features/Features.h) cost one lowering per
// candidate (0.1-0.3 s, most of a tuning run's model time), and they describe one parallel task
// of the kernel, so kernels that differ only in how the work is cut into tasks, in the tile
// variant a shape selects or in what stays in cache can get the same vector. These features
// name exactly what the space varies (the kernel's fields), what it implies for the registers
// and caches of the target (accumulators against the register file, the panel a task streams
// against L1/L2), and how the kernel meets the shape (the variant selected, tasks against cores,
// work recomputed by shifted-inward tiles). Every field of the kernel enters the vector, so two
// distinct kernels never share one at a shape (tested), and the quantities they are derived from
// are checked against the lowered Stmt (test_features.cpp).
//
// Everything here is plain data (no Halide objects): the same features are computed by the
// tuner and, offline, from a dataset record (cost/Dataset.h).
#pragma once

#include "space/MicroKernel.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace diet {

// What the features need of a contraction (analysis/FunctionDAG.h's MatmulPattern), as plain data.
struct ContractionSummary {
    int operands = 2;
    int strided_operands = 0;  // operands read across the vector dimension (copied when stage_strided)
    int computed_operands = 0; // operands read through a non-copy Func (copied per task)
    int type_bits = 32;        // the accumulator's type
    bool is_float = true;
    bool update_on_output = false;
    int epilogue = 0;          // pure Funcs between the accumulator and the output
    int reduction_vars = 1;
    int host_dims = 2;
    nlohmann::json to_json() const;
    static ContractionSummary from_json(const nlohmann::json &j);  // user_error when malformed
};
ContractionSummary summarize(const MatmulPattern &p);

// The machine, as far as the features go (space/Hardware.h's CpuLimits).
struct MachineSummary {
    int vector_bits = 128;
    int vector_registers = 16;
    int cores = 1;
    int64_t l1_bytes = 32 << 10;
    int64_t l2_bytes = 1 << 20;
    int64_t llc_bytes = 16 << 20;
    nlohmann::json to_json() const;
    static MachineSummary from_json(const nlohmann::json &j);
};
MachineSummary summarize(const CpuLimits &c);

// One kernel at one shape: extents in the kernel's order (vectors, rows, the others fused into
// the task loop) and the number of reduction points per output point.
struct KernelAtShape {
    ContractionSummary contraction;
    MachineSummary machine;
    MicroKernel kernel;
    std::vector<int64_t> extents;
    int64_t reduction_points = 1;
};

const std::vector<std::string> &kernel_feature_names();
int kernel_feature_index(const std::string &name);  // -1 if unknown

// kernel_feature_names().size() values; counts, bytes and extents as log2p, ratios and flags raw.
std::vector<float> kernel_features(const KernelAtShape &k);

}  // namespace diet
