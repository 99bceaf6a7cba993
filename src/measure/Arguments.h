// The arguments of a compiled pipeline, described as plain data: what the standalone runner reads
// from a batch manifest and what the in-process runner derives from a Halide::Pipeline. Nothing
// here needs libHalide (only HalideRuntime.h), so apps/diet_runner.cpp compiles it too.
#pragma once

#include "HalideRuntime.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace diet {

enum class ArgKind { Scalar, Input, Output };

struct ArgSpec {
    std::string name;
    ArgKind kind = ArgKind::Input;
    halide_type_t type = halide_type_t(halide_type_float, 32);
    std::vector<int64_t> min, extent;  // buffers: per dimension, innermost first
    double value = 0;                  // scalars: the value passed (integers are exact below 2^53)

    bool is_buffer() const { return kind != ArgKind::Scalar; }
    int64_t elements() const;  // product of the extents (1 for a scalar)
    int64_t bytes() const;     // elements * element size
};

// "float32", "int8", "uint1" (bool), "bfloat16"; the inverse returns false on anything else.
std::string type_name(halide_type_t t);
bool parse_type_name(const std::string &s, halide_type_t *t);
const char *kind_name(ArgKind k);

void to_json(nlohmann::json &j, const ArgSpec &a);
void from_json(const nlohmann::json &j, ArgSpec &a);  // throws nlohmann::json::exception when malformed

// Element access by runtime type, for filling inputs and comparing outputs. Float16 and bfloat16
// are converted by bit manipulation, since the runtime headers carry no conversion.
double load_element(halide_type_t t, const void *base, int64_t index);
void store_element(halide_type_t t, void *base, int64_t index, double v);

// Whether a canonical target string (Target::to_string(), as metadata and manifests hold it)
// names the CUDA feature.
bool target_string_has_cuda(const std::string &target);

}  // namespace diet
