// Linked into every test that JIT-compiles: before the first test runs, HL_JIT_TARGET is set to
// the target this CPU can run (src/space/HostCpu.h), so a plain realize() or compile_jit() never
// builds Halide 14's `host` (avx512_sapphirerapids on AMD Zen 4, whose code dies with SIGILL).
// A HL_JIT_TARGET set by the user is kept.
#define CATCH_CONFIG_EXTERNAL_INTERFACES  // the listener API
#include <catch2/catch.hpp>

#include "space/HostCpu.h"

#include <cstdlib>

namespace {
struct RunnableJitTarget : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testRunStarting(const Catch::TestRunInfo &) override {
        const char *set = std::getenv("HL_JIT_TARGET");
        if (set && *set) return;
        setenv("HL_JIT_TARGET", diet::runnable_host_target().to_string().c_str(), 1);
    }
};
}  // namespace

CATCH_REGISTER_LISTENER(RunnableJitTarget)
