// unsharp: unsharp masking of a 2-D float grayscale image of dynamic size.
//
//   input:  dims (x, y), extents (width, height)
//   output: dims (x, y), extents (width, height)
//
//   clamped = repeat_edge(input)
//   blur_x  = [1 4 6 4 1] / 16 along x
//   blur_y  = [1 4 6 4 1] / 16 along y, of blur_x
//   output  = input + amount * (input - blur_y)
#include "Halide.h"

namespace {

using namespace Halide;

class Unsharp : public Generator<Unsharp> {
public:
    Input<Buffer<float>> input{"input", 2};
    Input<float> amount{"amount", 1.5f};
    // The image size: only used by the estimates.
    Input<int> width{"width", 1536, 1, 4096};
    Input<int> height{"height", 1024, 1, 4096};

    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Var x{"x"}, y{"y"};
        Func clamped = BoundaryConditions::repeat_edge(input);

        Func blur_x{"blur_x"}, blur_y{"blur_y"};
        blur_x(x, y) = (clamped(x - 2, y) + clamped(x + 2, y) +
                        4.0f * (clamped(x - 1, y) + clamped(x + 1, y)) +
                        6.0f * clamped(x, y)) *
                       (1.0f / 16.0f);
        blur_y(x, y) = (blur_x(x, y - 2) + blur_x(x, y + 2) +
                        4.0f * (blur_x(x, y - 1) + blur_x(x, y + 1)) +
                        6.0f * blur_x(x, y)) *
                       (1.0f / 16.0f);
        output(x, y) = clamped(x, y) + amount * (clamped(x, y) - blur_y(x, y));

        // Estimates.  With an autoscheduler they are symbolic in width and
        // height (that is the point: the plugin reads the symbolic image
        // size).  Halide 14's codegen embeds the estimates in the argument
        // metadata and asserts they are constants ("Should only see constant
        // values for estimates"), so the plugin has to fold them before
        // codegen; without an autoscheduler we fold them here, at the
        // estimates of width and height.
        amount.set_estimate(1.5f);
        width.set_estimate(1536);
        height.set_estimate(1024);
        Expr w = auto_schedule ? Expr(width) : Expr(1536);
        Expr h = auto_schedule ? Expr(height) : Expr(1024);
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        output.set_estimates({{0, w}, {0, h}});

        if (!auto_schedule) {
            const int vec = natural_vector_size<float>();
            Var yo{"yo"}, yi{"yi"};
            output.split(y, yo, yi, 32, TailStrategy::GuardWithIf)
                .parallel(yo)
                .vectorize(x, vec, TailStrategy::GuardWithIf);
            blur_x.compute_at(output, yo)
                .store_at(output, yo)
                .vectorize(x, vec, TailStrategy::GuardWithIf);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Unsharp, unsharp)
