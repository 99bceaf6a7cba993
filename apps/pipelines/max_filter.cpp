// max_filter: maximum over a circular window of radius 26 of a float RGB image.
//
//   input:  float (x, y, c), c in [0, 3)
//   output: float (x, y, c), same size
//
// The disc is a union of vertical segments: for each column offset dx in [-r, r] the segment
// y - h(dx) .. y + h(dx), h(dx) = floor(sqrt(r^2 - dx^2)). The maximum over a vertical segment of
// length L comes from a log-doubling table: vmax_k(x, y) = max over [y, y + 2^k), built as
// vmax_k = max(vmax_{k-1}(y), vmax_{k-1}(y + 2^{k-1})); a segment of length L with
// 2^k <= L < 2^{k+1} is covered by two (overlapping) segments of length 2^k. The output is the
// maximum over dx of those: 2 (2r + 1) loads per pixel instead of the disc's ~pi r^2.
#include "pipeline_common.h"

#include <cmath>

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class MaxFilter : public Generator<MaxFilter> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)
    GeneratorParam<int> radius{"radius", 26};

    Input<Buffer<float>> input{"input", 3};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 3};

    void generate() {
        Var x{"x"}, y{"y"}, c{"c"};
        const int r = radius;
        int levels = 1;  // vmax_0 .. vmax_{levels-1}, 2^(levels-1) <= 2r + 1
        while ((2 << (levels - 1)) <= 2 * r + 1) levels++;

        std::vector<Func> vmax;
        vmax.push_back(BoundaryConditions::repeat_edge(input));
        for (int k = 1; k < levels; k++) {
            Func f{"vmax_" + std::to_string(k)};
            f(x, y, c) = max(vmax[k - 1](x, y, c), vmax[k - 1](x, y + (1 << (k - 1)), c));
            vmax.push_back(f);
        }

        // One term per column offset; a balanced tree of max() over them.
        std::vector<Expr> terms;
        for (int dx = -r; dx <= r; dx++) {
            int h = (int)std::floor(std::sqrt((double)(r * r - dx * dx)));
            int len = 2 * h + 1, k = 0;
            while ((2 << k) <= len) k++;
            Expr top = vmax[k](x + dx, y - h, c);
            Expr bottom = vmax[k](x + dx, y + h + 1 - (1 << k), c);
            terms.push_back(max(top, bottom));
        }
        while (terms.size() > 1) {
            std::vector<Expr> next;
            for (size_t i = 0; i + 1 < terms.size(); i += 2) next.push_back(max(terms[i], terms[i + 1]));
            if (terms.size() % 2) next.push_back(terms.back());
            terms.swap(next);
        }
        output(x, y, c) = terms[0];

        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // Each task: one channel, a strip of 32 rows, all columns. The doubling table is
            // built per strip and channel (32 + 2r rows), level by level, vectorized across x;
            // the output sweeps the strip vectorized across x.
            const int vec = natural_vector_size<float>();
            Var yo{"yo"}, yi{"yi"}, t{"t"};
            output.split(y, yo, yi, 32, kGuard)
                .reorder(x, yi, yo, c)
                .fuse(yo, c, t)
                .parallel(t)
                .vectorize(x, vec, kGuard);
            for (int k = 1; k < levels; k++) {
                vmax[k].compute_at(output, t).vectorize(x, vec);
            }
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MaxFilter, max_filter)
