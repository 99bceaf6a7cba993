// Operands a register tile cannot reuse (space/MicroKernel.h): those that move with the vectors
// and with the tile's rows too, whose staged copies would serve one row.
#include "space/MicroKernel.h"

#include <algorithm>

namespace diet {

namespace {

// The operands that move with the vectors and with the register tile's rows.
std::vector<const ContractionOperand *> vector_operands_per_row(const MatmulPattern &p) {
    std::vector<const ContractionOperand *> out;
    if (p.depth_dim > 0 || p.row_dim <= 0 || p.row_dim >= (int)p.acc_arg_of_host_dim.size()) return out;
    const int row_arg = p.acc_arg_of_host_dim[p.row_dim];
    for (const ContractionOperand &o : p.operands) {
        if (o.vector_arg >= 0 && row_arg < (int)o.uses_acc_arg.size() && o.uses_acc_arg[row_arg]) out.push_back(&o);
    }
    return out;
}

}  // namespace

bool vector_operand_moves_with_rows(const MatmulPattern &p) { return !vector_operands_per_row(p).empty(); }

std::vector<OperandMotion> operand_motion(const MatmulPattern &p) {
    std::vector<OperandMotion> out;
    if (p.depth_dim > 0 || p.row_dim <= 0 || p.row_dim >= (int)p.acc_arg_of_host_dim.size()) return out;
    const int row_arg = p.acc_arg_of_host_dim[p.row_dim];
    for (const ContractionOperand &o : p.operands) {
        if (o.reduction_invariant) continue;  // loaded once per tile, outside the reduction loop
        OperandMotion m;
        m.with_vectors = o.vector_arg >= 0;
        m.with_rows = row_arg < (int)o.uses_acc_arg.size() && o.uses_acc_arg[row_arg];
        m.gathered = m.with_vectors && o.vector_gather && o.vector_stride_uniform && !o.vector_reversed;
        out.push_back(m);
    }
    return out;
}

bool any_gathered_operand(const MatmulExtents &e) {
    return std::any_of(e.operand_moves.begin(), e.operand_moves.end(), [](const OperandMotion &m) { return m.gathered; });
}

bool staged_panel_serves_one_row(const MatmulPattern &p) {
    const std::vector<const ContractionOperand *> per_row = vector_operands_per_row(p);
    return std::any_of(per_row.begin(), per_row.end(), [](const ContractionOperand *o) { return o->strided_along_vector(); });
}

}  // namespace diet
