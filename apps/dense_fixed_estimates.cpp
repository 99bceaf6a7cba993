// dense_fixed_estimates: the benchmark's baseline generator for Halide's own
// autoschedulers.
//
// It computes exactly what generators/dense.cpp computes,
//
//   y(n, m) = sum_k x(k, m) * w(k, n),   x: (K, 16T), w: (K, N), y: (N, 16T),
//
// but its estimates are constants (T = 32, i.e. 512 rows) instead of
// expressions in the Input<int> T.  Halide 14's LLVM codegen requires constant
// estimates ("Should only see constant values for estimates"); Diet folds the
// symbolic ones itself, but Mullapudi2016 leaves them alone, so building the
// project's dense generator with Mullapudi2016 fails in codegen.  The pipeline
// still accepts any T at run time; only the autoscheduler's view is fixed.
#include "Halide.h"

namespace {

using namespace Halide;

class DenseFixedEstimates : public Generator<DenseFixedEstimates> {
public:
    GeneratorParam<int> K{"K", 768};
    GeneratorParam<int> N{"N", 2304};
    // The T the estimates are written for.
    GeneratorParam<int> T_estimate{"T_estimate", 32};

    Input<Buffer<float>> x{"x", 2};
    Input<Buffer<float>> w{"w", 2};
    Input<int> T{"T", 32, 1, 128};  // unused by the algorithm; kept for the same signature

    Output<Buffer<float>> y{"y", 2};

    void generate() {
        Var n{"n"}, m{"m"};
        Func acc{"acc"};
        RDom k(0, (int)K, "k");

        acc(n, m) = 0.0f;
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);

        const int rows = 16 * (int)T_estimate;
        T.set_estimate((int)T_estimate);
        x.set_estimates({{0, (int)K}, {0, rows}});
        w.set_estimates({{0, (int)K}, {0, (int)N}});
        y.set_estimates({{0, (int)N}, {0, rows}});
        // No hand schedule: this generator is only built with an autoscheduler.
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DenseFixedEstimates, dense_fixed_estimates)
