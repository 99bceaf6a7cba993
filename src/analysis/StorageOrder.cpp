#include "analysis/StorageOrder.h"

namespace diet {

using namespace Halide;

int declared_innermost_dim(const FuncNode &n) {
    if (!n.is_output || n.dims() < 2) return 0;
    int found = 0;
    for (const Internal::Parameter &p : n.func.output_buffers()) {
        int here = 0;
        for (int d = 1; d < n.dims(); d++) {
            const Expr s = p.stride_constraint(d);
            if (s.defined() && Internal::is_const_one(Internal::simplify(s))) here = d;
        }
        if (here == 0 || (found != 0 && here != found)) return 0;
        found = here;
    }
    return found;
}

}  // namespace diet
