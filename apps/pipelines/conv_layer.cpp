// conv_layer: one convolutional layer of a CNN, NCHW, 3x3, "same" zero padding, ReLU.
//
//   input:  float (x, y, ci, n)   = W x H x CI x N  (NCHW in row-major terms)
//   filter: float (kx, ky, ci, co) = 3 x 3 x CI x CO
//   bias:   float (co)
//   output: float (x, y, co, n)   = max(0, bias(co) + sum over ci, kx, ky of
//                                        filter(kx, ky, ci, co) * input(x + kx - 1, y + ky - 1, ci, n))
// Estimates: N = 4, CI = CO = 64, W = H = 128 (the shape family: W, H in [32, 256]).
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class ConvLayer : public Generator<ConvLayer> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(128, 128)
    GeneratorParam<int> batch{"batch", 4};
    GeneratorParam<int> channels_in{"channels_in", 64};
    GeneratorParam<int> channels_out{"channels_out", 64};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> filter{"filter", 4};
    Input<Buffer<float>> bias{"bias", 1};
    DIET_PIPELINE_SHAPE_INPUTS(128, 128, 32, 256)

    Output<Buffer<float>> output{"output", 4};

    void generate() {
        Var x{"x"}, y{"y"}, co{"co"}, n{"n"};
        Func padded = BoundaryConditions::constant_exterior(input, 0.0f, {{0, input.dim(0).extent()},
                                                                          {0, input.dim(1).extent()}});
        RDom r(0, 3, 0, 3, 0, input.dim(2).extent(), "r");
        Func conv{"conv"};
        conv(x, y, co, n) = bias(co);
        conv(x, y, co, n) += filter(r.x, r.y, r.z, co) * padded(x + r.x - 1, y + r.y - 1, r.z, n);
        output(x, y, co, n) = max(0.0f, conv(x, y, co, n));

        const int N = batch, CI = channels_in, CO = channels_out;
        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, CI);
        input.dim(3).set_estimate(0, N);
        filter.dim(0).set_estimate(0, 3);
        filter.dim(1).set_estimate(0, 3);
        filter.dim(2).set_estimate(0, CI);
        filter.dim(3).set_estimate(0, CO);
        bias.dim(0).set_estimate(0, CO);
        output.set_estimates({{0, w}, {0, h}, {0, CO}, {0, N}});

        if (!auto_schedule) {
            // Register blocking: 2 vectors along x times 8 output channels (16 accumulators) are
            // updated over the whole reduction (ci, ky, kx): each input vector is loaded once and
            // used for 8 output channels, each filter tap is broadcast. Tasks: (row, image), in
            // parallel; each task first copies the 3 input rows it needs (all channels, zero
            // padding applied) so that the reduction's loads have no boundary test.
            // ShiftInwards tails: W >= 2 vectors (the range starts at 32) and CO >= 8.
            const int vec = natural_vector_size<float>();
            Var xo{"xo"}, xi{"xi"}, coo{"coo"}, coi{"coi"}, t{"t"};
            output.split(x, xo, xi, 2 * vec)
                .split(co, coo, coi, 8)
                .reorder(xi, coi, xo, coo, y, n)
                .vectorize(xi, vec)
                .unroll(xi)
                .unroll(coi)
                .fuse(y, n, t)
                .parallel(t);
            padded.compute_at(output, t).vectorize(padded.args()[0], vec);
            conv.compute_at(output, xo).vectorize(x, vec).unroll(x).unroll(co);
            conv.update()
                .reorder(x, co, r.x, r.y, r.z, y, n)
                .vectorize(x, vec)
                .unroll(x)
                .unroll(co);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ConvLayer, conv_layer)
