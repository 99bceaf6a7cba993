// softmax: row-wise softmax of x [16T][L] (dims (l, m)).
//
//   row_max(m) = max_l x(l, m)
//   e(l, m)    = exp(x(l, m) - row_max(m))
//   row_sum(m) = sum_l e(l, m)
//   out(l, m)  = e(l, m) / row_sum(m)
//
// The reductions live in their own Funcs (pure init + one update).
#include "Halide.h"

namespace {

using namespace Halide;

class Softmax : public Generator<Softmax> {
public:
    GeneratorParam<int> L{"L", 128};

    Input<Buffer<float>> x{"x", 2};
    Input<int> T{"T", 32, 1, 128};

    Output<Buffer<float>> out{"out", 2};

    void generate() {
        Var l{"l"}, m{"m"};
        RDom r(0, (int)L, "r");

        Func row_max{"row_max"}, e{"e"}, row_sum{"row_sum"};
        row_max(m) = Float(32).min();
        row_max(m) = max(row_max(m), x(r, m));
        e(l, m) = exp(x(l, m) - row_max(m));
        row_sum(m) = 0.0f;
        row_sum(m) += e(r, m);
        out(l, m) = e(l, m) / row_sum(m);

        // Estimates.  With an autoscheduler they are symbolic in T (that is the
        // point: the plugin reads e.g. 16*T).  Halide 14's codegen embeds the
        // estimates in the argument metadata and asserts they are constants
        // ("Should only see constant values for estimates"), so the plugin has
        // to fold them before codegen; without an autoscheduler we fold them
        // here, at T's own estimate.
        T.set_estimate(32);
        Expr t = auto_schedule ? Expr(T) : Expr(32);
        x.dim(0).set_estimate(0, (int)L);
        x.dim(1).set_estimate(0, 16 * t);
        out.set_estimates({{0, (int)L}, {0, 16 * t}});

        if (!auto_schedule) {
            const int vec = natural_vector_size<float>();
            Var mo{"mo"}, mi{"mi"};
            out.split(m, mo, mi, 8, TailStrategy::GuardWithIf)
                .parallel(mo)
                .vectorize(l, vec, TailStrategy::GuardWithIf);
            row_max.compute_at(out, mi);
            e.compute_at(out, mi).vectorize(l, vec, TailStrategy::GuardWithIf);
            row_sum.compute_at(out, mi);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Softmax, softmax)
