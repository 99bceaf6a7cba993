// hist_eq: histogram equalization of a uint8 RGB image through its luminance.
//
//   input:  uint8 (x, y, c), c in [0, 3)
//   output: uint8 (x, y, c), same size
//
//   Y(x, y)   = (77 R + 150 G + 29 B + 128) >> 8           (integer luma)
//   hist(i)   = number of pixels with Y = i                 (an RDom over the image)
//   cdf(i)    = hist(0) + ... + hist(i)                     (a scan)
//   lut(i)    = (255 cdf(i) + N/2) / N                      (the equalized luma, N pixels)
//   gain(i)   = ((lut(i) + 1) << 8) / (i + 1)               (8.8 fixed point)
//   output    = min((in * gain(Y) + 128) >> 8, 255)         (every channel scaled by the luma gain)
// All integer: every schedule gives the same bits.
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class HistEq : public Generator<HistEq> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)

    Input<Buffer<uint8_t>> input{"input", 3};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<uint8_t>> output{"output", 3};

    void generate() {
        Var x{"x"}, y{"y"}, c{"c"}, i{"i"};
        auto luma_of = [&](Expr px, Expr py) {
            return cast<uint8_t>((cast<uint32_t>(input(px, py, 0)) * 77 + cast<uint32_t>(input(px, py, 1)) * 150 +
                                  cast<uint32_t>(input(px, py, 2)) * 29 + 128) >> 8);
        };
        Func luma{"luma"};
        luma(x, y) = luma_of(x, y);

        RDom r(0, input.dim(0).extent(), 0, input.dim(1).extent(), "r");
        Func hist{"hist"};
        hist(i) = 0;
        hist(cast<int>(luma_of(r.x, r.y))) += 1;

        Func cdf{"cdf"};
        RDom s(1, 255, "s");
        cdf(i) = hist(i);
        cdf(s) = cdf(s - 1) + hist(s);

        Expr n = cast<int64_t>(input.dim(0).extent()) * input.dim(1).extent();
        Func lut{"lut"}, gain{"gain"};
        lut(i) = cast<uint32_t>((cast<int64_t>(cdf(i)) * 255 + n / 2) / n);
        gain(i) = ((lut(i) + 1) << 8) / cast<uint32_t>(i + 1);

        Expr g = gain(cast<int>(luma(x, y)));
        output(x, y, c) = cast<uint8_t>(min((cast<uint32_t>(input(x, y, c)) * g + 128) >> 8, 255));

        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // The histogram is split over strips of 64 rows (rfactor): each strip counts into its
            // own 256-bin histogram in parallel, then the strips' histograms are summed
            // (vectorized across bins). The scan and the tables are tiny and serial. The output
            // is computed in strips of rows in parallel, luma per row, vectorized across x.
            const int vec8 = natural_vector_size<uint8_t>();
            const int vec32 = natural_vector_size<uint32_t>();
            RVar ryo{"ryo"}, ryi{"ryi"};
            Var u{"u"};
            Func partial = hist.update().split(r.y, ryo, ryi, 64, kGuard).rfactor(ryo, u);
            partial.compute_root().vectorize(i, vec32).parallel(u);
            partial.update().parallel(u);
            hist.compute_root().vectorize(i, vec32);
            hist.update().vectorize(i, vec32);
            cdf.compute_root();
            gain.compute_root();

            Var yo{"yo"}, yi{"yi"};
            output.split(y, yo, yi, 16, kGuard)
                .reorder(x, c, yi, yo)
                .vectorize(x, vec8, kGuard)
                .parallel(yo);
            luma.compute_at(output, yi).vectorize(x, vec8, kGuard);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HistEq, hist_eq)
