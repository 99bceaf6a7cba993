// bilateral_grid: the bilateral filter through a bilateral grid (Chen, Paris, Durand 2007).
//
//   input:  float (x, y), values in [0, 1]
//   output: float (x, y), same size
//
//   grid(gx, gy, z, k): for every pixel of the s x s block (gx, gy), scatter (value, 1) into the
//                       intensity bin z = round(value / r_sigma) (an RDom over the block);
//   blur the grid with [1 4 6 4 1] along z, x and y;
//   output(x, y) = value / weight, both trilinearly interpolated from the blurred grid at
//                  (x / s, y / s, input(x, y) / r_sigma).
// s = 8, r_sigma = 0.1 (11 bins, 2 of padding each side).
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class BilateralGrid : public Generator<BilateralGrid> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)
    GeneratorParam<int> s_sigma{"s_sigma", 8};
    GeneratorParam<float> r_sigma{"r_sigma", 0.1f};

    Input<Buffer<float>> input{"input", 2};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Var x{"x"}, y{"y"}, z{"z"}, k{"k"};
        const int s = s_sigma;
        const float rs = r_sigma;
        const int bins = (int)std::ceil(1.0f / rs);  // z in [0, bins]

        Func clamped = BoundaryConditions::repeat_edge(input);
        Func value{"value"};
        value(x, y) = clamp(clamped(x, y), 0.0f, 1.0f);

        // Grid construction: a scatter over each s x s block.
        RDom r(0, s, 0, s, "r");
        Expr v = value(x * s + r.x - s / 2, y * s + r.y - s / 2);
        Expr zi = clamp(cast<int>(v * (1.0f / rs) + 0.5f), 0, bins);
        Func grid{"grid"};
        grid(x, y, z, k) = 0.0f;
        grid(x, y, zi, k) += select(k == 0, v, 1.0f);

        auto blur5 = [](Expr a, Expr b, Expr c, Expr d, Expr e) {
            return (a + e) + 4.0f * (b + d) + 6.0f * c;
        };
        Func blur_z{"blur_z"}, blur_x{"blur_x"}, blur_y{"blur_y"};
        blur_z(x, y, z, k) = blur5(grid(x, y, z - 2, k), grid(x, y, z - 1, k), grid(x, y, z, k),
                                   grid(x, y, z + 1, k), grid(x, y, z + 2, k));
        blur_x(x, y, z, k) = blur5(blur_z(x - 2, y, z, k), blur_z(x - 1, y, z, k), blur_z(x, y, z, k),
                                   blur_z(x + 1, y, z, k), blur_z(x + 2, y, z, k));
        blur_y(x, y, z, k) = blur5(blur_x(x, y - 2, z, k), blur_x(x, y - 1, z, k), blur_x(x, y, z, k),
                                   blur_x(x, y + 1, z, k), blur_x(x, y + 2, z, k));

        // Trilinear slicing.
        Expr val = value(x, y);
        Expr zv = val * (1.0f / rs);
        Expr zl = clamp(cast<int>(zv), 0, bins - 1);
        Expr zf = zv - zl;
        Expr xf = cast<float>(x % s) / s, yf = cast<float>(y % s) / s;
        Expr xl = x / s, yl = y / s;
        Func interpolated{"interpolated"};
        auto lerp3 = [&](Expr kk) {
            auto g = [&](Expr dx, Expr dy, Expr dz) { return blur_y(xl + dx, yl + dy, zl + dz, kk); };
            Expr z0 = lerp(lerp(g(0, 0, 0), g(1, 0, 0), xf), lerp(g(0, 1, 0), g(1, 1, 0), xf), yf);
            Expr z1 = lerp(lerp(g(0, 0, 1), g(1, 0, 1), xf), lerp(g(0, 1, 1), g(1, 1, 1), xf), yf);
            return lerp(z0, z1, zf);
        };
        interpolated(x, y, k) = lerp3(k);
        output(x, y) = interpolated(x, y, 0) / interpolated(x, y, 1);

        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        output.set_estimates({{0, w}, {0, h}});

        if (!auto_schedule) {
            // The grid is built one grid row at a time (an s-row strip of the image, z and both
            // channels) inside the z blur, which is computed root in parallel over grid rows; the
            // x and y blurs are computed root in parallel over grid rows too, vectorized across
            // grid x. The slice is computed in parallel strips of 8 image rows, vectorized across
            // x, the two channels unrolled.
            const int vec = natural_vector_size<float>();
            blur_z.compute_root().reorder(x, k, z, y).unroll(k).parallel(y).vectorize(x, vec, kGuard);
            grid.compute_at(blur_z, y).reorder(x, k, z, y).unroll(k).vectorize(x, vec);
            grid.update().reorder(k, r.x, r.y, x, y).unroll(k);
            blur_x.compute_root().reorder(x, k, z, y).unroll(k).parallel(y).vectorize(x, vec, kGuard);
            blur_y.compute_root().reorder(x, k, z, y).unroll(k).parallel(y).vectorize(x, vec, kGuard);
            Var yo{"yo"}, yi{"yi"};
            output.split(y, yo, yi, 8, kGuard).parallel(yo).vectorize(x, vec, kGuard);
            interpolated.compute_at(output, yi).unroll(k).vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BilateralGrid, bilateral_grid)
