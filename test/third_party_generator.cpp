// A generator written the way a user outside the project would: an inline sum(), its own names,
// a ranged Input<int> used in symbolic estimates, a bias and a ReLU. Built twice by the tests:
// through GenGen's command line with `-p libautoschedule_diet.so -s Diet auto_schedule=true`, and
// without the plugin with the emitted .schedule.h included (DIET_FROZEN_SCHEDULE), which must
// reproduce the same results.
#include "Halide.h"

#ifdef DIET_FROZEN_SCHEDULE
#include DIET_FROZEN_SCHEDULE
#endif
#ifdef DIET_FROZEN_ATTENTION_SCHEDULE
#include DIET_FROZEN_ATTENTION_SCHEDULE
#endif

namespace {

using namespace Halide;

class ThirdParty : public Generator<ThirdParty> {
public:
    Input<Buffer<float>> act{"act", 2};    // (r, i): [48, 3U]
    Input<Buffer<float>> wgt{"wgt", 2};    // (j, r): [40, 48]
    Input<Buffer<float>> bias{"bias", 1};  // (j): [40]
    Input<int> U{"U", 16, 1, 64};
    Output<Buffer<float>> out{"out", 2};   // (j, i): [40, 3U]

    void generate() {
        Var i("i"), j("j");
        RDom r(0, 48, "r");
        out(j, i) = max(sum(act(r, i) * wgt(j, r)) + bias(j), 0.f);

        // Halide 14 needs constant estimates when no autoscheduler rewrites them.
        Expr rows = auto_schedule ? 3 * U : Expr(48);
        act.set_estimates({{0, 48}, {0, rows}});
        wgt.set_estimates({{0, 40}, {0, 48}});
        bias.set_estimates({{0, 40}});
        out.set_estimates({{0, 40}, {0, rows}});
    }

    void schedule() {
#ifdef DIET_FROZEN_SCHEDULE
        if (!auto_schedule) DIET_FROZEN_APPLY(get_pipeline(), get_target());
#endif
    }
};

// Attention scores written the other common way: the update defined on the output itself, a
// constant scale folded into the product, heads outermost; S tokens in [1, 64].
class ThirdPartyScores : public Generator<ThirdPartyScores> {
public:
    Input<Buffer<float>> query{"query", 3};  // (d, i, h): [32, S, 4]
    Input<Buffer<float>> key{"key", 3};      // (d, j, h): [32, S, 4]
    Input<int> S{"S", 16, 1, 64};
    Output<Buffer<float>> scores{"scores", 3};  // (j, i, h): [S, S, 4]

    void generate() {
        Var i("i"), j("j"), h("h");
        RDom d(0, 32, "d");
        scores(j, i, h) = 0.f;
        scores(j, i, h) += query(d, i, h) * key(d, j, h) * 0.125f;
        Expr tokens = auto_schedule ? Expr(S) : Expr(16);
        query.set_estimates({{0, 32}, {0, tokens}, {0, 4}});
        key.set_estimates({{0, 32}, {0, tokens}, {0, 4}});
        scores.set_estimates({{0, tokens}, {0, tokens}, {0, 4}});
    }
};

// A whole attention block as someone else writes it: scores by an inline sum() divided by
// sqrt(d), a numerically safe softmax whose reductions run over an RDom bounded by the token count
// S (an Input<int>), and the context as an update on the output. The scores' product is read by
// the softmax, not by an output: Diet tiles it where it is computed, sized at run time by S.
class ThirdPartyAttention : public Generator<ThirdPartyAttention> {
public:
    Input<Buffer<float>> query{"query", 3};  // (d, i, h): [32, S, 4]
    Input<Buffer<float>> key{"key", 3};      // (d, j, h): [32, S, 4]
    Input<Buffer<float>> value{"value", 3};  // (d, j, h): [32, S, 4]
    Input<int> S{"S", 16, 1, 64};
    Output<Buffer<float>> context{"context", 3};  // (d, i, h): [32, S, 4]

    void generate() {
        Var d("d"), i("i"), j("j"), h("h");
        RDom c(0, 32, "c"), t(0, S, "t");
        Func logits("logits"), top("top"), w("w"), total("total");
        logits(j, i, h) = sum(query(c, i, h) * key(c, j, h)) / std::sqrt(32.f);
        top(i, h) = maximum(logits(t, i, h));
        w(j, i, h) = exp(logits(j, i, h) - top(i, h));
        total(i, h) = sum(w(t, i, h));
        context(d, i, h) = 0.f;
        context(d, i, h) += w(t, i, h) * value(d, t, h) / total(i, h);
        Expr tokens = auto_schedule ? Expr(S) : Expr(16);
        for (Input<Buffer<float>> *in : {&query, &key, &value}) in->set_estimates({{0, 32}, {0, tokens}, {0, 4}});
        context.set_estimates({{0, 32}, {0, tokens}, {0, 4}});
    }

    void schedule() {
#ifdef DIET_FROZEN_ATTENTION_SCHEDULE
        if (!auto_schedule) DIET_FROZEN_ATTENTION_APPLY(get_pipeline(), get_target());
#endif
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ThirdPartyAttention, third_party_attention)
HALIDE_REGISTER_GENERATOR(ThirdParty, third_party)
HALIDE_REGISTER_GENERATOR(ThirdPartyScores, third_party_scores)
