// Which kernel kinds a contraction admits (space/MicroKernel.h): packed integer kernels, the
// reduction-major copy of a transposed broadcast operand, dot-product kernels. Rules on the
// pattern alone, apart from the enumeration of the space that uses them (MicroKernel.cpp).
#include "space/MicroKernel.h"
#include "analysis/SymbolicRegion.h"

#include <algorithm>

namespace diet {

using namespace Halide;

int packed_reduction_factor(const MatmulPattern &p, const CpuLimits &lim) {
    if (!p.type.is_int_or_uint() || p.type.bits() != 32 || p.reduction.size() != 1 || p.several_updates() ||
        !p.reduction_extent || p.reduction_predicated) {  // (packed lanes split the reduction, as dot kernels do)
        return 1;
    }
    // The pair sums are vpmaddwd's signed int32 lanes: Halide 14 selects it for an int32
    // accumulation. Into uint32 the same packed kernel interleaves and widens through extra
    // shuffles: uint8 x uint8 -> uint32 at 256^3 ran 0.29-0.42 ms packed (NN, NT) against
    // 0.18-0.23 ms unpacked NN (AVX-512 guest, apps/results/cpu/schedule_diff_2026-12-02/u8_u32/).
    if (p.type.is_uint()) return 1;
    if (p.operands.size() < 2) return 1;
    int widest = 0;
    for (const ContractionOperand &o : p.operands) {
        if (!o.type.is_int_or_uint() || o.type.bits() > 16 || o.reduction_arg < 0) return 1;
        // Pairs of 16-bit products sum in one instruction only for signed words (vpmaddwd,
        // vpdpwssd); 8-bit operands widen to them losslessly, unsigned 16-bit ones do not, and
        // Halide 14 emulates the pair: uint16 x uint16 -> uint32 ran 1.6-2.0x faster unpacked
        // (AVX2 guest, apps/results/cpu/forms_gelu_dotpanels_2026-11-29/styles_probe.txt).
        if (o.type.bits() == 16 && o.type.is_uint()) return 1;
        widest = std::max(widest, o.type.bits());
    }
    // Without a 4-way instruction Halide 14 lowers a 4-step vector reduction of 8-bit products
    // through a chain of shuffles; widened to 16 bits and summed in pairs it is one vpmaddwd per
    // vector. Measured on an AVX2 guest (uint8 x int8, K = 768, N = 2304, 16T rows): T = 16 in
    // 9.3 ms packed by 4, 4.6 ms by 2 (float32: 7.4 ms); T = 128: 85 ms by 4, 52 ms by 2 (58 ms).
    // Packing pays only where both operands are read densely along the reduction (the packed
    // dot kernels' layout: NT, or a transposed broadcast operand copied reduction-major). With a
    // vector operand stored otherwise (NN, TN), computed, or a broadcast one read across the
    // reduction in place (TT over a short reduction), every packed kernel is a column kernel
    // that gathers k_pack-wide groups lane by lane from a staged panel: uint8 and int16
    // products in those layouts ran 1.6-3.6x slower at 256 rows and 12x at one row than
    // unpacked (AVX2 and AVX-512, apps/results/cpu/int_layouts_2026-11-30/).
    // The exception is a vector operand stored with the vectors innermost and the reduction next
    // (NN's B, `w(n, k)`): staged per task in that order at a constant pitch, each packed vector
    // is dense loads of k_pack rows interleaved (packed_in_natural_panel).
    if (!std::all_of(p.operands.begin(), p.operands.end(), [&](const ContractionOperand &o) {
            return read_densely_along_reduction(p, o) || o.reduction_invariant || packed_in_natural_panel(o);
        })) {
        return 1;
    }
    // From a natural-order panel, a 4-way 8-bit vector interleaves 4 rows byte by byte: LLVM
    // lowers Halide 14's shuffle of that load to one vpinsrb per byte (268 in a 16x4 kernel),
    // and uint8 x int8 NN with VNNI ran 0.16x float32 NN (Intel guest with AVX512-FP16,
    // apps/results/cpu/forms_int_vnni_2026-12-02/). Pairs interleave 16-bit words
    // (vpunpck/vpermw) and feed vpmaddwd, as on targets without VNNI.
    const bool natural_panel = std::any_of(p.operands.begin(), p.operands.end(),
                                           [](const ContractionOperand &o) { return packed_in_natural_panel(o); });
    const int pack = widest <= 8 && (!lim.dot_product_8bit || natural_panel) ? 2 : 32 / std::max(widest, 8);
    return *p.reduction_extent % pack == 0 ? pack : 1;
}

// Heuristic: a column kernel's tile reads the broadcast operand's rows for one reduction step from
// one cache line (its rows, at most a vector's length, are contiguous in that layout), a new
// line per step. Up to this many steps those lines stay in half of a 32 KiB L1 data cache across
// the tile's columns, so the operand is read in place: a batched product's transposed queries,
// `q(i, r, b)` over 64 steps, ran 1.6x faster in place than through the copy at T = 64 (and at
// T = 1 the copy was most of the time). A dense layer's transposed activations over 768 steps
// touch a new page per step and are copied.
constexpr int64_t kInPlaceBroadcastSteps = 256;

bool copied_reduction_major(const MatmulPattern &p, const ContractionOperand &o) {
    const auto same_func = [&](const ContractionOperand &q) { return q.func == o.func; };
    if (o.vector_arg >= 0 || o.computed || o.reduction_arg <= 0 ||
        std::count_if(p.operands.begin(), p.operands.end(), same_func) != 1) {
        return false;
    }
    std::optional<int64_t> steps = p.total_reduction_extent ? p.total_reduction_extent : p.cpu_reduction_extent();
    if (!steps) steps = p.family_reduction_max;
    return !steps || *steps > kInPlaceBroadcastSteps;
}

bool packed_in_natural_panel(const ContractionOperand &o) {
    return o.vector_arg == 0 && o.reduction_arg == 1 && !o.vector_gather && o.separable && !o.unit_stride_reduction;
}

bool packed_panel_load_dense(int pitch, int lanes, int pack) {
    // Halide 14 (FlattenNestedRamps) loads a vector whose lanes lie at constant offsets as one
    // dense load and a shuffle while the span is below 4 x the lanes (lanes x k_pack): `lanes`
    // plus (k_pack - 1) rows of `pitch` columns.
    return (int64_t)(pack - 1) * pitch + std::max(lanes, 1) < 4 * (int64_t)std::max(lanes, 1) * pack;
}

int packed_panel_tiles_max(int vectors, int pack) {
    // (packed_panel_load_dense with a pitch of `vectors * lanes * panel` columns: it holds while
    // vectors * panel * (k_pack - 1) < 4 * k_pack - 1.)
    int panel = 1;
    while (vectors * panel * 2 * (pack - 1) < 4 * pack - 1) panel *= 2;
    return vectors * panel * (pack - 1) < 4 * pack - 1 ? panel : 0;
}

bool read_densely_along_reduction(const MatmulPattern &p, const ContractionOperand &o) {
    return (o.unit_stride_reduction || copied_reduction_major(p, o)) && !o.computed;
}

bool gathered_along_reduction(const MatmulPattern &p, const ContractionOperand &o) {
    return o.vector_arg < 0 && o.vector_period == 0 && !o.unit_stride_reduction && o.reduction_arg > 0 &&
           !o.computed && !copied_reduction_major(p, o);
}

bool dot_kernels_apply(const MatmulPattern &p, int lanes) {
    const std::optional<int64_t> k = p.cpu_inner_reduction_extent();
    if (lanes < 4 || !k || *k % lanes != 0 || p.reduction_predicated) return false;
    // Packed kernels (k_pack > 1) sum groups of consecutive steps per lane: dense operands only.
    // (Asked of a target without the 4-way 8-bit instruction, whose pairs pack the most
    // contractions: conservative elsewhere.)
    const bool may_gather = packed_reduction_factor(p, CpuLimits{}) == 1;
    // An operand invariant along the reduction (a per-column scale) is one broadcast per output:
    // it does not stop the dot kernels (it did: a dense layer with its dequantization scale
    // inside the sum ran column kernels at T = 1, 2-7x slower; apps/results/cpu/probe_styles6/).
    return std::all_of(p.operands.begin(), p.operands.end(), [&](const ContractionOperand &o) {
        return read_densely_along_reduction(p, o) || (may_gather && gathered_along_reduction(p, o)) || o.reduction_invariant;
    });
}

std::optional<int64_t> reduction_estimate_for_dot_kernels(const MatmulPattern &p, int lanes) {
    const std::optional<int64_t> most = p.family_reduction_max;
    if (p.reduction_extent || p.estimated_reduction_extent || !p.type.is_float() || p.reduction.size() != 1 ||
        p.update_reductions.size() > 1 || !is_run_time_size(p.reduction[0].extent) || !most || *most <= 0) {
        return p.estimated_reduction_extent;
    }
    MatmulPattern estimated = p;
    estimated.estimated_reduction_extent = *most >= 64 ? *most / 64 * 64 : *most;
    return dot_kernels_apply(estimated, lanes) ? estimated.estimated_reduction_extent : std::nullopt;
}

bool gathered_rows_copied(const MatmulPattern &p) {
    return dot_kernels_gather(p) && std::none_of(p.operands.begin(), p.operands.end(), [&](const ContractionOperand &o) {
               return gathered_along_reduction(p, o) && !o.via.empty() && !o.via_plain_copy;
           });
}

bool operand_read_twice(const MatmulPattern &p) {
    for (size_t a = 0; a < p.operands.size(); a++) {
        for (size_t b = a + 1; b < p.operands.size(); b++) {
            if (p.operands[a].func == p.operands[b].func) return true;
        }
    }
    return false;
}

bool dot_kernels_gather(const MatmulPattern &p) {
    return std::any_of(p.operands.begin(), p.operands.end(),
                       [&](const ContractionOperand &o) { return gathered_along_reduction(p, o); });
}

}  // namespace diet
