// A generator written the way a user outside the project would: an inline sum(), its own names,
// a ranged Input<int> used in symbolic estimates, a bias and a ReLU. Built twice by the tests:
// through GenGen's command line with `-p libautoschedule_diet.so -s Diet auto_schedule=true`, and
// without the plugin with the emitted .schedule.h included (DIET_FROZEN_SCHEDULE), which must
// reproduce the same results.
#include "Halide.h"

#ifdef DIET_FROZEN_SCHEDULE
#include DIET_FROZEN_SCHEDULE
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

}  // namespace

HALIDE_REGISTER_GENERATOR(ThirdParty, third_party)
HALIDE_REGISTER_GENERATOR(ThirdPartyScores, third_party_scores)
