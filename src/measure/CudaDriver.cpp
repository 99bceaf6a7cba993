#include "measure/CudaDriver.h"

#include <dlfcn.h>

namespace diet {

namespace {

// Driver API signatures (cuda.h is not needed: handles are opaque pointers and integers).
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUdeviceptr = unsigned long long;
constexpr int kAttrL2CacheSize = 38;  // CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE

template<typename F>
F load(void *lib, const char *name) {
    return (F)dlsym(lib, name);
}

}  // namespace

std::string CudaDriver::call_error(const char *what, int code) {
    std::string s = std::string(what) + " failed with CUDA error " + std::to_string(code);
    auto get_string = load<CUresult (*)(CUresult, const char **)>(lib_, "cuGetErrorString");
    const char *text = nullptr;
    if (get_string && get_string(code, &text) == 0 && text) s += std::string(" (") + text + ")";
    return s;
}

CudaDriver::CudaDriver() {
    // RTLD_GLOBAL: Halide's CUDA runtime looks the driver's functions up in the process first and
    // only then dlopens "libcuda.so", a name that driver-only installations may lack.
    lib_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib_) {
        why_ = "the CUDA driver library libcuda.so.1 is not installed or not on the library path";
        return;
    }
    auto init = load<CUresult (*)(unsigned)>(lib_, "cuInit");
    auto count = load<CUresult (*)(int *)>(lib_, "cuDeviceGetCount");
    auto get = load<CUresult (*)(CUdevice *, int)>(lib_, "cuDeviceGet");
    auto get_name = load<CUresult (*)(char *, int, CUdevice)>(lib_, "cuDeviceGetName");
    auto attr = load<CUresult (*)(int *, int, CUdevice)>(lib_, "cuDeviceGetAttribute");
    auto retain = load<CUresult (*)(CUcontext *, CUdevice)>(lib_, "cuDevicePrimaryCtxRetain");
    if (!init || !count || !get || !get_name || !attr || !retain) {
        why_ = "libcuda.so.1 lacks driver API entry points (too old a driver?)";
        return;
    }
    if (CUresult e = init(0)) {
        why_ = call_error("cuInit", e) + ": no usable CUDA device";
        return;
    }
    int n = 0;
    if (CUresult e = count(&n)) {
        why_ = call_error("cuDeviceGetCount", e);
        return;
    }
    if (n == 0) {
        why_ = "the CUDA driver reports no device";
        return;
    }
    CUdevice dev = 0;
    if (CUresult e = get(&dev, 0)) {
        why_ = call_error("cuDeviceGet", e);
        return;
    }
    char name[256] = {0};
    get_name(name, sizeof(name) - 1, dev);
    name_ = name;
    int l2 = 0;
    attr(&l2, kAttrL2CacheSize, dev);
    l2_bytes_ = l2;
    // The primary context: Halide's runtime is told to use it (Runner), so the kernels and the
    // eviction writes share one context and one default stream.
    if (CUresult e = retain(&ctx_, dev)) why_ = call_error("cuDevicePrimaryCtxRetain", e);
}

std::string CudaDriver::synchronize() {
    auto push = load<CUresult (*)(CUcontext)>(lib_, "cuCtxPushCurrent_v2");
    auto pop = load<CUresult (*)(CUcontext *)>(lib_, "cuCtxPopCurrent_v2");
    auto sync = load<CUresult (*)()>(lib_, "cuCtxSynchronize");
    if (!push || !pop || !sync) return "libcuda.so.1 lacks cuCtxSynchronize";
    if (CUresult e = push(ctx_)) return call_error("cuCtxPushCurrent", e);
    CUresult e = sync();
    CUcontext ignored;
    pop(&ignored);
    return e ? call_error("cuCtxSynchronize", e) : "";
}

std::string CudaDriver::evict_l2(int64_t bytes) {
    auto push = load<CUresult (*)(CUcontext)>(lib_, "cuCtxPushCurrent_v2");
    auto pop = load<CUresult (*)(CUcontext *)>(lib_, "cuCtxPopCurrent_v2");
    auto alloc = load<CUresult (*)(CUdeviceptr *, size_t)>(lib_, "cuMemAlloc_v2");
    auto memset32 = load<CUresult (*)(CUdeviceptr, unsigned, size_t)>(lib_, "cuMemsetD32_v2");
    auto sync = load<CUresult (*)()>(lib_, "cuCtxSynchronize");
    if (!push || !pop || !alloc || !memset32 || !sync) return "libcuda.so.1 lacks cuMemAlloc/cuMemsetD32";
    if (CUresult e = push(ctx_)) return call_error("cuCtxPushCurrent", e);
    std::string err;
    if (scratch_bytes_ < bytes) {
        CUdeviceptr p = 0;
        if (CUresult e = alloc(&p, (size_t)bytes)) {
            err = call_error("cuMemAlloc (L2 eviction buffer)", e);
        } else {
            scratch_ = p;  // the previous, smaller one is left to the context: children are short-lived
            scratch_bytes_ = bytes;
        }
    }
    static unsigned counter = 0;
    if (err.empty()) {
        // A different value each time, so no layer can skip the write as redundant.
        if (CUresult e = memset32(scratch_, ++counter, (size_t)(scratch_bytes_ / 4)))
            err = call_error("cuMemsetD32", e);
    }
    if (err.empty()) {
        if (CUresult e = sync()) err = call_error("cuCtxSynchronize", e);
    }
    CUcontext ignored;
    pop(&ignored);
    return err;
}

}  // namespace diet
