#include "analysis/VectorChoice.h"

#include "analysis/SymbolicRegion.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace diet {

namespace {

constexpr int64_t kTileVectors = 4;

// The smallest value of a host extent over `shapes`; empty when some shape gives none.
std::optional<int64_t> smallest_extent(const Halide::Expr &e, const ShapeFamily &family, const std::vector<Shape> &shapes) {
    int64_t least = std::numeric_limits<int64_t>::max();
    for (const Shape &s : shapes) {
        const std::optional<int64_t> x = size_at(e, family, s);
        if (!x) return std::nullopt;
        least = std::min(least, *x);
    }
    return least;
}

bool vectors_stay(const MatmulPattern &p) {
    // An update on a batched output runs its passes per slice (schedule/ApplySchedule.cpp): 2-D only.
    return !p.host_is_output || (p.update_on_output && p.host_extent.size() != 2) || p.host_wraps_acc ||
           p.vector_period > 0 || p.depth_dim >= 0 || p.several_updates() || p.host_extent.size() < 2;
}

// Heuristic ("vectors where an operand is dense"): no operand is read densely along the output's
// innermost dimension (each vector there is a gather, or a staged copy of a strided operand:
// attention scores with a transposed query, q(i, d, b) . k(d, j, b), or a dense layer with
// both operands transposed), but one operand is contiguous along the host's dimension 1 and
// another is a broadcast along it: the vectors move there, where the column kernels load that
// operand directly and broadcast the other. Only where the moved dimension fills a register
// tile's columns (kTileVectors vectors) at every shape checked: shorter, the unmoved space's
// dot-product kernels win. AVX2 guest, interleaved (apps/results/cpu/dense_vector_moves_2026-11-29/):
// transposed-query attention scores with T in [32, 128] 1.13-1.8x faster moved; a dense layer with
// both operands transposed, 16T rows, T from 2: 1.25x at T = 2, 0.94x at 3, 1.05x at 5, 1.14x at
// 16, even from 43. From T = 1 the move lost: the scores 3-5x at T = 1-3 (scalar column tiles),
// the dense layer 0.56x the canonical form at T = 1 (the unmoved one's dot kernels: 1.03x).
std::optional<int> dense_moved_arg(const MatmulPattern &p, const ShapeFamily &family, const std::vector<Shape> &shapes,
                                   int lanes) {
    if (p.host_extent.size() < 2 || lanes < 2) return std::nullopt;
    const int arg = p.acc_arg_of_host_dim[1];
    bool dense_now = false, dense_moved = false, read = false, broadcast = false;
    for (const ContractionOperand &o : p.operands) {
        dense_now |= o.vector_arg == 0 && !o.vector_gather;
        const bool moves_with = arg < (int)o.uses_acc_arg.size() && o.uses_acc_arg[arg];
        read |= moves_with;
        broadcast |= !moves_with;
        dense_moved |= moves_with && o.unit_stride_acc_arg[arg] && !o.computed;
    }
    if (dense_now || !dense_moved || !read || !broadcast) return std::nullopt;
    const std::optional<int64_t> extent = smallest_extent(p.host_extent[1], family, shapes);
    if (!extent || *extent < kTileVectors * lanes) return std::nullopt;
    return arg;
}

// Whether, with the vectors along accumulator argument `vector_arg`, some other argument is read by
// an operand that does not move with the vectors and by none that does: a register tile's rows
// then reuse each vector loaded (analysis/ContractionOperands.h reusing_row_dim). Without one a
// moved contraction is no longer a kernel's (a stereo FIR, x(c, n + t) * h(t), moved to n: every
// operand but the taps moves with n, and the stage rules' schedule ran 1.3-2.5x slower).
bool reuses_across_rows(const MatmulPattern &p, int vector_arg) {
    const auto uses = [](const ContractionOperand &o, int a) { return a < (int)o.uses_acc_arg.size() && o.uses_acc_arg[a]; };
    for (int a : p.acc_arg_of_host_dim) {
        if (a == vector_arg) continue;
        bool broadcast_side = false, vector_side = false;
        for (const ContractionOperand &o : p.operands) {
            if (!uses(o, a)) continue;
            (uses(o, vector_arg) ? vector_side : broadcast_side) = true;
        }
        if (broadcast_side && !vector_side) return true;
    }
    return false;
}

}  // namespace

VectorMoves choose_vector_moves(const FunctionDAG &dag, const ShapeFamily &family, const std::vector<Shape> &shapes,
                                const std::function<int(const Halide::Type &)> &lanes) {
    // The training shapes and the family's smallest one (where the innermost dimension is shortest).
    std::vector<Shape> checked = shapes;
    Shape smallest;
    for (const ShapeVar &v : family.vars) smallest[v.name] = v.values.front();
    checked.push_back(smallest);
    VectorMoves moves;
    for (const MatmulPattern &p : dag.matmuls()) {
        if (vectors_stay(p)) continue;
        // A register tile is a few vectors wide (the kernels' columns): a dimension of fewer than
        // kTileVectors vectors at some shape cannot fill one there.
        const int64_t wide = kTileVectors * lanes(p.type);
        if (const std::optional<int> dense = dense_moved_arg(p, family, checked, lanes(p.type))) {
            moves[p.acc] = *dense;
            continue;
        }
        const std::optional<int64_t> innermost = smallest_extent(p.host_extent[0], family, checked);
        if (!innermost || *innermost >= wide) continue;
        int best_arg = -1;
        int64_t best_extent = wide - 1;
        // Heuristic ("no vector along a constant short dimension"): an innermost dimension of a
        // constant extent shorter than one vector (re/im of interleaved complex numbers, a
        // colour matrix's 3 channels) fills no vector at any shape (the kernels' columns there are
        // scalar); dimension 1, a vector long at the largest shape, fills them where it can.
        Shape largest;
        for (const ShapeVar &v : family.vars) largest[v.name] = v.values.back();
        const std::optional<int64_t> largest0 = size_at(p.host_extent[0], family, largest);
        if (largest0 && *largest0 == *innermost && *innermost < lanes(p.type) && p.host_extent.size() > 1 &&
            reuses_across_rows(p, p.acc_arg_of_host_dim[1])) {
            const std::optional<int64_t> longest = size_at(p.host_extent[1], family, largest);
            if (longest && *longest >= lanes(p.type)) best_extent = 0;
        }
        // Only the output's dimension 1: the output then reads the accumulator with its
        // dimensions 0 and 1 swapped, which the stage rules run as vector x vector blocks (a move
        // to an outer dimension, a convolution's channels behind its image rows, would leave the
        // output a pass of gathers).
        for (size_t d = 1; d < std::min<size_t>(2, p.host_extent.size()); d++) {
            const int arg = p.acc_arg_of_host_dim[d];
            bool read = false, broadcast = false;
            for (const ContractionOperand &o : p.operands) {
                const bool moves_with = arg < (int)o.uses_acc_arg.size() && o.uses_acc_arg[arg];
                read |= moves_with;
                broadcast |= !moves_with;
            }
            if (!read || !broadcast) continue;
            const std::optional<int64_t> extent = smallest_extent(p.host_extent[d], family, checked);
            if (extent && *extent > best_extent) best_extent = *extent, best_arg = arg;
        }
        if (best_arg >= 0) moves[p.acc] = best_arg;
    }
    return moves;
}

}  // namespace diet
