// unsharp: colour unsharp mask of a float RGB image.
//
//   input:  float (x, y, c), c in [0, 3), values in [0, 1]
//   output: float (x, y, c), same size
//
//   gray    = Rec. 601 luma of the input (edges repeated)
//   blurred = separable 7-tap Gaussian (sigma 1.5) of gray
//   output  = input + amount * (gray - blurred)        (the detail added to every channel)
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class UnsharpColor : public Generator<UnsharpColor> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)

    Input<Buffer<float>> input{"input", 3};
    Input<float> amount{"amount", 1.5f, 0.0f, 8.0f};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 3};

    void generate() {
        Var x{"x"}, y{"y"}, c{"c"};
        Func clamped = BoundaryConditions::repeat_edge(input);

        Func gray{"gray"};
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);

        // Gaussian taps for sigma = 1.5, radius 3, normalised.
        const float sigma = 1.5f;
        float taps[7], total = 0.0f;
        for (int i = 0; i < 7; i++) {
            taps[i] = std::exp(-float((i - 3) * (i - 3)) / (2.0f * sigma * sigma));
            total += taps[i];
        }
        Func blur_y{"blur_y"}, blur_x{"blur_x"};
        Expr sy = 0.0f, sx = 0.0f;
        for (int i = 0; i < 7; i++) {
            sy += (taps[i] / total) * gray(x, y + i - 3);
        }
        blur_y(x, y) = sy;
        for (int i = 0; i < 7; i++) {
            sx += (taps[i] / total) * blur_y(x + i - 3, y);
        }
        blur_x(x, y) = sx;

        Func detail{"detail"};
        detail(x, y) = gray(x, y) - blur_x(x, y);
        output(x, y, c) = clamped(x, y, c) + amount * detail(x, y);

        amount.set_estimate(1.5f);
        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // Strips of 32 rows in parallel; luma and the vertical blur slide down each strip
            // (computed once per row, kept in a circular buffer), the horizontal blur and the
            // detail are computed per output row, channels unrolled in the output.
            const int vec = natural_vector_size<float>();
            Var xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
            output.split(y, yo, yi, 32, kGuard)
                .split(x, xo, xi, vec, kGuard)
                .reorder(xi, c, xo, yi, yo)
                .vectorize(xi)
                .unroll(c)
                .parallel(yo);
            output.dim(2).set_bounds(0, 3);
            input.dim(2).set_bounds(0, 3);
            detail.compute_at(output, yi).vectorize(x, vec);
            blur_y.compute_at(output, yi).store_at(output, yo).vectorize(x, vec);
            gray.compute_at(output, yi).store_at(output, yo).vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(UnsharpColor, unsharp)
