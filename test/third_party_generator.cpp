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

}  // namespace

HALIDE_REGISTER_GENERATOR(ThirdParty, third_party)
