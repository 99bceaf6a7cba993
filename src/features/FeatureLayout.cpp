// Names and layout of the features (FeatureLayout.h, Features.h).
#include "features/FeatureLayout.h"
#include "common/Errors.h"

#include <algorithm>
#include <cmath>

namespace diet {
namespace feature_detail {

std::vector<std::string> make_ansor_names() {
    std::vector<std::string> n = {"float_mad",   "float_addsub", "float_mul",     "float_divmod",   "float_cmp",
                                  "float_mathfunc", "float_otherfunc", "int_mad", "int_addsub", "int_mul",
                                  "int_divmod", "int_cmp",      "int_mathfunc",  "int_otherfunc",  "bool_op",
                                  "select_op"};
    const char *positions[] = {"kPosNone",        "kPosInnerSpatial", "kPosMiddleSpatial", "kPosOuterSpatial",
                               "kPosInnerReduce", "kPosMiddleReduce", "kPosOuterReduce",   "kPosMixed"};
    for (const char *kind : {"vec", "unroll", "parallel"}) {
        for (const char *what : {"_num", "_prod", "_len"}) n.push_back(std::string(kind) + what);
        for (const char *p : positions) n.push_back(std::string(kind) + "_type." + p);
    }
    for (const char *g : {"is_gpu", "blockIdx_x_len", "blockIdx_y_len", "blockIdx_z_len", "threadIdx_x_len",
                          "threadIdx_y_len", "threadIdx_z_len", "vthread_len"}) {
        n.push_back(g);
    }
    for (int b = 0; b < kAnsorMaxBuffers; b++) {
        const std::string p = "B" + std::to_string(b) + ".";
        for (const char *f : {"acc_type.kRead", "acc_type.kWrite", "acc_type.kReadWrite", "bytes", "unique_bytes",
                              "lines", "unique_lines", "reuse_type.kLoopMultipleRead",
                              "reuse_type.kSerialMultipleReadWrite", "reuse_type.kNoReuse", "reuse_dis_iter",
                              "reuse_dis_bytes", "reuse_ct", "bytes_d_reuse_ct", "unique_bytes_d_reuse_ct",
                              "lines_d_reuse_ct", "unique_lines_d_reuse_ct", "stride"}) {
            n.push_back(p + f);
        }
    }
    for (int i = 0; i < kArithPoints; i++) n.push_back("arith_intensity_curve_" + std::to_string(i));
    for (const char *f : {"alloc_size", "alloc_prod", "alloc_outer_prod", "alloc_inner_prod", "outer_prod",
                          "num_loops", "auto_unroll_max_step"}) {
        n.push_back(f);
    }
    internal_assert((int)n.size() == kAnsorFeatureCount) << n.size();
    return n;
}

bool is_ansor_one_hot(int i) {
    if ((i >= kVecType && i < kVecType + 8) || (i >= kUnrollType && i < kUnrollType + 8) ||
        (i >= kParallelType && i < kParallelType + 8) || i == kIsGpu) {
        return true;
    }
    if (i >= kBuffers && i < kArithCurve) {
        int k = (i - kBuffers) % kAnsorBufferFeatureCount;
        return (k >= kAccType && k < kAccType + 3) || (k >= kReuseType && k < kReuseType + 3);
    }
    return false;
}

}  // namespace feature_detail

using namespace feature_detail;


float log2p(float x) {
    return x < 0 ? -std::log2(-x + 1) : std::log2(x + 1);
}

const std::vector<std::string> &ansor_feature_names() {
    static const std::vector<std::string> names = make_ansor_names();
    return names;
}

const std::vector<std::string> &halide_feature_names() {
    static const std::vector<std::string> names = {
        "mem.none",         "mem.heap",    "mem.stack",       "mem.register",         "mem.gpu_shared", "mem.other",
        "predicated_stores", "predicated_loads", "gpu_kernels", "vector_shuffles", "strided_vector_loads"};
    return names;
}

int ansor_feature_index(const std::string &name) {
    const auto &n = ansor_feature_names();
    auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : (int)(it - n.begin());
}

int halide_feature_index(const std::string &name) {
    const auto &n = halide_feature_names();
    auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : (int)(it - n.begin());
}

}  // namespace diet
