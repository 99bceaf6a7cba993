// The builder: compiles pipelines ahead of time into self-contained shared libraries, one per
// candidate, that the runner loads in a child process (Library.h). Each library holds its own copy
// of the Halide runtime (thread pool, CUDA context handling), linked -Bsymbolic so that it binds
// to that copy and not to another library's or the host process's.
//
// The runtime is compiled once per target and process (it dominates compile time: ~1.8 s against
// ~0.1 s for a small pipeline); each pipeline is compiled with no_runtime and linked against it
// with the system C compiler ($CC, else cc).
#pragma once

#include "Halide.h"

#include <string>
#include <vector>

namespace diet {

struct BuildRequest {
    std::string symbol;  // the C name of the entry point; also names the files
    Halide::Pipeline pipeline;
    Halide::Target target;
};

struct BuildResult {
    std::string symbol;
    std::string library;  // path of the .so when built
    std::string error;    // why not
    double seconds = 0;
    bool ok() const { return error.empty(); }
};

class Builder {
public:
    // Libraries go to `dir` (created when missing). `jobs`: builds at a time; 0: hardware threads.
    explicit Builder(std::string dir, int jobs = 0);

    // Builds in parallel, results in request order. A pipeline that fails to compile or link gets
    // an error and the others are still built. The pipelines must be distinct and nothing may
    // change their Funcs or Parameters meanwhile. Halide 14 compiles distinct Pipelines in
    // separate threads (stress-tested: 12 dense candidates sharing input Parameters, built on two
    // threads, all correct; 1.5x faster than one thread on two cores).
    std::vector<BuildResult> build(const std::vector<BuildRequest> &requests) const;
    BuildResult build_one(const BuildRequest &request) const;

    const std::string &dir() const { return dir_; }

private:
    std::string dir_;
    int jobs_;
};

// The Halide runtime for `t`, compiled into an object file once per process.
std::string runtime_object(const Halide::Target &t);

// The target a pipeline's reference runs on: `t` without GPU features, so the reference is plain
// host code whatever the candidates use.
Halide::Target reference_target(const Halide::Target &t);

}  // namespace diet
