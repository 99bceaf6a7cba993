// Diet's options: one name per option, read from HL_DIET_<KEY> environment variables under
// Halide 14 (whose plugin API has no option channel) and from `autoscheduler.<key>` parameters
// under Halide 15+ (same keys, lower case). Unknown keys and malformed values are user errors.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace diet {

// One shape variable's values as the user wrote them in HL_DIET_SHAPES:
//   T=1:128      every integer from 1 to 128
//   T=16:2048:16 from 16 to 2048 in steps of 16
//   T=1,8,64     exactly these values
struct ShapeVarSpec {
    std::string name;
    std::vector<int64_t> values;  // sorted, distinct, non-empty
};

struct Options {
    std::vector<ShapeVarSpec> shapes;  // "shapes": defines or overrides shape-variable ranges
    int samples = 8;                   // "samples": training shapes drawn from the family
    std::vector<ShapeVarSpec> training;  // "training": explicit training shapes (cartesian product), instead of samples
    uint64_t seed = 0;                 // "seed": makes every random choice reproducible
    bool debug = false;                // "debug": print the applied schedule source to stderr
    double timeout_seconds = 10.0;     // "timeout": one measurement's limit; past it the candidate is recorded as hung
    std::string log_path;              // "log": the tuning log (JSON lines); empty: none
    int trials = 0;                    // "trials": measurements in total; 0: no measurement (model or heuristic)
    std::string mode = "joint";        // "mode": joint | per_shape | max_shape | random (uniform samples, for datasets)
    std::string model_path;            // "model": the cost model file, loaded if present, saved after tuning
    std::string report_path;           // "report": JSON report of the tuning run
    int max_kernels = 8;               // "max_kernels": micro-kernels one stage may dispatch among
    std::string emit_generator_path;   // "emit_generator": also write a standalone generator .cpp (algorithm + schedule)
    std::string farm;                  // "farm": "" (measure here) or "slurm" (one sbatch array job per round)
    std::string farm_args;             // "farm_args": partition=...,account=...,time=...,gres=...,tasks=N (measure/FarmConfig.h)
    std::string farm_dir;              // "farm_dir": where rounds are written, on a path the compute nodes share; "": ./diet-farm
    std::string base_model;            // "base_model": the shipped cost model's file; "none": off; "": the default (cost/BaseModel.h)
    std::string base_plan_model;       // "base_plan_model": the shipped plan model's file (the stage-rule search's first rounds); "none": off; "": the default
    std::string dataset_path;          // "dataset": append every measurement to this cost-model dataset (cost/Dataset.h)
    std::string model_features = "kernel";     // "model_features": kernel (loop-nest, no lowering) | ansor (lowered Stmt)
    std::string model_objective = "pairwise";  // "model_objective": pairwise (rank within a shape) | regression
    // "cuda_registers": the register cap the CUDA kernels will be JIT-compiled with when the library
    // runs. Halide 14's CUDA runtime uses 64 unless HL_CUDA_JIT_MAX_REGISTERS is exported then; a
    // user who exports it sets this to the same value, so the heuristic sizes register tiles to it.
    int cuda_registers = 64;

    // Parses a key -> value map (keys without the HL_DIET_ prefix, lower case).
    static Options from_map(const std::map<std::string, std::string> &kv);
    // Collects every HL_DIET_* variable of the process environment.
    static std::map<std::string, std::string> environment_map();
};

// The keys Diet knows, for messages.
const std::vector<std::string> &known_option_keys();

// Exposed for tests: parses one HL_DIET_SHAPES string (or another option with the same grammar,
// named in messages).
std::vector<ShapeVarSpec> parse_shape_specs(const std::string &text, const std::string &option = "HL_DIET_SHAPES");

}  // namespace diet
