// iir_blur: first-order recursive (IIR) blur of a float RGB image, down and up the columns,
// then left and right along the rows.
//
//   input:  float (x, y, c), c in [0, 3)
//   output: float (x, y, c), same size
//
//   down(x, 0)   = in(x, 0);   down(x, y) = (1 - a) down(x, y - 1) + a in(x, y)
//   up(x, H-1)   = down(x, H-1); up(x, y) = (1 - a) up(x, y + 1) + a down(x, y)
// and the same along x on the transposed result (the row pass is the column pass of the
// transpose, so that both passes recurse along a non-contiguous dimension and vectorize across
// the contiguous one).
#include "pipeline_common.h"

namespace {

using namespace Halide;
using diet_pipelines::kGuard;

class IirBlur : public Generator<IirBlur> {
public:
    DIET_PIPELINE_ESTIMATE_PARAMS(1536, 2560)

    Input<Buffer<float>> input{"input", 3};
    Input<float> alpha{"alpha", 0.1f, 0.0f, 1.0f};
    DIET_PIPELINE_SHAPE_INPUTS(1536, 2560, 64, 4096)

    Output<Buffer<float>> output{"output", 3};

    Var x{"x"}, y{"y"}, c{"c"};

    struct Pass {
        Func down, up;
        RDom rd, ru;
    };

    // The column pass over rows [0, rows) of f.
    Pass blur_columns(Func f, Expr rows, const std::string &name) {
        Pass p{Func(name + "_down"), Func(name + "_up"), RDom(1, rows - 1, name + "_rd"),
               RDom(1, rows - 1, name + "_ru")};
        p.down(x, y, c) = f(x, y, c);
        p.down(x, p.rd, c) = (1.0f - alpha) * p.down(x, p.rd - 1, c) + alpha * f(x, p.rd, c);
        p.up(x, y, c) = p.down(x, y, c);
        Expr yy = rows - 1 - p.ru;
        p.up(x, yy, c) = (1.0f - alpha) * p.up(x, yy + 1, c) + alpha * p.down(x, yy, c);
        return p;
    }

    void generate() {
        Expr W = input.dim(0).extent(), H = input.dim(1).extent();
        // Edges repeated: whatever region a schedule computes, the input is read in bounds.
        Func in = BoundaryConditions::repeat_edge(input);

        Pass cols = blur_columns(in, H, "cols");
        Func transposed{"transposed"};
        transposed(x, y, c) = cols.up(y, x, c);
        Pass rows = blur_columns(transposed, W, "rows");
        output(x, y, c) = rows.up(y, x, c);

        alpha.set_estimate(0.1f);
        Expr w = est_width(), h = est_height();
        input.dim(0).set_estimate(0, w);
        input.dim(1).set_estimate(0, h);
        input.dim(2).set_estimate(0, 3);
        output.set_estimates({{0, w}, {0, h}, {0, 3}});

        if (!auto_schedule) {
            // Each pass recurses along y, vectorized across x. A task takes a block of 64
            // columns of the pass's input (all rows, one channel): it runs the recursion down and
            // up the block (64 x H floats, in L2), then writes the block transposed, in vec x vec
            // tiles (vectorized across x, unrolled across y). The transposed image is the second
            // pass's input; the second transpose is the output's.
            const int vec = natural_vector_size<float>();
            auto schedule_transpose = [&](Func t_out, Pass &p) {
                Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yb{"yb"}, task{"task"};
                t_out.split(y, yb, y, 64, kGuard)
                    .tile(x, y, xo, yo, xi, yi, vec, vec, kGuard)
                    .reorder(xi, yi, xo, yo, yb, c)
                    .vectorize(xi)
                    .unroll(yi)
                    .fuse(yb, c, task)
                    .parallel(task);
                for (Func f : {p.down, p.up}) {
                    f.compute_at(t_out, task).vectorize(x, vec, kGuard);
                }
                p.down.update().reorder(x, p.rd.x).vectorize(x, vec, kGuard);
                p.up.update().reorder(x, p.ru.x).vectorize(x, vec, kGuard);
            };
            transposed.compute_root();
            schedule_transpose(transposed, cols);
            schedule_transpose(output, rows);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirBlur, iir_blur)
