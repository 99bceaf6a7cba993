// dense: y(n, m) = sum_k x(k, m) * w(k, n)
//
// The BERT-style fully connected layer.  x is the activation matrix with the
// reduction dimension innermost, w is the weight matrix stored row-major as
// [N][K] (so also k innermost), y is [16T][N] row-major.
//
//   x: dims (k, m), extents (K, 16*T)
//   w: dims (k, n), extents (K, N)
//   y: dims (n, m), extents (N, 16*T)
//
// The algorithm keeps the shape the Diet plugin looks for: a separate
// accumulator Func with a pure initialisation and a single `+=` update of a
// product over an RDom, read back at the same coordinates by a pure output.
#include "Halide.h"

// A schedule Diet emitted earlier (-e schedule), compiled in: the generator then builds the tuned
// library without the plugin (see apps/frozen/). DIET_FROZEN_APPLY names its apply function.
#ifdef DIET_FROZEN_SCHEDULE
#include DIET_FROZEN_SCHEDULE
#endif

namespace {

using namespace Halide;

class Dense : public Generator<Dense> {
public:
    GeneratorParam<int> K{"K", 768};
    GeneratorParam<int> N{"N", 2304};
    // false: constant estimates (at T=32) even when autoscheduling, for schedulers such as
    // Mullapudi2016 that pass estimates through to Halide 14's codegen, which needs constants.
    GeneratorParam<bool> symbolic_estimates{"symbolic_estimates", true};

    Input<Buffer<float>> x{"x", 2};
    Input<Buffer<float>> w{"w", 2};
    // The token count: the problem has 16*T rows.  Only used by the estimates.
    Input<int> T{"T", 32, 1, 128};

    Output<Buffer<float>> y{"y", 2};

    void generate() {
        Var n{"n"}, m{"m"};
        Func acc{"acc"};
        RDom k(0, (int)K, "k");

        acc(n, m) = 0.0f;
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);

        // Estimates.  With an autoscheduler they are symbolic in T (that is the
        // point: the plugin reads e.g. 16*T).  Halide 14's codegen embeds the
        // estimates in the argument metadata and asserts they are constants
        // ("Should only see constant values for estimates"), so the plugin has
        // to fold them before codegen; without an autoscheduler we fold them
        // here, at T's own estimate.
        T.set_estimate(32);
        Expr t = (auto_schedule && symbolic_estimates) ? Expr(T) : Expr(32);
        x.dim(0).set_estimate(0, (int)K);
        x.dim(1).set_estimate(0, 16 * t);
        w.set_estimates({{0, (int)K}, {0, (int)N}});
        y.set_estimates({{0, (int)N}, {0, 16 * t}});

#ifdef DIET_FROZEN_SCHEDULE
        if (!auto_schedule) return;  // schedule() applies the frozen one
#endif
        if (!auto_schedule) {
            // A plain hand schedule (not tuned): transpose the weights so
            // that n is unit stride, then compute register tiles of acc.
            const int vec = natural_vector_size<float>();
            Var no{"no"}, ni{"ni"}, mo{"mo"}, mi{"mi"};

            Func wt = w.in();
            Var wk = wt.args()[0], wn = wt.args()[1];
            wt.compute_root()
                .reorder_storage(wn, wk)
                .split(wn, wn, ni, vec, TailStrategy::GuardWithIf)
                .reorder(ni, wk, wn)
                .vectorize(ni)
                .parallel(wn);

            y.split(m, mo, mi, 8, TailStrategy::GuardWithIf)
                .split(n, no, ni, 2 * vec, TailStrategy::GuardWithIf)
                .reorder(ni, mi, no, mo)
                .vectorize(ni, vec)
                .parallel(mo);
            acc.compute_at(y, no)
                .vectorize(n, vec, TailStrategy::GuardWithIf);
            acc.update()
                .reorder(n, m, k)
                .vectorize(n, vec, TailStrategy::GuardWithIf);
        }
    }

#ifdef DIET_FROZEN_SCHEDULE
    void schedule() {
        if (!auto_schedule) DIET_FROZEN_APPLY(get_pipeline(), get_target());
    }
#endif
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Dense, dense)
