// A pipeline compiled ahead of time into a shared library (see Builder), loaded with dlopen and
// called through its `<symbol>_argv` entry point, whose argument order comes from
// `<symbol>_metadata()`: the caller needs no header and no knowledge of the signature at compile
// time. Runtime-only (no libHalide).
#pragma once

#include "measure/Arguments.h"
#include "measure/HostBuffers.h"

#include <memory>
#include <string>
#include <vector>

namespace diet {

class PipelineLibrary {
public:
    // Loads `path` and finds the entry points; on failure returns null and sets *error. Installs
    // an error handler in the library's own Halide runtime, so that runtime errors are collected
    // (take_errors) instead of printed.
    static std::unique_ptr<PipelineLibrary> open(const std::string &path, const std::string &symbol,
                                                 std::string *error);
    ~PipelineLibrary();

    const halide_filter_metadata_t *metadata() const { return metadata_; }
    int call(void **argv) const { return argv_fn_(argv); }  // 0, or a halide_error_code_t
    void *symbol(const std::string &name) const;            // another symbol of the library, or null
    // The runtime error messages since the last call, joined by "; ".
    static std::string take_errors();

private:
    PipelineLibrary() = default;
    void *handle_ = nullptr;
    int (*argv_fn_)(void **) = nullptr;
    const halide_filter_metadata_t *metadata_ = nullptr;
};

// The argv array of one call: inputs and scalars matched to the metadata's arguments by name,
// outputs by position (the n-th output of the metadata is the n-th Output spec: output names
// carry Halide's uniquifying suffixes, so the reference's and a candidate's may differ).
// `buffers[i]` is the buffer of specs[i] (null for scalars). Returns "" or what does not match.
struct BoundCall {
    std::vector<void *> argv;
    std::vector<halide_scalar_value_t> scalars;
};
std::string bind_arguments(const halide_filter_metadata_t *md, const std::vector<ArgSpec> &specs,
                           const std::vector<ArgBuffer *> &buffers, BoundCall *call);

}  // namespace diet
