#include "space/Hardware.h"
#include "common/Errors.h"

#include <sstream>

namespace diet {

using namespace Halide;

CpuLimits CpuLimits::for_target(const Target &t, int parallelism, int64_t llc_bytes) {
    CpuLimits c;
    if (t.arch == Target::X86) {
        if (t.has_feature(Target::AVX512) || t.has_feature(Target::AVX512_Skylake) ||
            t.has_feature(Target::AVX512_Cannonlake) || t.has_feature(Target::AVX512_SapphireRapids)) {
            c.vector_bits = 512;
            c.vector_registers = 32;
        } else if (t.has_feature(Target::AVX) || t.has_feature(Target::AVX2)) {
            c.vector_bits = 256;
            c.vector_registers = 16;
        } else {
            c.vector_bits = 128;
            c.vector_registers = 16;
        }
    } else if (t.arch == Target::ARM) {
        c.vector_bits = 128;
        c.vector_registers = t.bits == 64 ? 32 : 16;
    }
    c.masked_narrow_lanes = t.arch == Target::X86 && (t.has_feature(Target::AVX512_Skylake) || t.has_feature(Target::AVX512_Cannonlake) ||
                                                      t.has_feature(Target::AVX512_SapphireRapids));
    c.dot_product_8bit = t.has_feature(Target::AVX512_SapphireRapids) ||
                         (t.arch == Target::ARM && t.has_feature(Target::ARMDotProd));
    c.cores = std::max(1, parallelism);
    if (llc_bytes > 0) c.llc_bytes = llc_bytes;
    return c;
}

GpuLimits GpuLimits::for_target(const Target &t) {
    // SM counts of the flagship part of each generation; the cost model corrects the rest.
    GpuLimits g;
    int cap = t.get_cuda_capability_lower_bound();
    if (cap >= 90) {
        g.sm_count = 132;  // H100/H200
        g.shared_bytes_per_sm = 228 << 10;
    } else if (cap >= 86) {
        g.sm_count = 84;   // RTX 3090 class
        g.shared_bytes_per_sm = 100 << 10;
        g.max_blocks_per_sm = 16;
    } else if (cap >= 80) {
        g.sm_count = 108;  // A100
    } else if (cap >= 70) {
        g.sm_count = 80;   // V100
        g.shared_bytes_per_sm = 96 << 10;
    } else {
        g.sm_count = 28;
        g.registers_per_block = 65536;
        g.shared_bytes_per_sm = 64 << 10;
        g.max_blocks_per_sm = 16;
    }
    return g;
}

void check_supported_target(const Target &t) {
    user_assert(t.arch == Target::X86 || t.arch == Target::ARM)
        << "Diet: the target " << t.to_string() << " has an architecture Diet does not schedule for "
        << "(supported: x86 and ARM hosts, optionally with CUDA).\n";
    const Target::Feature unsupported[] = {Target::OpenCL, Target::Metal, Target::D3D12Compute,
                                           Target::OpenGLCompute, Target::HVX};
    for (Target::Feature f : unsupported) {
        user_assert(!t.has_feature(f)) << "Diet: the target " << t.to_string()
                                       << " asks for a GPU/DSP API Diet does not support; use cuda or the host.\n";
    }
}

std::string describe(const CpuLimits &c) {
    std::ostringstream o;
    o << "cpu(vector_bits=" << c.vector_bits << ", vector_registers=" << c.vector_registers << ", cores=" << c.cores
      << ", l2=" << (c.l2_bytes >> 10) << "KiB)";
    return o.str();
}

std::string describe(const GpuLimits &g) {
    std::ostringstream o;
    o << "cuda(sms=" << g.sm_count << ", max_threads_per_block=" << g.max_threads_per_block
      << ", shared_per_block=" << (g.shared_bytes_per_block >> 10) << "KiB, shared_per_sm="
      << (g.shared_bytes_per_sm >> 10) << "KiB, regs_per_block=" << g.registers_per_block
      << ", jit_registers=" << g.jit_registers << ")";
    return o.str();
}

}  // namespace diet
