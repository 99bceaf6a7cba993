// The runner: measures compiled pipelines (shared libraries from Builder) on the host CPU or on a
// CUDA GPU, each run isolated in a child process. For one shape it keeps the inputs (random,
// seeded) and the reference's outputs (a plain schedule of the same pipeline, run once on the same
// inputs); each candidate is then checked against the reference and timed. Runtime-only: the
// standalone runner (apps/diet_runner.cpp) is this same code.
#pragma once

#include "measure/Arguments.h"
#include "measure/HostBuffers.h"
#include "measure/Isolate.h"
#include "measure/Timing.h"

#include <memory>
#include <string>
#include <vector>

namespace diet {

struct RunnerOptions {
    TimingPolicy timing;
    IsolationLimits limits{10.0, default_memory_limit()};
    double reference_timeout_factor = 10;  // the reference is an unscheduled (slow) pipeline
    bool cold_l2 = false;                  // CUDA: evict the L2 cache before every timed run
    uint64_t seed = 0;                     // of the random inputs
};

struct LibraryRef {
    std::string path, symbol;
    bool cuda = false;  // compiled for a target with CUDA: run on the GPU
};

struct Outcome {
    double median_seconds = 0;
    int repeats = 0;
    double max_rel_error = 0;
    std::string mode;   // "cpu", "cuda-warm" or "cuda-cold"
    std::string error;  // empty: correct and timed
    bool ok() const { return error.empty(); }
};

class ShapeBench {
public:
    // Allocates and fills the inputs of one shape; throws std::bad_alloc when they do not fit.
    ShapeBench(std::vector<ArgSpec> specs, uint64_t seed);
    ~ShapeBench();

    // Runs the reference once, in a child, into shared memory. Returns "" or the failure.
    std::string run_reference(const LibraryRef &ref, const RunnerOptions &o);
    bool has_reference() const { return !reference_.empty(); }
    // Checks one candidate against the reference and times it, in a child.
    Outcome measure(const LibraryRef &lib, const RunnerOptions &o) const;

    const std::vector<ArgSpec> &specs() const { return specs_; }
    int64_t bytes() const;

private:
    std::vector<ArgSpec> specs_;
    std::vector<std::unique_ptr<ArgBuffer>> inputs_;     // per spec; null for scalars and outputs
    std::vector<std::unique_ptr<ArgBuffer>> reference_;  // per spec; the reference outputs, shared memory
};

// "" when a CUDA device can be used here, else why not. Probed once per process, in a child.
std::string cuda_unusable_reason();
// The message given when a target asks for CUDA and no device can be used.
std::string cuda_missing_message(const std::string &target, const std::string &reason);

}  // namespace diet
