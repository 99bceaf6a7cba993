// A stable identity for a pipeline's algorithm on a target: the hash of its printed definitions
// (every Func's arguments, values, reduction domains, predicates and extern calls, its parameters'
// names and types) and of the target string. Schedules and estimates do not enter: every candidate
// of one pipeline, at every shape, has the same fingerprint.
#pragma once

#include "Halide.h"

#include <string>
#include <vector>

namespace diet {

// The text the fingerprint hashes, exposed for tests and debugging. Halide's uniquifying name
// suffixes ("f$3") are removed: they depend on how many Funcs the process made before.
std::string fingerprint_text(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &t);
// 16 hex digits (FNV-1a, 64 bits) of fingerprint_text.
std::string pipeline_fingerprint(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &t);
std::string pipeline_fingerprint(const Halide::Pipeline &p, const Halide::Target &t);

}  // namespace diet
