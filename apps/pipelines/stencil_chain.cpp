// stencil_chain: a chain of 20 small 5x5 stencils on a uint16 image.
//
//   input:  uint16 (x, y)
//   output: uint16 (x, y), same size
//
// Stage i (i = 1..20) is a 5x5 weighted average of stage i-1 in 32-bit arithmetic, exact
// (weights that sum to a power of two, rounded shift): even stages use the binomial
// [1 4 6 4 1]^2 / 256, odd stages [1 2 2 2 1]^2 / 64. Stage 0 is the input with its edges
// repeated; every stage is defined everywhere, so stage i reads stage i-1 2 pixels further out.
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class StencilChain : public Generator<StencilChain> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)
    GeneratorParam<int> stages{"stages", 20};

    Input<Buffer<uint16_t>> input{"input", 2};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<uint16_t>> output{"output", 2};

    void generate() {
        Var x{"x"}, y{"y"};
        std::vector<Func> chain;
        chain.push_back(BoundaryConditions::repeat_edge(input));
        const int binomial[5] = {1, 4, 6, 4, 1}, flat[5] = {1, 2, 2, 2, 1};
        for (int i = 1; i <= stages; i++) {
            const int *k = (i % 2 == 0) ? binomial : flat;
            const int shift = (i % 2 == 0) ? 8 : 6;
            Func prev = chain.back();
            Expr sum = cast<uint32_t>(0);
            for (int dy = -2; dy <= 2; dy++) {
                for (int dx = -2; dx <= 2; dx++) {
                    sum += cast<uint32_t>(prev(x + dx, y + dy)) * (k[dx + 2] * k[dy + 2]);
                }
            }
            Func stage{"stage_" + std::to_string(i)};
            stage(x, y) = cast<uint16_t>((sum + (1 << (shift - 1))) >> shift);
            chain.push_back(stage);
        }
        output(x, y) = chain.back()(x, y);

        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        output.set_estimates({{0, w}, {0, h}});

        if (!auto_schedule) {
            // Strips of 128 rows in parallel, 512 columns wide; inside a strip every stage is a
            // line buffer: computed one row at a time as the output row advances (sliding window,
            // circular storage of 5 rows per stage), vectorized across x. Each strip recomputes a
            // 2 * 2 * stages row overlap, so strips are tall.
            const int vec = natural_vector_size<uint16_t>();
            Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, t{"t"};
            output.tile(x, y, xo, yo, xi, yi, 512, 128, kGuard)
                .vectorize(xi, vec, kGuard)
                .fuse(xo, yo, t)
                .parallel(t);
            for (int i = 1; i <= stages; i++) {
                chain[i].store_at(output, t).compute_at(output, yi).vectorize(x, vec);
            }
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(StencilChain, stencil_chain)
