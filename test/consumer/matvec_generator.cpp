#include "Halide.h"

namespace {
using namespace Halide;

// out(j, i) = sum_k a(k, i) * b(k, j): a small matmul with a ranged row count.
class MatVec : public Generator<MatVec> {
public:
    Input<Buffer<float>> a{"a", 2}, b{"b", 2};
    Input<int> R{"R", 8, 1, 32};
    Output<Buffer<float>> out{"out", 2};
    void generate() {
        Var i("i"), j("j");
        RDom k(0, 24, "k");
        Func acc("acc");
        acc(j, i) = 0.f;
        acc(j, i) += a(k, i) * b(k, j);
        out(j, i) = acc(j, i);
        a.set_estimates({{0, 24}, {0, 2 * R}});
        b.set_estimates({{0, 24}, {0, 20}});
        out.set_estimates({{0, 20}, {0, 2 * R}});
    }
};
}  // namespace

HALIDE_REGISTER_GENERATOR(MatVec, matvec)
