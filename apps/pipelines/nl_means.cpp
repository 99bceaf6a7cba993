// nl_means: non-local means denoising of a float RGB image (Buades, Coll, Morel 2005).
//
//   input:  float (x, y, c), c in [0, 3)
//   output: float (x, y, c), same size
//
//   dist(x, y, dx, dy)  = sum over c of (I(x, y) - I(x + dx, y + dy))^2        (every offset of a
//                         13 x 13 search window: 169 offsets)
//   patch(x, y, dx, dy) = 7 x 7 box sum of dist (separable)
//   w(x, y, dx, dy)     = exp(-patch / (49 * 3 * sigma^2))
//   output(x, y, c)     = sum w I(x + dx, y + dy, c) / sum w
// The natural intermediates are 4-D: at the estimate size (1536 x 2560) dist or patch over all
// 169 offsets is 2.66 GB of floats, more than 2^31 bytes, so a schedule that stores one of them
// whole cannot run; a good schedule computes them per tile and per offset.
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class NlMeans : public Generator<NlMeans> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)
    GeneratorParam<int> patch_size{"patch_size", 7};
    GeneratorParam<int> search_area{"search_area", 13};

    Input<Buffer<float>> input{"input", 3};
    Input<float> sigma{"sigma", 0.12f, 0.001f, 10.0f};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 3};

    void generate() {
        Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
        const int pr = patch_size / 2, sr = search_area / 2;
        Func I = BoundaryConditions::repeat_edge(input);

        Func dist{"dist"};
        Expr d0 = I(x, y, 0) - I(x + dx, y + dy, 0);
        Expr d1 = I(x, y, 1) - I(x + dx, y + dy, 1);
        Expr d2 = I(x, y, 2) - I(x + dx, y + dy, 2);
        dist(x, y, dx, dy) = d0 * d0 + d1 * d1 + d2 * d2;

        Func patch_x{"patch_x"}, patch{"patch"};
        Expr sx = 0.0f, sy = 0.0f;
        for (int i = -pr; i <= pr; i++) sx += dist(x + i, y, dx, dy);
        patch_x(x, y, dx, dy) = sx;
        for (int i = -pr; i <= pr; i++) sy += patch_x(x, y + i, dx, dy);
        patch(x, y, dx, dy) = sy;

        Expr inv = -1.0f / (float(int(patch_size) * int(patch_size) * 3) * sigma * sigma);
        Func weight{"weight"};
        weight(x, y, dx, dy) = exp(patch(x, y, dx, dy) * inv);

        // Sum over the search window; channel 3 accumulates the weights.
        RDom s(-sr, 2 * sr + 1, -sr, 2 * sr + 1, "s");
        Func accum{"accum"};
        accum(x, y, c) = 0.0f;
        accum(x, y, c) += weight(x, y, s.x, s.y) * select(c < 3, I(x + s.x, y + s.y, min(c, 2)), 1.0f);
        output(x, y, c) = accum(x, y, c) / accum(x, y, 3);

        sigma.set_estimate(0.12f);
        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // 128 x 32 output tiles, in parallel. Per tile, for one search offset at a time, the
            // squared differences and the two box-sum passes are computed over the tile and its
            // patch halo, vectorized across x, and the weighted sums updated; the accumulator
            // (4 channels, unrolled) lives in the tile. Nothing 4-D is ever stored beyond one
            // offset of one tile.
            const int vec = natural_vector_size<float>();
            Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, t{"t"};
            output.tile(x, y, xo, yo, xi, yi, 128, 32, kGuard)
                .reorder(xi, c, yi, xo, yo)
                .vectorize(xi, vec, kGuard)
                .unroll(c)
                .fuse(xo, yo, t)
                .parallel(t);
            output.dim(2).set_bounds(0, 3);
            accum.compute_at(output, t).reorder(x, c, y).bound(c, 0, 4).unroll(c).vectorize(x, vec);
            accum.update().reorder(x, c, y, s.x, s.y).unroll(c).vectorize(x, vec);
            weight.compute_at(accum, s.x).vectorize(x, vec);
            patch_x.compute_at(accum, s.x).vectorize(x, vec);
            dist.compute_at(accum, s.x).vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(NlMeans, nl_means)
