// local_laplacian: local Laplacian filter (Paris, Hasinoff, Kautz 2011; Aubry et al. 2014):
// detail enhancement / tone manipulation without halos.
//
//   input:  uint16 (x, y, c), c in [0, 3)
//   output: uint16 (x, y, c), same size
//
//   gray            = luma in [0, 1]
//   G_k             = gray remapped around the intensity level k / (K - 1), k < K = 8:
//                     level + beta (gray - level) + alpha' f(gray - level), f(d) = d exp(-d^2 / 2)
//                     (f tabulated at 1/256 of a level spacing)
//   gaussian pyramids of every G_k and of gray, J = 8 levels ([1 3 3 1] / 8 downsampling)
//   laplacian pyramids L_k[j] = G_k[j] - upsample(G_k[j + 1])
//   out L[j](x, y)  = L_k[j](x, y) interpolated linearly in k at the level of gray's pyramid
//   collapse        : out G[j] = out L[j] + upsample(out G[j + 1])
//   output          = input * out G[0] / gray (colour kept), back to uint16
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class LocalLaplacian : public Generator<LocalLaplacian> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)
    GeneratorParam<int> pyramid_levels{"pyramid_levels", 8};
    GeneratorParam<int> intensity_levels{"intensity_levels", 8};

    Input<Buffer<uint16_t>> input{"input", 3};
    Input<float> alpha{"alpha", 1.0f, 0.0f, 4.0f};
    Input<float> beta{"beta", 1.0f, 0.0f, 4.0f};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<uint16_t>> output{"output", 3};

    Var x{"x"}, y{"y"}, c{"c"}, k{"k"};

    // f(a, b) or f(a, b, k), by f's dimensions.
    Expr at(Func f, Expr a, Expr b) {
        return f.dimensions() == 3 ? f(a, b, k) : f(a, b);
    }
    void define(Func f, int dims, Expr e) {
        if (dims == 3) {
            f(x, y, k) = e;
        } else {
            f(x, y) = e;
        }
    }

    // f with its edges repeated outside [0, w) x [0, h): every level is read only within one
    // pixel of its own extent, so the region computed does not grow with the depth of the pyramid.
    Func bounded(Func f, Expr w, Expr h) {
        Region r = {Range(0, w), Range(0, h)};
        if (f.dimensions() == 3) r.push_back(Range());
        return BoundaryConditions::repeat_edge(f, r);
    }

    // [1 3 3 1] / 8 in x then y, at half resolution, of f of extent w x h.
    Func downsample(Func fin, Expr w, Expr h, const std::string &name) {
        Func f = bounded(fin, w, h);
        Func dx{name + "_dx"}, d{name};
        define(dx, f.dimensions(),
               (at(f, 2 * x - 1, y) + 3.0f * (at(f, 2 * x, y) + at(f, 2 * x + 1, y)) + at(f, 2 * x + 2, y)) * 0.125f);
        define(d, f.dimensions(),
               (at(dx, x, 2 * y - 1) + 3.0f * (at(dx, x, 2 * y) + at(dx, x, 2 * y + 1)) + at(dx, x, 2 * y + 2)) * 0.125f);
        return d;
    }

    // Linear upsampling by 2 in x then y of f of extent w x h.
    Func upsample(Func fin, Expr w, Expr h, const std::string &name) {
        Func f = bounded(fin, w, h);
        Func ux{name + "_ux"}, u{name};
        define(ux, f.dimensions(), 0.25f * at(f, (x / 2) - 1 + 2 * (x % 2), y) + 0.75f * at(f, x / 2, y));
        define(u, f.dimensions(), 0.25f * at(ux, x, (y / 2) - 1 + 2 * (y % 2)) + 0.75f * at(ux, x, y / 2));
        return u;
    }

    void generate() {
        const int J = pyramid_levels, K = intensity_levels;
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func floating{"floating"};
        floating(x, y, c) = cast<float>(clamped(x, y, c)) * (1.0f / 65535.0f);
        Func gray{"gray"};
        gray(x, y) = 0.299f * floating(x, y, 0) + 0.587f * floating(x, y, 1) + 0.114f * floating(x, y, 2);

        // The remapping function, tabulated over [-(K-1), K-1] level spacings.
        Var i{"i"};
        Func remap{"remap"};
        Expr fx = cast<float>(i) * (1.0f / 256.0f);
        remap(i) = (alpha / (K - 1)) * fx * exp(-fx * fx * 0.5f);

        Expr idx = clamp(cast<int>(gray(x, y) * float((K - 1) * 256)), 0, (K - 1) * 256);
        Expr level = cast<float>(k) * (1.0f / (K - 1));
        std::vector<Func> gPyr(J), lPyr(J), inGPyr(J), outLPyr(J), outGPyr(J);
        gPyr[0] = Func("gPyr_0");
        gPyr[0](x, y, k) = level + beta * (gray(x, y) - level) + remap(idx - 256 * k);
        inGPyr[0] = gray;
        // Level j is ceil(W / 2^j) x ceil(H / 2^j).
        Expr W = input.dim(0).extent(), H = input.dim(1).extent();
        auto lw = [&](int j) { return (W + ((1 << j) - 1)) >> j; };
        auto lh = [&](int j) { return (H + ((1 << j) - 1)) >> j; };
        for (int j = 1; j < J; j++) {
            gPyr[j] = downsample(gPyr[j - 1], lw(j - 1), lh(j - 1), "gPyr_" + std::to_string(j));
            inGPyr[j] = downsample(inGPyr[j - 1], lw(j - 1), lh(j - 1), "inGPyr_" + std::to_string(j));
        }
        lPyr[J - 1] = gPyr[J - 1];
        for (int j = J - 2; j >= 0; j--) {
            Func up = upsample(gPyr[j + 1], lw(j + 1), lh(j + 1), "gUp_" + std::to_string(j));
            lPyr[j] = Func("lPyr_" + std::to_string(j));
            lPyr[j](x, y, k) = gPyr[j](x, y, k) - up(x, y, k);
        }
        for (int j = 0; j < J; j++) {
            Expr lv = inGPyr[j](x, y) * float(K - 1);
            Expr li = clamp(cast<int>(lv), 0, K - 2);
            Expr lf = lv - cast<float>(li);
            outLPyr[j] = Func("outLPyr_" + std::to_string(j));
            outLPyr[j](x, y) = (1.0f - lf) * lPyr[j](x, y, li) + lf * lPyr[j](x, y, li + 1);
        }
        outGPyr[J - 1] = outLPyr[J - 1];
        for (int j = J - 2; j >= 0; j--) {
            Func up = upsample(outGPyr[j + 1], lw(j + 1), lh(j + 1), "outUp_" + std::to_string(j));
            outGPyr[j] = Func("outGPyr_" + std::to_string(j));
            outGPyr[j](x, y) = outLPyr[j](x, y) + up(x, y);
        }
        Expr ratio = outGPyr[0](x, y) * (floating(x, y, c) + 0.01f) / (gray(x, y) + 0.01f);
        output(x, y, c) = cast<uint16_t>(clamp(ratio, 0.0f, 1.0f) * 65535.0f + 0.5f);

        alpha.set_estimate(1.0f);
        beta.set_estimate(1.0f);
        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // Luma and the remap table once. G_k[0] is cheap (a table lookup) and inlined; every
            // coarser level of every pyramid is computed root: large levels in parallel over
            // strips of rows, small ones over k (or serially), vectorized across x. The output
            // collapses the last level per strip of rows.
            const int vec = natural_vector_size<float>();
            remap.compute_root();
            gray.compute_root().parallel(y, 8).vectorize(x, vec);
            for (int j = 1; j < J; j++) {
                const bool large = j < 4;
                gPyr[j].compute_root().reorder(x, k, y).vectorize(x, vec);
                if (large) {
                    gPyr[j].parallel(y, 4);
                } else {
                    gPyr[j].reorder(x, y, k).parallel(k);
                }
                inGPyr[j].compute_root().vectorize(x, vec);
                outGPyr[j].compute_root().vectorize(x, vec);
                if (large) {
                    inGPyr[j].parallel(y, 8);
                    outGPyr[j].parallel(y, 8);
                }
            }
            Var yo{"yo"}, yi{"yi"}, xo{"xo"}, xi{"xi"};
            output.split(y, yo, yi, 32, kGuard)
                .split(x, xo, xi, vec, kGuard)
                .reorder(xi, c, xo, yi, yo)
                .vectorize(xi)
                .unroll(c)
                .parallel(yo);
            output.dim(2).set_bounds(0, 3);
            outGPyr[0].compute_at(output, yi).vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LocalLaplacian, local_laplacian)
