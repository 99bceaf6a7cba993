// Shares one CUDA context and stream between Halide's CUDA runtime and the CUDA runtime (cuBLAS,
// cudaMalloc) in the GPU programs that call Diet's libraries (diet_gpu_runner, gpu_forms_runner).
// Halide's runtime normally creates a context of its own, and device memory of one context is not
// valid in another: its context hook is pointed at the CUDA runtime's primary context and its
// stream hook at one non-blocking stream, which the caller times and gives to cuBLAS.
#pragma once

#include "gpu_common.h"

#include <cuda.h>

#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"

namespace gpu {

inline void check_cu(CUresult r, const char *what) {
    if (r != CUDA_SUCCESS) {
        const char *s = nullptr;
        cuGetErrorString(r, &s);
        std::fprintf(stderr, "%s failed: %s\n", what, s ? s : "?");
        std::exit(3);
    }
}

namespace detail {
inline CUcontext &shared_context() {
    static CUcontext c = nullptr;
    return c;
}
inline cudaStream_t &shared_stream() {
    static cudaStream_t s = nullptr;
    return s;
}
// Halide's hooks: hand out the primary context and the shared stream; nothing to release, the
// CUDA runtime owns the context.
inline int acquire_primary(void *, void **ctx, bool) {
    *ctx = (void *)shared_context();
    return 0;
}
inline int release_primary(void *) { return 0; }
inline int shared_stream_hook(void *, void *, void **stream) {
    *stream = (void *)shared_stream();
    return 0;
}
}  // namespace detail

// Makes `device`'s primary context current, creates the shared stream, installs Halide's hooks,
// prints the device; returns the stream. Exits with 3 when a CUDA call fails.
inline cudaStream_t share_cuda_with_halide(int device) {
    GPU_CHECK_CUDA(cudaSetDevice(device));
    GPU_CHECK_CUDA(cudaFree(nullptr));  // makes the primary context current
    check_cu(cuCtxGetCurrent(&detail::shared_context()), "cuCtxGetCurrent");
    if (!detail::shared_context()) {
        std::fprintf(stderr, "no current CUDA context after cudaFree(0)\n");
        std::exit(3);
    }
    print_device(device);
    GPU_CHECK_CUDA(cudaStreamCreateWithFlags(&detail::shared_stream(), cudaStreamNonBlocking));
    halide_set_cuda_acquire_context(detail::acquire_primary);
    halide_set_cuda_release_context(detail::release_primary);
    halide_set_cuda_get_stream(detail::shared_stream_hook);
    return detail::shared_stream();
}

}  // namespace gpu
