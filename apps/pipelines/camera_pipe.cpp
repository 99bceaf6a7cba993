// camera_pipe: a raw camera pipeline, Bayer mosaic (GRBG) to 8-bit RGB.
//
//   input:  uint16 (x, y), the sensor mosaic, 16-bit values
//   output: uint8 (x, y, c), c in [0, 3), same width and height
//
//   denoised  = hot-pixel suppression: min(raw, max of the four same-colour neighbours)
//   demosaic  = bilinear interpolation of the missing colours (by pixel parity), int32
//   corrected = colour matrix (8.8 fixed point; interpolated in 1/temperature between a
//               3200 K and a 7000 K matrix, computed once)
//   output    = curve(corrected >> 6): a 1024-entry gamma (1/2.2) lookup table to uint8
// Edges are mirrored about the first/last pixel, which keeps the Bayer parity.
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class CameraPipe : public Generator<CameraPipe> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)

    Input<Buffer<uint16_t>> input{"input", 2};
    Input<float> color_temp{"color_temp", 3700.0f, 1000.0f, 20000.0f};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<uint8_t>> output{"output", 3};

    void generate() {
        Var x{"x"}, y{"y"}, c{"c"}, i{"i"}, j{"j"};
        Func raw = BoundaryConditions::mirror_interior(input);

        Func denoised{"denoised"};
        Expr nmax = max(max(raw(x - 2, y), raw(x + 2, y)), max(raw(x, y - 2), raw(x, y + 2)));
        denoised(x, y) = cast<int32_t>(min(raw(x, y), nmax));

        // GRBG: G at (even, even) and (odd, odd), R at (odd x, even y), B at (even x, odd y).
        auto d = [&](Expr dx, Expr dy) { return denoised(x + dx, y + dy); };
        Expr horiz = (d(-1, 0) + d(1, 0) + 1) / 2, vert = (d(0, -1) + d(0, 1) + 1) / 2;
        Expr cross = (d(-1, 0) + d(1, 0) + d(0, -1) + d(0, 1) + 2) / 4;
        Expr diag = (d(-1, -1) + d(1, -1) + d(-1, 1) + d(1, 1) + 2) / 4;
        Expr ex = (x % 2) == 0, ey = (y % 2) == 0;
        Expr is_g = ex == ey, is_r = !ex && ey, is_b = ex && !ey;
        Func demosaic{"demosaic"};
        Expr red = select(is_r, d(0, 0), is_b, diag, ey, horiz, vert);
        Expr green = select(is_g, d(0, 0), cross);
        Expr blue = select(is_b, d(0, 0), is_r, diag, ey, vert, horiz);
        demosaic(x, y, c) = select(c == 0, red, c == 1, green, blue);

        // Colour matrix: rows are output channels, columns r, g, b, offset.
        const float m3200[3][4] = {{1.6697f, -0.2693f, -0.4004f, -42.4346f},
                                   {-0.3576f, 1.0615f, 1.5949f, -37.1158f},
                                   {-0.2175f, -1.8751f, 6.9640f, -26.6970f}};
        const float m7000[3][4] = {{2.2997f, -0.4478f, 0.1706f, -39.0923f},
                                   {-0.3826f, 1.5906f, -0.2080f, -25.4311f},
                                   {-0.0888f, -0.7344f, 2.2832f, -20.0826f}};
        Expr t = (1.0f / color_temp - 1.0f / 3200) / (1.0f / 7000 - 1.0f / 3200);
        Func matrix{"matrix"};
        Expr m = 0.0f;
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 4; col++) {
                Expr v = lerp(m3200[row][col], m7000[row][col], t) * (col == 3 ? 64.0f : 1.0f);
                m = select(i == col && j == row, v, m);
            }
        }
        // The colour matrix rows sum to ~1: scale by 0.5 so most of 16-bit range survives.
        matrix(i, j) = cast<int32_t>(m * 128.0f);

        Func corrected{"corrected"};
        Expr cr = demosaic(x, y, 0), cg = demosaic(x, y, 1), cb = demosaic(x, y, 2);
        corrected(x, y, c) = clamp((matrix(0, c) * cr + matrix(1, c) * cg + matrix(2, c) * cb +
                                    matrix(3, c)) >> 8, 0, 65535);

        Func curve{"curve"};
        curve(i) = cast<uint8_t>(clamp(cast<int>(pow(cast<float>(i) * (1.0f / 1023.0f), 1.0f / 2.2f) * 256.0f),
                                       0, 255));
        output(x, y, c) = curve(clamp(corrected(x, y, c) >> 6, 0, 1023));

        color_temp.set_estimate(3700.0f);
        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // 256 x 32 tiles, rows of tiles in parallel; the denoised mosaic (2-pixel halo) and
            // the demosaiced colours (channels unrolled) are computed per tile, vectorized across
            // x in 32-bit lanes; the matrix and the curve are computed once.
            const int vec = natural_vector_size<int32_t>();
            Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
            output.reorder(c, x, y)
                .tile(x, y, xo, yo, xi, yi, 256, 32, kGuard)
                .reorder(xi, c, yi, xo, yo)
                .vectorize(xi, vec, kGuard)
                .unroll(c)
                .parallel(yo);
            output.dim(2).set_bounds(0, 3);
            demosaic.compute_at(output, xo).reorder(x, c, y).unroll(c).vectorize(x, vec);
            denoised.compute_at(output, xo).vectorize(x, vec);
            matrix.compute_root();
            curve.compute_root().vectorize(i, natural_vector_size<float>());
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
