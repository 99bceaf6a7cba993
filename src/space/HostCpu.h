// Which Halide target can actually run on this CPU.
//
// Halide 14's `host` target is inferred from a few CPUID bits, and some of its x86 features stand for
// a whole LLVM CPU model: `avx512_sapphirerapids` makes LLVM compile for `-mcpu=sapphirerapids`,
// which includes AVX512-FP16, but Halide sets it on any CPU with AVX-VNNI and AVX512-BF16 (AMD Zen 4
// has both and no FP16): code built for `host` there dies with SIGILL. This file is the one place
// that answers the question: a Halide x86 feature is kept only when the CPU reports every
// instruction-set extension of the LLVM model it selects.
//
// Depends on Halide.h only, so tests that link nothing but libHalide compile it in directly.
#pragma once

#include "Halide.h"

#include <set>
#include <string>
#include <vector>

namespace diet {

// CPU extensions by their Linux /proc/cpuinfo names ("avx512f", "avx512_fp16", "abm" for LZCNT,
// "bmi1", ...). Filled from CPUID (and XGETBV for the operating system's AVX / AVX-512 state) on x86;
// empty elsewhere.
using CpuFeatureSet = std::set<std::string>;
CpuFeatureSet read_host_cpu_features();

// The extensions a Halide x86 target feature needs from the CPU (those of the LLVM CPU model Halide
// compiles for when the feature is the highest one set; empty for a feature that is not an
// instruction-set extension).
const std::vector<std::string> &cpu_extensions_required_by(Halide::Target::Feature f);

// The Halide features of `t` (x86 only) that need extensions `cpu` lacks, each with those
// extensions: {"avx512_sapphirerapids", {"avx512_fp16", "avx_vnni"}}. Empty when `t` runs on `cpu`,
// and for non-x86 targets.
struct MissingFeature {
    std::string feature;                  // Halide's name, as in a target string
    std::vector<std::string> extensions;  // the CPU extensions it needs and `cpu` lacks
};
std::vector<MissingFeature> features_missing_on(const Halide::Target &t, const CpuFeatureSet &cpu);

// `t` without the features listed by features_missing_on: what runs on `cpu`.
Halide::Target runnable_on(const Halide::Target &t, const CpuFeatureSet &cpu);

// Halide's host target minus what this CPU cannot run. Use it wherever Halide's `host` would be
// used to build code that runs here (tests, benchmarks, measurements, the main job).
Halide::Target runnable_host_target();

// The same for a target string a user gave ("host", "host-cuda", "x86-64-linux-avx512_skylake"):
// "host" parts resolve to the runnable host target, explicit features are kept as written.
Halide::Target runnable_target_from_string(const std::string &s);

// "avx512_sapphirerapids (needs avx512_fp16, avx_vnni)" for messages; several joined by "; ".
std::string describe(const std::vector<MissingFeature> &missing);

}  // namespace diet
