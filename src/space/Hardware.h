// Hardware limits held as data. The micro-kernel space is generated from these numbers,
// never from the divisors of one shape.
#pragma once

#include "Halide.h"

#include <cstdint>
#include <string>

namespace diet {

struct CpuLimits {
    int vector_bits = 128;      // widest SIMD register the target may use
    int vector_registers = 16;  // architectural SIMD registers
    int cores = 1;              // from machine_params' parallelism
    int64_t l1_bytes = 32 << 10;
    int64_t l2_bytes = 1 << 20;
    int64_t llc_bytes = 16 << 20;
    // Sums four 8-bit products into a 32-bit lane in one instruction (x86 VNNI vpdpbusd, which
    // Halide 14 emits only under avx512_sapphirerapids; ARM's udot/sdot under arm_dot_prod).
    // Without it, 8-bit operands are summed in pairs of 16-bit products (vpmaddwd).
    bool dot_product_8bit = false;
    // Masked loads and stores of 8- and 16-bit lanes (AVX-512BW). Without them (AVX2, NEON) Halide
    // 14 / LLVM run a guarded vector of such lanes lane by lane (schedule/ApplyGroupLoops.cpp).
    bool masked_narrow_lanes = false;

    int lanes(const Halide::Type &t) const { return std::max(1, vector_bits / t.bits()); }
    static CpuLimits for_target(const Halide::Target &t, int parallelism, int64_t llc_bytes);
};

// The register cap per thread Halide 14's CUDA runtime JIT-compiles kernels with unless
// HL_CUDA_JIT_MAX_REGISTERS says otherwise (Options::cuda_registers defaults to it).
constexpr int kHalideJitRegisters = 64;

struct GpuLimits {
    int sm_count = 108;
    int max_threads_per_block = 1024;
    int warp_size = 32;
    int64_t shared_bytes_per_block = 48 << 10;
    int registers_per_block = 65536;
    int registers_per_thread = 255;
    int64_t shared_bytes_per_sm = 164 << 10;  // sm_80: 164 KiB usable; sm_90: 228 KiB
    int max_blocks_per_sm = 32;
    // The cap the kernels are JIT-compiled with at run time (Options::cuda_registers): Halide 14's
    // CUDA runtime loads the PTX with CU_JIT_MAX_REGISTERS = 64 unless told otherwise, whatever
    // ptxas could allocate offline (registers_per_thread).
    int jit_registers = kHalideJitRegisters;
    static GpuLimits for_target(const Halide::Target &t);
};

// user_error unless Diet can schedule for `t` (x86/ARM CPUs, CUDA GPUs).
void check_supported_target(const Halide::Target &t);

std::string describe(const CpuLimits &c);
std::string describe(const GpuLimits &g);

}  // namespace diet
