// MatmulPattern's own methods, and the helpers that fill it in after classification
// (analysis/FunctionDAG.h).
#include "analysis/FunctionDAG.h"
#include "analysis/ContractionOperands.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

std::set<std::string> MatmulPattern::funcs() const {
    std::set<std::string> f = {acc, host};
    f.insert(inlined.begin(), inlined.end());
    f.insert(materialized.begin(), materialized.end());
    f.insert(in_place.begin(), in_place.end());
    return f;
}

std::vector<int> MatmulPattern::kernel_dims() const {
    std::vector<int> dims = {0};
    if (acc_arg_of_host_dim.size() > 1) dims.push_back(row_dim);
    if (depth_dim > 0) dims.push_back(depth_dim);
    for (int d = 1; d < (int)acc_arg_of_host_dim.size(); d++) {
        if (d != row_dim && d != depth_dim) dims.push_back(d);
    }
    return dims;
}

VectorMoves vector_moves_of(const std::vector<MatmulPattern> &patterns) {
    VectorMoves moves;
    for (const MatmulPattern &p : patterns) {
        if (p.moved_vector_arg >= 0) moves[p.acc] = p.moved_vector_arg;
    }
    return moves;
}

void fuse_contiguous_reduction(MatmulPattern &p, const std::vector<const Call *> &calls) {
    std::vector<int> arg_of_call;
    if (p.several_updates() || !reduction_fuses(calls, p.reduction, arg_of_call)) return;
    const int64_t length = *constant_value(p.reduction[0].extent) * *constant_value(p.reduction[1].extent);
    p.fused_reduction = {p.reduction[0].name, p.reduction[1].name};
    LoopVar fused;
    fused.name = p.reduction[0].name + "_fused";
    fused.min = 0;
    fused.extent = (int)length;
    fused.is_rvar = true;
    p.reduction = {fused};
    p.update_reductions = {p.reduction};
    p.reduction_extent = p.inner_reduction_extent = p.total_reduction_extent = length;
    for (ContractionOperand &o : p.operands) {
        for (size_t i = 0; i < calls.size(); i++) {
            if (calls[i]->name == o.func) o.reduction_arg = arg_of_call[i];
        }
    }
}

}  // namespace diet
