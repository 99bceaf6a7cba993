// Batched matrix products of the BERT attention block, 192 = 16 * 12 batches
// (batch * heads), head size 64, sequence length T.
//
// batch_matmul_nt (Q * K^T):
//   a:   dims (k, i, b), extents (D, T, B)
//   bt:  dims (k, j, b), extents (D, T, B)
//   out: dims (j, i, b), extents (T, T, B)
//   out(j, i, b) = sum_k a(k, i, b) * bt(k, j, b),   k in [0, D)
//   With lhs_transposed=true, a is stored with its rows innermost: dims (i, k, b), extents
//   (T, D, B) (transposed queries; the emitted-generator test builds it).
//
// batch_matmul_nn (P * V):
//   a:   dims (k, i, b), extents (T, T, B)
//   bn:  dims (j, k, b), extents (D, T, B)
//   out: dims (j, i, b), extents (D, T, B)
//   out(j, i, b) = sum_k a(k, i, b) * bn(j, k, b),   k in [0, a.dim(0).extent())
//
// Both use the accumulator + pure-output shape the Diet plugin looks for.
#include "Halide.h"

namespace {

using namespace Halide;

class BatchMatmulNT : public Generator<BatchMatmulNT> {
public:
    GeneratorParam<int> D{"D", 64};
    GeneratorParam<int> B{"B", 192};
    GeneratorParam<bool> lhs_transposed{"lhs_transposed", false};

    Input<Buffer<float>> a{"a", 3};
    Input<Buffer<float>> bt{"bt", 3};
    Input<int> T{"T", 64, 1, 128};

    Output<Buffer<float>> out{"out", 3};

    void generate() {
        Var j{"j"}, i{"i"}, b{"b"};
        Func acc{"acc"};
        RDom k(0, (int)D, "k");

        acc(j, i, b) = 0.0f;
        acc(j, i, b) += (lhs_transposed ? a(i, k, b) : a(k, i, b)) * bt(k, j, b);
        out(j, i, b) = acc(j, i, b);

        // Estimates.  With an autoscheduler they are symbolic in T (that is the
        // point: the plugin reads e.g. 16*T).  Halide 14's codegen embeds the
        // estimates in the argument metadata and asserts they are constants
        // ("Should only see constant values for estimates"), so the plugin has
        // to fold them before codegen; without an autoscheduler we fold them
        // here, at T's own estimate.
        T.set_estimate(64);
        Expr t = auto_schedule ? Expr(T) : Expr(64);
        if (lhs_transposed) {
            a.set_estimates({{0, t}, {0, (int)D}, {0, (int)B}});
        } else {
            a.set_estimates({{0, (int)D}, {0, t}, {0, (int)B}});
        }
        bt.set_estimates({{0, (int)D}, {0, t}, {0, (int)B}});
        out.set_estimates({{0, t}, {0, t}, {0, (int)B}});

        if (!auto_schedule && !lhs_transposed) {
            // Plain hand schedule: per batch, transpose bt so that j is unit
            // stride, then vectorize acc over j.
            const int vec = natural_vector_size<float>();
            Var jo{"jo"}, ji{"ji"}, io{"io"}, ii{"ii"};

            Func btt = bt.in();
            Var tk = btt.args()[0], tj = btt.args()[1];
            btt.compute_at(out, b)
                .reorder_storage(tj, tk)
                .reorder(tj, tk)
                .vectorize(tj, vec, TailStrategy::GuardWithIf);

            out.split(i, io, ii, 4, TailStrategy::GuardWithIf)
                .split(j, jo, ji, vec, TailStrategy::GuardWithIf)
                .reorder(ji, ii, jo, io, b)
                .vectorize(ji)
                .parallel(b);
            acc.compute_at(out, jo)
                .vectorize(j, vec, TailStrategy::GuardWithIf);
            acc.update()
                .reorder(j, i, k)
                .vectorize(j, vec, TailStrategy::GuardWithIf);
        }
    }
};

class BatchMatmulNN : public Generator<BatchMatmulNN> {
public:
    GeneratorParam<int> D{"D", 64};
    GeneratorParam<int> B{"B", 192};

    Input<Buffer<float>> a{"a", 3};
    Input<Buffer<float>> bn{"bn", 3};
    Input<int> T{"T", 64, 1, 128};

    Output<Buffer<float>> out{"out", 3};

    void generate() {
        Var j{"j"}, i{"i"}, b{"b"};
        Func acc{"acc"};
        // The reduction runs over the (symbolic) sequence length.
        RDom k(0, a.dim(0).extent(), "k");

        acc(j, i, b) = 0.0f;
        acc(j, i, b) += a(k, i, b) * bn(j, k, b);
        out(j, i, b) = acc(j, i, b);

        // Estimates.  With an autoscheduler they are symbolic in T (that is the
        // point: the plugin reads e.g. 16*T).  Halide 14's codegen embeds the
        // estimates in the argument metadata and asserts they are constants
        // ("Should only see constant values for estimates"), so the plugin has
        // to fold them before codegen; without an autoscheduler we fold them
        // here, at T's own estimate.
        T.set_estimate(64);
        Expr t = auto_schedule ? Expr(T) : Expr(64);
        a.set_estimates({{0, t}, {0, t}, {0, (int)B}});
        bn.set_estimates({{0, (int)D}, {0, t}, {0, (int)B}});
        out.set_estimates({{0, (int)D}, {0, t}, {0, (int)B}});

        if (!auto_schedule) {
            // Plain hand schedule: bn already has j unit stride.
            const int vec = natural_vector_size<float>();
            Var jo{"jo"}, ji{"ji"}, io{"io"}, ii{"ii"};

            out.split(i, io, ii, 4, TailStrategy::GuardWithIf)
                .split(j, jo, ji, 2 * vec, TailStrategy::GuardWithIf)
                .reorder(ji, ii, jo, io, b)
                .vectorize(ji, vec)
                .parallel(b);
            acc.compute_at(out, jo)
                .vectorize(j, vec, TailStrategy::GuardWithIf);
            acc.update()
                .reorder(j, i, k)
                .vectorize(j, vec, TailStrategy::GuardWithIf);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BatchMatmulNT, batch_matmul_nt)
HALIDE_REGISTER_GENERATOR(BatchMatmulNN, batch_matmul_nn)
