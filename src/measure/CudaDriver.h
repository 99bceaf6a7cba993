// The few CUDA driver calls measurement needs, loaded with dlopen from libcuda.so.1 so that
// nothing links against CUDA: probing for a device, the context the measured pipelines run in,
// and a scratch buffer to evict the L2 cache between cold runs. Runtime-only.
//
// CUDA cannot be used in a child forked after the parent initialized it, and every measurement
// runs in a forked child (Isolate.h): so the parent never calls cuInit; the probe runs in a child
// of its own (Runner.h: cuda_unusable_reason).
#pragma once

#include <cstdint>
#include <string>

namespace diet {

class CudaDriver {
public:
    // Loads the driver, initializes it and retains device 0's primary context; on failure
    // usable() is false and why() says what is missing.
    CudaDriver();
    bool usable() const { return why_.empty(); }
    const std::string &why() const { return why_; }
    const std::string &device_name() const { return name_; }
    int64_t l2_bytes() const { return l2_bytes_; }
    void *context() const { return ctx_; }

    // Writes `bytes` of device memory (allocated on first use) and waits: whatever the timed
    // kernel left in L2 is evicted. Returns "" or the driver's error.
    std::string evict_l2(int64_t bytes);
    std::string synchronize();

private:
    std::string why_, name_;
    int64_t l2_bytes_ = 0;
    void *lib_ = nullptr;
    void *ctx_ = nullptr;
    uint64_t scratch_ = 0;
    int64_t scratch_bytes_ = 0;
    std::string call_error(const char *what, int code);
};

}  // namespace diet
