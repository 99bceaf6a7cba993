// layernorm: per-row layer normalisation of x [16T][C] (dims (c, m)).
//
//   mean(m)    = sum_c x(c, m) / C
//   var(m)     = sum_c (x(c, m) - mean(m))^2 / C
//   inv_std(m) = 1 / sqrt(var(m) + eps)
//   out(c, m)  = (x(c, m) - mean(m)) * inv_std(m) * gamma(c) + beta(c)
//
// The two reductions live in their own Funcs (pure init + one update).
#include "Halide.h"

namespace {

using namespace Halide;

class LayerNorm : public Generator<LayerNorm> {
public:
    GeneratorParam<int> C{"C", 768};
    GeneratorParam<float> epsilon{"epsilon", 1e-5f};

    Input<Buffer<float>> x{"x", 2};
    Input<Buffer<float>> gamma{"gamma", 1};
    Input<Buffer<float>> beta{"beta", 1};
    Input<int> T{"T", 32, 1, 128};

    Output<Buffer<float>> out{"out", 2};

    void generate() {
        Var c{"c"}, m{"m"};
        RDom r(0, (int)C, "r");

        Func sum_x{"sum_x"}, mean{"mean"}, sum_sq{"sum_sq"}, inv_std{"inv_std"};
        sum_x(m) = 0.0f;
        sum_x(m) += x(r, m);
        mean(m) = sum_x(m) * (1.0f / (int)C);

        sum_sq(m) = 0.0f;
        Expr d = x(r, m) - mean(m);
        sum_sq(m) += d * d;
        inv_std(m) = 1.0f / sqrt(sum_sq(m) * (1.0f / (int)C) + (float)epsilon);

        out(c, m) = (x(c, m) - mean(m)) * inv_std(m) * gamma(c) + beta(c);

        // Estimates.  With an autoscheduler they are symbolic in T (that is the
        // point: the plugin reads e.g. 16*T).  Halide 14's codegen embeds the
        // estimates in the argument metadata and asserts they are constants
        // ("Should only see constant values for estimates"), so the plugin has
        // to fold them before codegen; without an autoscheduler we fold them
        // here, at T's own estimate.
        T.set_estimate(32);
        Expr t = auto_schedule ? Expr(T) : Expr(32);
        x.dim(0).set_estimate(0, (int)C);
        x.dim(1).set_estimate(0, 16 * t);
        gamma.dim(0).set_estimate(0, (int)C);
        beta.dim(0).set_estimate(0, (int)C);
        out.set_estimates({{0, (int)C}, {0, 16 * t}});

        if (!auto_schedule) {
            const int vec = natural_vector_size<float>();
            Var mo{"mo"}, mi{"mi"};
            out.split(m, mo, mi, 8, TailStrategy::GuardWithIf)
                .parallel(mo)
                .vectorize(c, vec, TailStrategy::GuardWithIf);
            mean.compute_at(out, mo);
            sum_x.compute_at(out, mo);
            inv_std.compute_at(out, mo);
            sum_sq.compute_at(out, mo);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LayerNorm, layernorm)
