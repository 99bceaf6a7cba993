// The register-tile intensity heuristic (space/MicroKernel.h): the analytic ranking of micro-kernels
// used before (and besides) the learned cost model.
#include "space/MicroKernel.h"
#include "common/Errors.h"
#include "space/GpuSpace.h"

#include <algorithm>
#include <cmath>

namespace diet {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Recomputation factor of covering `extent` with tiles of `tile` shifted inwards: outputs computed per useful output when tiles of `tile` cover `extent` (ShiftInwards recomputes).
double redundancy(int64_t extent, int64_t tile) {
    if (extent <= 0 || tile <= 1) return 1.0;
    int64_t tiles = (extent + tile - 1) / tile;
    return (double)(tiles * tile) / (double)extent;
}

// Heuristic: a vector gathered lane by lane costs as many dense vector loads as it has lanes (a
// scalar load and an insert per lane, or a hardware gather of about that cost).
// - Dot-product kernels gathering their row operand (gathered_along_reduction): checked on
//   attention scores with transposed queries (192 heads of 64, AVX2, 8 lanes; interleaved,
//   apps/results/cpu/lhs_transposed_small/): the dot kernels win up to T = 6-12, tie or lose
//   by up to 15% at T = 12-22, and lose from T = 24; with this cost the dispatch switches at T = 23
//   (at half this cost, T = 38). Since tiles of several rows read a copy per row tile (its gathers
//   shared by the column tiles, heuristic_score), the switch is at T = 35, and the dot kernels
//   with the copy ran 1.5-2x the column kernels at T = 26-34.
// - Column kernels whose vector operand is strided along the vectors (OperandMotion::gathered: a
//   strided convolution): a 3x3 convolution over 16 channels into 32, 64 x 64 outputs, 2 images,
//   AVX-512 (16 lanes), by hand: with a run-time stride of 3, 1 vector x 16 rows 0.62-0.72 ms,
//   2 x 8 0.70, 2 x 7 0.80, 4 x 4 1.49; at constant strides 2 and 3 the same order (4 x 4
//   1.8-2.1x and 2.4-2.5x 1 x 16's time; dense, 4 x 4 is as fast as 1 x 8). With this cost the
//   tiles rank about in that order (at half of it too); apps/results/cpu/gathered_vector_operand_2026-12-03/.
double gathered_vector_loads(int lanes) { return std::max(1.0, (double)lanes); }

// Heuristic: where every operand moves with the vectors (MatmulExtents::vector_operands_only: the
// batch stored innermost), each load of an operand reads a run of vectors x lanes elements, the
// next run a row or reduction step away: a run shorter than a cache line uses that fraction of
// the line, whose rest another task reads later (from further away); a staged kernel's copy reads
// its source in the same runs. Intensity is scaled by it, staged or not (fitted on both leaves).
// Attention in numpy's order (192 heads of 64, AVX2, 32-byte vectors): 2 x 2 x 2 tiles of two
// vectors ran 1.0-2.5x as fast as 1 x 3 x 4 tiles of one at T = 1-128 (0.89x once, at T = 43).
constexpr int kCacheLineBytes = 64;
double cache_line_use(int vectors, int lanes, int operand_bytes) {
    return std::min(1.0, (double)vectors * lanes * operand_bytes / kCacheLineBytes);
}

// Heuristic: a column kernel reading in place an operand whose reduction steps lie a page or more
// apart (the in-place alternatives of MatmulExtents::unstaged_alternatives) runs at
// this fraction of its tile's intensity: each step of a tile loads from another page, past the
// prefetchers. At every shape of such a family, the shapes whose steps are less than a page
// apart included (fitted so). Fitted on attention in numpy's order (192 heads of 64, AVX2 guest): against the
// staged kernels' copy cost (rows / (rows + 48) below), the measured in-place/staged speed ratios
// at T = 8-128 (2.0 at T = 8 to 0.37 at T = 128) give 0.27-0.30 (at T = 1-5, 0.13-0.18: in place
// still wins there); the dispatch then switches at T = 19 (measured crossover T = 16-32,
// apps/results/cpu/dense_vector_moves_2026-11-29/README.md).
constexpr double kInPlacePageStridedSpeed = 0.28;

// Heuristic: a packed column kernel reading its vector operand from a natural-order panel
// (MatmulExtents::packed_natural_panel) runs at this fraction of k_pack times the unpacked
// kernel's speed: each packed vector costs an interleaving shuffle and a widening, shared by the
// tile's rows. From a hand-scheduled uint8 x int8 NN dense (K = 768, N = 2304, 256 rows, 2 cores,
// AVX2; a session's experiment whose files were not kept): float32 7.67 ms, unpacked 10.98 ms,
// packed by 2 from a natural panel 6.85 ms, i.e. 1.6x the unpacked kernel = 0.8 x k_pack. Every
// column kernel of such a contraction takes the factor, so it does not reorder them; it scales
// the prior the cost model's features carry (features/KernelFeatures.cpp). forms_bench on the
// AVX-512 guest: apps/results/cpu/forms_int_nn_natural_panel_2026-12-02/.
constexpr double kPackedNaturalPanelSpeed = 0.8;

// Loads per reduction step of a rows x vecs register tile, operand by operand
// (MatmulExtents::operand_moves). The canonical product: vecs + rows; a batched matrix-vector
// product (the matrix moves with both): vecs x rows + rows; a depthwise convolution (the weights
// move with the vectors only): vecs x rows + vecs, so its taps reuse the weights across rows.
// A vector of a gathered operand (OperandMotion::gathered) costs gathered_vector_loads(lanes).
double operand_loads(const MatmulExtents &e, double vecs, int rows, int lanes) {
    double loads = 0;
    for (const OperandMotion &m : e.operand_moves) {
        const double vector_cost = m.gathered ? gathered_vector_loads(lanes) : 1.0;
        loads += (m.with_vectors ? vecs * vector_cost : 1.0) * (m.with_rows ? rows : 1);
    }
    return std::max(1.0, loads);
}

double busy_fraction(int64_t units, int workers) {
    if (units <= 0) return 0.0;
    int64_t waves = (units + workers - 1) / workers;
    return (double)units / (double)(waves * workers);
}

}  // namespace


double kernel_padding_efficiency(const MicroKernel &k, const std::vector<int64_t> &ext) {
    const std::vector<TileVariant> variants = tile_variants(k);  // fitting_variant returns a reference into it
    const TileVariant &t = k.gpu ? fitting_variant(variants, ext[0], ext.size() > 1 ? ext[1] : 1) : fitting_variant_at(variants, ext);
    return 1.0 / (redundancy(ext[0], t.cols) * (ext.size() > 1 ? redundancy(ext[1], t.rows) : 1.0) *
                  (ext.size() > 2 ? redundancy(ext[2], t.depth) : 1.0));
}

double heuristic_score(const MicroKernel &k, const MatmulExtents &e, int workers) {
    const std::vector<TileVariant> variants = tile_variants(k);
    double total = 0;
    for (const auto &ext : e.host_extents) {
        const int64_t cols = ext[0], rows = ext.size() > 1 ? ext[1] : 1;
        const TileVariant &t = k.gpu ? gpu_variant_for(variants, ext, workers) : fitting_variant_at(variants, ext);
        int64_t outer = 1;
        for (size_t d = 2; d < ext.size(); d++) outer *= d == 2 ? ceil_div(ext[d], t.depth) : ext[d];
        double intensity, busy;
        if (!k.gpu && k.cpu.dot) {
            const CpuKernel &c = k.cpu;
            // Vector FMAs per loaded vector (every lane useful), less the reduction across lanes
            // each tile ends with (about log2(lanes) + 2 steps per accumulator).
            // Tiles of several rows read the gathered row operand from a copy made per row tile
            // (schedule/OperandStaging.h copy_gathered_rows): its gathers are shared by the
            // column tiles of a task's panel that read those rows.
            const double shared = (double)std::min<int64_t>(ceil_div(cols, std::max(1, t.cols)), c.panel_tiles);
            const double row_load = !e.dot_gathered_rows ? 1.0
                                    : t.rows > 1 && e.dot_gathered_rows_copied ? 1.0 + gathered_vector_loads(c.vector_width) / shared
                                                 : gathered_vector_loads(c.vector_width);
            // (Where the column operand also moves with the rows, vector_operand_per_row, its
            // vectors serve one row each; counting that picked one-row tiles, which ran a batched
            // matrix-vector product up to 1.6x slower than these: left out.)
            intensity = (double)t.cols * t.rows / (t.cols + t.rows * row_load);
            const double steps = (double)e.reduction_max / (c.vector_width * c.k_pack);
            intensity *= steps / (steps + std::log2((double)c.vector_width) + 2.0);
            // Nothing is staged: each tile streams its operand rows and columns from L2 or
            // further, which costs more as the rows grow (a task's rows no longer stay in cache).
            // Calibrated on dense (K = 768) and attention scores (K = 64) at T = 1..64 on an
            // AVX-512 VM: ~0.8 of the column kernel's peak, half of it at 1024 rows.
            // Packed kernels stream k_pack times fewer bytes per step (narrow integers): the same
            // decay at k_pack times the rows (uint8 at T = 128 of that dense: 2.5x the column kernel).
            // A task streams the row operand once past its panel of columns, so wider panels
            // stream it fewer times: the decay scales with (16 / panel columns)^(1/4), fitted on
            // a flattened dense layer (K = 768, 2304 columns, AVX2 guest, tuning logs of
            // 2026-11-29): at T = 119-128, 64-column panels ran 1.2-1.4x faster than 16 or 4.
            const int64_t panel_cols = (int64_t)t.cols * c.panel_tiles;
            const double streams = std::pow(16.0 / (double)std::min<int64_t>(panel_cols, cols), 0.25);
            intensity *= 0.8 / (1.0 + (double)rows * streams / (2048.0 * c.k_pack));
            // Packed: each instruction sums k_pack steps per lane, with dense loads of both operands.
            intensity *= c.k_pack;
            busy = busy_fraction((cols + panel_cols - 1) / panel_cols * outer, workers);
        } else if (!k.gpu) {
            const CpuKernel &c = k.cpu;
            // Vector FMAs per loaded operand, scaled down for scalar tiles. Without a broadcast
            // operand (MatmulExtents::vector_operands_only) every operand is a vector per row
            // and per depth index of the tile.
            double vecs = std::max(1, t.vectors);
            const double loads = e.vector_operands_only || t.depth > 1 ? vecs * (t.rows + t.depth)
                                 : !e.operand_moves.empty() ? operand_loads(e, vecs, t.rows, t.vectors ? t.vector_lanes : 1)
                                                            : vecs + t.rows;
            intensity = vecs * t.rows * t.depth / loads / (t.vectors ? (double)c.vector_width / t.vector_lanes : c.vector_width);
            if (e.vector_operands_only) {
                intensity *= cache_line_use(std::max(1, t.vectors), t.vectors ? t.vector_lanes : 1, e.operand_bytes);
            }
            int64_t panel_cols = (int64_t)t.cols * c.panel_tiles;
            busy = busy_fraction((cols + panel_cols - 1) / panel_cols * outer, workers);
            // Small bonuses: longer panels reuse the broadcast operand, unrolling saves loop
            // overhead up to 4 steps; 8 steps cost a little. Fitted on the committed datasets'
            // column kernels that differ in k_unroll alone (models/data/cpu_*.jsonl.gz): time
            // ratios in geomean 2/1 0.986, 4/2 0.992, 8/4 1.021 (8 was over 10% slower in 33 of 249
            // pairs, faster in 18); transposed queries in batched scores ran 1.5x slower at
            // T = 128 with 8 than with 4 (apps/results/cpu/k_unroll_heuristic_2026-11-29/).
            intensity *= 1.0 + 0.02 * std::log2((double)c.panel_tiles);
            intensity *= (1.0 + 0.01 * std::log2((double)std::min(c.k_unroll, 4))) / (c.k_unroll > 4 ? 1.02 : 1.0);
            // A staged panel is copied (transposed) once per task and reused by every row: with
            // few rows the copy dominates (measured: a dense layer's column kernels run at 0.22 of
            // their peak at 16 rows, 0.72 at 128, 0.91 at 336; ~48 rows' worth of work per copy).
            // A panel of an operand that moves with the rows serves one row (the same heuristic,
            // one row's work per copy).
            if (c.stage_strided) intensity *= e.vector_operand_per_row ? 1.0 / 49.0 : (double)rows / (rows + 48.0);
            else if (e.unstaged_alternatives) intensity *= kInPlacePageStridedSpeed;
            // Packed column kernels do k_pack steps per instruction too, but their vector operand
            // is k_pack-wide groups a row apart, loaded one lane at a time and shuffled together.
            // Calibrated at T = 128 of a BERT-sized dense (K = 768, 2 cores, AVX-512 with VNNI):
            // 0.39 (uint8) and 0.35 (int16) of the packed dot kernel's speed.
            // From a natural-order panel (MatmulExtents::packed_natural_panel) each packed vector
            // is dense loads and one interleaving shuffle, shared by the tile's rows
            // (kPackedNaturalPanelSpeed).
            if (c.k_pack > 1) intensity *= (e.packed_natural_panel ? kPackedNaturalPanelSpeed : 0.37) * c.k_pack;
        } else {
            intensity = 2.0 * t.reg_x * t.reg_y / (t.reg_x + t.reg_y);
            if (k.cuda.staged()) intensity *= staged_tile_fit(t.reg_x, t.reg_y, k.cuda.k_tile, e.gpu_jit_registers);
            int64_t blocks = ((cols + t.cols - 1) / t.cols) * ((rows + t.rows - 1) / t.rows) * outer;
            // One block per SM hides no latency: count four resident blocks per SM, and warps.
            busy = busy_fraction(blocks, workers * 4) * std::min(1.0, t.threads_x * t.threads_y / 128.0);
            intensity *= 1.0 + 0.01 * std::log2((double)k.cuda.k_unroll);
        }
        total += intensity * busy /
                 (redundancy(cols, t.cols) * redundancy(rows, t.rows) * (ext.size() > 2 ? redundancy(ext[2], t.depth) : 1.0));
    }
    return total / std::max<size_t>(1, e.host_extents.size());
}

MicroKernel choose_by_heuristic(const std::vector<MicroKernel> &candidates, const MatmulExtents &e, int workers) {
    internal_assert(!candidates.empty()) << "Diet: empty micro-kernel space\n";
    const MicroKernel *best = &candidates[0];
    double best_score = -1;
    for (const MicroKernel &k : candidates) {
        double s = heuristic_score(k, e, workers);
        if (s > best_score * (1 + 1e-9)) {  // ties keep the earlier (smaller) kernel: deterministic
            best_score = s;
            best = &k;
        }
    }
    return *best;
}

}  // namespace diet
