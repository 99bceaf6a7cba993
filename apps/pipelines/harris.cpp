// harris: Harris corner response of a float RGB image.
//
//   input:  float (x, y, c), c in [0, 3)
//   output: float (x, y), same width and height
//
//   gray     = Rec. 601 luma (edges repeated)
//   Ix, Iy   = Sobel derivatives of gray
//   Sxx ...  = 3x3 box sums of Ix*Ix, Iy*Iy, Ix*Iy
//   output   = det(S) - k * trace(S)^2, k = 0.04
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class Harris : public Generator<Harris> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)

    Input<Buffer<float>> input{"input", 3};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Var x{"x"}, y{"y"};
        Func clamped = BoundaryConditions::repeat_edge(input);

        Func gray{"gray"};
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);

        Func Ix{"Ix"}, Iy{"Iy"};
        Ix(x, y) = ((gray(x + 1, y - 1) - gray(x - 1, y - 1)) +
                    2.0f * (gray(x + 1, y) - gray(x - 1, y)) +
                    (gray(x + 1, y + 1) - gray(x - 1, y + 1))) * (1.0f / 8.0f);
        Iy(x, y) = ((gray(x - 1, y + 1) - gray(x - 1, y - 1)) +
                    2.0f * (gray(x, y + 1) - gray(x, y - 1)) +
                    (gray(x + 1, y + 1) - gray(x + 1, y - 1))) * (1.0f / 8.0f);

        Func Ixx{"Ixx"}, Iyy{"Iyy"}, Ixy{"Ixy"};
        Ixx(x, y) = Ix(x, y) * Ix(x, y);
        Iyy(x, y) = Iy(x, y) * Iy(x, y);
        Ixy(x, y) = Ix(x, y) * Iy(x, y);

        auto box3 = [&](Func f) {
            Expr s = 0.0f;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    s += f(x + dx, y + dy);
                }
            }
            return s;
        };
        Func Sxx{"Sxx"}, Syy{"Syy"}, Sxy{"Sxy"};
        Sxx(x, y) = box3(Ixx);
        Syy(x, y) = box3(Iyy);
        Sxy(x, y) = box3(Ixy);

        const float k = 0.04f;
        Expr det = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
        Expr trace = Sxx(x, y) + Syy(x, y);
        output(x, y) = det - k * trace * trace;

        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}});

        if (!auto_schedule) {
            // 256x32 tiles, rows of tiles in parallel; luma and both derivatives are computed per
            // tile (2-pixel halo), the products and box sums are inlined into the response.
            const int vec = natural_vector_size<float>();
            Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
            output.tile(x, y, xo, yo, xi, yi, 256, 32, kGuard)
                .vectorize(xi, vec, kGuard)
                .parallel(yo);
            Ix.compute_at(output, xo).vectorize(x, vec);
            Iy.compute_at(output, xo).vectorize(x, vec);
            gray.compute_at(output, xo).vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Harris, harris)
