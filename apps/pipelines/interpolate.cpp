// interpolate: multi-scale interpolation of an RGBA image (fills the transparent regions
// from their surroundings, coarse to fine).
//
//   input:  float (x, y, c), c in [0, 4): R, G, B, alpha in [0, 1]
//   output: float (x, y, c), c in [0, 3), same width and height
//
//   down[0]   = premultiplied input (R a, G a, B a, a)
//   down[l]   = 2x downsampling of down[l-1] with [1 2 1] / 4, l < L = 10
//   interp[L-1] = down[L-1]
//   interp[l] = down[l] + (1 - alpha of down[l]) * upsample(interp[l+1])   (linear upsampling)
//   output    = interp[0].rgb / interp[0].alpha
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class Interpolate : public Generator<Interpolate> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)
    GeneratorParam<int> levels{"levels", 10};

    Input<Buffer<float>> input{"input", 3};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 3};

    void generate() {
        Var x{"x"}, y{"y"}, c{"c"};
        const int L = levels;
        Func clamped = BoundaryConditions::repeat_edge(input);

        // Level l is ceil(W / 2^l) x ceil(H / 2^l); each level is read with its edges repeated
        // outside its extent, so the region computed does not grow with the depth of the pyramid.
        Expr W = input.dim(0).extent(), H = input.dim(1).extent();
        auto bounded = [&](Func f, int l) {
            Expr lw = (W + ((1 << l) - 1)) >> l, lh = (H + ((1 << l) - 1)) >> l;
            return BoundaryConditions::repeat_edge(f, {Range(0, lw), Range(0, lh), Range()});
        };
        std::vector<Func> down(L), interp(L);
        down[0] = Func("down_0");
        down[0](x, y, c) = select(c == 3, clamped(x, y, 3), clamped(x, y, c) * clamped(x, y, 3));
        for (int l = 1; l < L; l++) {
            Func dx{"down_x_" + std::to_string(l)};
            Func prev = bounded(down[l - 1], l - 1);
            dx(x, y, c) = (prev(2 * x - 1, y, c) + 2.0f * prev(2 * x, y, c) + prev(2 * x + 1, y, c)) * 0.25f;
            down[l] = Func("down_" + std::to_string(l));
            down[l](x, y, c) = (dx(x, 2 * y - 1, c) + 2.0f * dx(x, 2 * y, c) + dx(x, 2 * y + 1, c)) * 0.25f;
        }
        interp[L - 1] = down[L - 1];
        for (int l = L - 2; l >= 0; l--) {
            Func next = bounded(interp[l + 1], l + 1);
            Func ux{"up_x_" + std::to_string(l)}, up{"up_" + std::to_string(l)};
            ux(x, y, c) = 0.25f * next((x / 2) - 1 + 2 * (x % 2), y, c) + 0.75f * next(x / 2, y, c);
            up(x, y, c) = 0.25f * ux(x, (y / 2) - 1 + 2 * (y % 2), c) + 0.75f * ux(x, y / 2, c);
            interp[l] = Func("interp_" + std::to_string(l));
            interp[l](x, y, c) = down[l](x, y, c) + (1.0f - down[l](x, y, 3)) * up(x, y, c);
        }
        output(x, y, c) = interp[0](x, y, c) / interp[0](x, y, 3);

        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 4);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // Every level of both pyramids is computed root, channels innermost-but-one and
            // unrolled (the alpha channel is read by the other three); the large levels in
            // parallel over strips of rows, vectorized across x. Level 0 is never stored: the
            // premultiplication is inlined into level 1 and the output computes interp[0] per
            // strip of rows.
            const int vec = natural_vector_size<float>();
            for (int l = 1; l < L; l++) {
                std::vector<Func> fs = {down[l]};
                if (l < L - 1) fs.push_back(interp[l]);  // interp[L-1] is down[L-1]
                for (Func f : fs) {
                    f.compute_root().reorder(x, c, y).bound(c, 0, 4).unroll(c).vectorize(x, vec);
                    if (l < 5) f.parallel(y, 8);
                }
            }
            Var yo{"yo"}, yi{"yi"};
            output.reorder(x, c, y)
                .split(y, yo, yi, 16, kGuard)
                .parallel(yo)
                .vectorize(x, vec, kGuard);
            output.dim(2).set_bounds(0, 3);
            interp[0].compute_at(output, yi).reorder(x, c, y).bound(c, 0, 4).unroll(c).vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Interpolate, interpolate)
