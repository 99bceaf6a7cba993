// Host memory for the buffer arguments of a compiled pipeline: dense buffers with the extents of
// an ArgSpec, deterministic random inputs, poisoned outputs and the comparison of an output with
// the reference's. Runtime-only (no libHalide): the standalone runner uses it too.
#pragma once

#include "measure/Arguments.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace diet {

// A dense buffer (innermost dimension stride 1) in its own anonymous mapping. A `shared` one is
// mapped MAP_SHARED, so what a forked child writes into it reaches the parent: that is how a
// reference run in a child hands its output back.
class ArgBuffer {
public:
    ArgBuffer(const ArgSpec &spec, bool shared);  // throws std::bad_alloc when it cannot be mapped
    ~ArgBuffer();
    ArgBuffer(const ArgBuffer &) = delete;
    ArgBuffer &operator=(const ArgBuffer &) = delete;

    halide_buffer_t *raw() { return &buf_; }
    const halide_buffer_t *raw() const { return &buf_; }
    void *host() const { return mem_; }
    const ArgSpec &spec() const { return spec_; }
    int64_t elements() const { return spec_.elements(); }

private:
    ArgSpec spec_;
    std::vector<halide_dimension_t> dims_;
    halide_buffer_t buf_{};
    void *mem_ = nullptr;
    size_t mapped_ = 0;
};

// Values depend only on (seed, argument name, index), so every process that fills the same spec
// with the same seed (the parent, the standalone runner on another machine) gets the same data.
// Floats are uniform in [-1, 1); integers lie in [0, min(max of the type, 255)], non-negative and
// small because integer inputs are often indices or pixel values.
void fill_random(ArgBuffer &b, uint64_t seed);

// All bytes 0xFF: NaN for every float type, so an element the pipeline did not write stands out.
void poison(ArgBuffer &b);

struct Comparison {
    double max_rel_error = 0;  // max |out - ref| / max |ref| (integers: / max(max |ref|, 1)); inf on a NaN mismatch
    std::string worst;         // "y[123]: 4.5 vs reference 1.25" at the largest difference, empty when equal
};
Comparison compare(const ArgBuffer &out, const ArgBuffer &ref);

// The largest max_rel_error a correct result of this type may have. Floats: reassociated sums
// (different tilings and unrolling) differ by rounding, far below these; integers must be exact.
double tolerance_for(halide_type_t t);

}  // namespace diet
