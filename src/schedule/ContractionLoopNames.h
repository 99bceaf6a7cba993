// The loop and argument names a contraction's schedule refers to, shared by the CPU tiling
// (ApplyMatmul.cpp, ApplyVariants.cpp) and the staged CUDA tiling (GpuTiling.cpp).
#pragma once

#include <string>
#include <vector>

namespace diet {

struct ContractionLoopNames {
    std::string n, m;                    // host's innermost two dimensions
    std::vector<std::string> batch;      // host's outer dimensions
    std::string rn, rm;                  // the acc arguments they read
    std::vector<std::string> rbatch;
    // acc's arguments in the tile's order, the vectors' first (its storage order, innermost first).
    std::vector<std::string> acc_dims() const {
        std::vector<std::string> d = {rn, rm};
        d.insert(d.end(), rbatch.begin(), rbatch.end());
        return d;
    }
    std::vector<std::string> reduction;  // innermost first (the first update's)
    std::vector<std::vector<std::string>> update_reductions;  // every contraction update's
};

}  // namespace diet
