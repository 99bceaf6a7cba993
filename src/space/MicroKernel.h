// Micro-kernels: shape-independent descriptions of how a matmul-like stage is tiled, the
// candidates the hardware limits allow, and the analytic heuristic that ranks them until the
// learned cost model exists.
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "space/Hardware.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace diet {

// CPU: each parallel task owns a panel of `panel_tiles` register tiles along the output's
// innermost dimension; a register tile is `vectors` SIMD vectors wide and `rows` rows tall and
// accumulates over the whole reduction, `k_unroll` steps unrolled.
//
// With `dot`, the kernel is vectorized along the reduction instead (dot products): a register
// tile is `vectors` output columns (scalars) by `rows` rows, each accumulating a vector of
// `vector_width` partial sums over consecutive reduction steps (an rfactor intermediate), reduced
// across lanes once per tile. Every operand is read with dense vector loads along the reduction
// and nothing is copied, so outputs with few rows or columns (a dense layer at T = 1, attention
// scores at small T) keep whole vectors busy; only for a constant reduction extent that is a
// multiple of the lanes, and operands contiguous along it.
//
// With `k_pack` > 1 (integer contractions that widen narrow operands into an int32 accumulator),
// each accumulator lane sums `k_pack` consecutive reduction steps per instruction: the reduction
// is split by k_pack and that inner loop vectorized as a vector reduction, which Halide lowers to
// the target's multiply-add-adjacent instructions (vpdpbusd with AVX512-VNNI for 8-bit operands,
// vpmaddwd for 16-bit ones, or for 8-bit ones without VNNI): 2-4x the multiply-adds of a float32
// FMA per instruction. The operands are read reduction-innermost (the k_pack steps of one lane
// adjacent in memory): the broadcast one as one k_pack-wide scalar, the vector one as k_pack-wide
// groups; operands stored otherwise are copied reduction-major (see schedule/OperandStaging.h).
//
// With `depth` > 1 (only where every operand moves with the vectors, MatmulPattern::depth_dim: the
// batch stored innermost), the register tile also spans `depth` indices of the host's depth
// dimension (the kernel's third): vectors x rows x depth accumulators, each step loading one
// operand's vectors per row and the other's per depth index, so both are reused. Without it such a
// tile reuses only one operand and loads about one vector per multiply-add.
struct CpuKernel {
    int vector_width = 1;   // lanes per SIMD vector
    int vectors = 1;        // SIMD vectors per register-tile row (dot: output columns per tile)
    int rows = 1;           // register-tile rows
    int panel_tiles = 1;    // register tiles per parallel task along the innermost dimension
    int k_unroll = 1;       // reduction steps unrolled (only when the reduction extent is a multiple)
    bool stage_strided = false;  // copy operands read across the vector dimension into a panel
    bool dot = false;       // vectorized along the reduction (above)
    int k_pack = 1;         // reduction steps per accumulator lane and instruction (above)
    int depth = 1;          // register-tile indices along the depth dimension (above)
    int tile_cols() const { return dot ? vectors : vector_width * vectors; }
};

// GPU: a block of threads_x * threads_y threads; each thread owns a reg_x * reg_y tile of
// accumulators in registers. With k_tile > 0 the kernel is *staged*: the block is one warp
// (threads_x = warp lanes, threads_y = 1), the reduction advances k_tile steps at a time, and
// each step's operand tiles are copied into shared memory by all lanes (coalesced: lanes walk
// each operand's innermost dimension), then read from there into registers. k_tile = 0 is the
// unstaged kernel (operands read from global memory inside the reduction loop).
struct GpuKernel {
    int threads_x = 1, threads_y = 1;
    int reg_x = 1, reg_y = 1;
    int k_unroll = 1;
    int k_tile = 0;
    bool staged() const { return k_tile > 0; }
    int block_cols() const { return threads_x * reg_x; }
    int block_rows() const { return threads_y * reg_y; }
};

struct MicroKernel {
    bool gpu = false;
    CpuKernel cpu;
    GpuKernel cuda;
    std::string to_string() const;
    bool operator==(const MicroKernel &o) const { return to_string() == o.to_string(); }
};

// Every field, for the tuning log's dispatch decisions; from_json is a user_error on a malformed object.
nlohmann::json kernel_to_json(const MicroKernel &k);
MicroKernel kernel_from_json(const nlohmann::json &j);

// What the space needs to know about one matmul-like stage over the training shapes.
// The reduction's points (product of its extents) as a function of the host's extents, for what
// the schedule computes at run time (the task grain): points = scale * extent[kernel_dim] + offset,
// exact on every training shape (bmm_nn's reduction over T is its rows). kernel_dim < 0: the
// constant `offset` (a constant reduction; or, when no host extent fits, the geometric mean over
// the training shapes, a heuristic).
struct ReductionModel {
    int kernel_dim = -1;  // in the kernel's order (MatmulPattern::kernel_dims)
    int64_t scale = 0, offset = 64;
    int64_t at(const std::vector<int64_t> &kernel_extents) const;
};

// How one operand of a contraction moves with a CPU register tile (operand_motion).
struct OperandMotion {
    bool with_vectors = false;  // it has an argument that moves with the vectors
    bool with_rows = false;     // and one that moves with the tile's rows
    // Its vectors step by a uniform stride other than 1 and -1 (ContractionOperand::vector_gather,
    // vector_stride_uniform, vector_reversed: a strided convolution's in(x * ST + r.x, ...), at a
    // run-time or constant stride): each is a gather. Not an index computed per point (clamped,
    // divided, looked up): a transposed convolution's in((x + 1 - r.x) / S) ran 5-7x slower in
    // tiles of one vector x 8 rows than of 3 x 8 (its select, division and gather written once per
    // row of the unrolled tile), apps/results/cpu/gathered_vector_operand_2026-12-03/.
    bool gathered = false;
};

struct MatmulExtents {
    std::vector<std::vector<int64_t>> host_extents;  // per training shape, per host dimension
    int64_t reduction_max = 1;                        // largest reduction extent over the family
    std::vector<int64_t> reduction_points;            // per training shape (empty: not evaluable)
    bool vector_operands_only = false;                // MatmulPattern::depth_dim is set: no broadcast operand
    bool dot_gathered_rows = false;                   // dot kernels gather their row operand (dot_kernels_gather)
    bool dot_gathered_rows_copied = false;            // in tiles of several rows, from a copy (gathered_rows_copied)
    // An operand read along the vectors also moves with the tile's rows (vector_operand_moves_with_rows):
    // a register tile reuses it across nothing, and a staged panel of it serves one row.
    bool vector_operand_per_row = false;
    // Per operand read in the reduction: how it moves with the vectors and with the register
    // tile's rows (operand_motion). A register tile of `rows` x `vecs` loads, per reduction step,
    // vecs x rows of one that moves with both, vecs of one that moves with the vectors only (a
    // depthwise convolution's weights, shared by the rows), rows of a broadcast one; a vector of
    // one gathered along the vectors costs its lanes (KernelHeuristic.cpp gathered_vector_loads).
    std::vector<OperandMotion> operand_moves;
    // unstaged_alternatives (below): the space holds in-place column kernels beside the staged ones.
    bool unstaged_alternatives = false;
    // Packed kernels stage a vector operand in its natural order (packed_in_natural_panel): dense
    // loads and a shuffle per packed vector, where other packed column kernels gather.
    bool packed_natural_panel = false;
    int operand_bytes = 4;  // of the widest operand's elements (4 where none is known)
    // The vector dimension's (kernel dimension 0) least extent over the training shapes and the
    // family's smallest shape (every variable at its least value); 0 where unknown.
    int64_t vector_extent_min = 0;
    // GPU: the register cap the kernels run under (GpuLimits::jit_registers), for staged_tile_fit.
    int gpu_jit_registers = kHalideJitRegisters;
};
// Some operand that moves with the vectors also moves with the register tile's rows (a batched
// matrix-vector product, y(n, b) = sum_k W(k, n, b) x(k, b), whose rows are the batch): each of its
// values is read once, so no tile reuses it and a copy of it costs a pass over it for nothing.
bool vector_operand_moves_with_rows(const MatmulPattern &p);
// Per operand read in the reduction (reduction-invariant ones left out); empty with a depth dimension.
std::vector<OperandMotion> operand_motion(const MatmulPattern &p);
// Some operand's vectors are gathers (OperandMotion::gathered): the heuristic ranks its kernels,
// not the shipped model (its training forms have none, its features count loads, not gathers).
bool any_gathered_operand(const MatmulExtents &e);
// Such an operand is stored across the vectors, so a column kernel would copy it into a panel
// (stage_strided) that serves one row: a pass over it for nothing. Where the dot-product kernels
// apply (they read it in place along the reduction) the space holds only those (a space rule,
// whatever ranks the kernels: the heuristic, the shipped model or measurements).
bool staged_panel_serves_one_row(const MatmulPattern &p);
// Whether the space holds both staged and in-place column kernels of this contraction, one
// choice per shape: a deep contraction (the batch stored innermost, MatmulPattern::depth_dim)
// whose operands are page-strided but not strided across the vectors, with one unfused
// reduction. Staging wins at large extents (the copy is amortized over every row and depth
// index), in place at small ones (192 heads in numpy's order, T = 1-16: 1.1-6x). An in-place
// leaf in a dispatch with staged ones runs its update in an rfactor intermediate that reads the
// operands themselves (schedule/CpuTiling.h tile_acc_direct): Halide 14's operand wrappers are
// Func-level, one compute_at for every specialization. (A candidate measured alone runs as a plain
// in-place kernel; in a dispatch with staged leaves the same kernel adds that intermediate's zero
// and add passes per register tile: the measurements and the tuning log do not tell them apart.)
bool unstaged_alternatives(const MatmulPattern &p, const MatmulExtents &e);
// What it asks of the pattern alone (a deep contraction, nothing strided across the vectors, one
// unfused reduction): where a dispatch may mix in-place and staged column leaves.
bool staging_optional(const MatmulPattern &p);
// Fitted on the training shapes' extents (see ReductionModel); the schedule's old estimate (64 per
// symbolic reduction variable) when the reduction cannot be evaluated at the shapes.
ReductionModel fit_reduction_model(const MatmulPattern &p, const MatmulExtents &e);

MatmulExtents matmul_extents(const MatmulPattern &p, const ShapeFamily &fam, const std::vector<Shape> &shapes);
// `e` at one shape (host extents in the kernel's order), the pattern's flags kept: what the
// heuristic scores per shape.
MatmulExtents extents_at_one_shape(const MatmulExtents &e, const std::vector<int64_t> &host_extents);
// The reduction points of every contraction update at `s`; unset when one is not evaluable.
std::optional<int64_t> reduction_points_at(const MatmulPattern &p, const Shape &s);
// Heuristic: the most reduction points over the family, taken at the largest value of every shape
// variable (extents grow with them) and at `shapes`; unset when one is not evaluable.
std::optional<int64_t> family_reduction_max(const MatmulPattern &p, const ShapeFamily &fam, const std::vector<Shape> &shapes);
// Heuristic: the extent a float contraction's one reduction variable, sized at run time with no
// input estimate to bind it (a Param: RDom(0, D)), has its kernels enumerated for, where the
// dot-product kernels (`lanes` wide) then apply: the family's largest (family_reduction_max),
// rounded down to a multiple of 64 from 64 (every lane count and k unrolling divides it). Those
// kernels run under specialize(extent % step == 0), a general column kernel otherwise
// (schedule/ApplyMatmul.cpp). Elsewhere the pattern's own estimate, or none: a reduction no dot
// kernel can read (attention's context over T) keeps the column kernels it had, unspecialized.
std::optional<int64_t> reduction_estimate_for_dot_kernels(const MatmulPattern &p, int lanes);

std::vector<MicroKernel> enumerate_cpu_kernels(const MatmulPattern &p, const MatmulExtents &e, const CpuLimits &lim);
// Whether the space holds dot-product kernels for this contraction (CpuKernel::dot): every
// operand is read densely along the reduction (in place or from a reduction-major copy), or is
// a broadcast operand read in place across it (gathered_along_reduction).
bool dot_kernels_apply(const MatmulPattern &p, int lanes);
// The broadcast operand read in place with another dimension innermost than the reduction (a
// transposed A over a short reduction, q(i, d, b): not copied_reduction_major): the dot-product
// kernels load each vector of its reduction steps lane by lane (Halide 14 scalarizes a load of a
// run-time stride), a cost the heuristic counts (MatmulExtents::dot_gathered_rows). At small
// outputs that is still cheaper than the column kernels' narrowest tiles: one chain of dependent
// multiply-adds per output over the whole reduction.
bool gathered_along_reduction(const MatmulPattern &p, const ContractionOperand &o);
// Consecutive reduction steps of the operand are adjacent in memory: stored so, or read through
// the reduction-major copy (copied_reduction_major); not computed.
bool read_densely_along_reduction(const MatmulPattern &p, const ContractionOperand &o);
// A vector operand stored with the vector dimension innermost and the reduction next (NN's B,
// `w(n, k)`): a packed kernel (CpuKernel::k_pack) stages it per task in that order, its storage
// bounded to the task's columns (a constant pitch), and loads each packed vector as dense runs of
// k_pack rows interleaved (a shuffle), not lane by lane from a reduction-major panel.
bool packed_in_natural_panel(const ContractionOperand &o);
// The largest panel (CpuKernel::panel_tiles, a power of two) whose natural-order packed panel of
// `vectors` vectors per tile keeps every packed load a dense load and a shuffle; 0: none.
int packed_panel_tiles_max(int vectors, int pack);
// Whether a packed vector of `lanes` columns read from a natural-order panel of `pitch` columns
// (k_pack rows of it) is one dense load and a shuffle for Halide 14 (its span below 4 x its
// lanes, FlattenNestedRamps), not k_pack-wide gathers lane by lane.
bool packed_panel_load_dense(int pitch, int lanes, int pack);
// Some operand is gathered_along_reduction.
bool dot_kernels_gather(const MatmulPattern &p);
// One Func is read as two of the operands (a Gram matrix: a(k, i) * a(k, j)).
bool operand_read_twice(const MatmulPattern &p);
// Whether the dot-product kernels' tiles of several rows read every gathered operand from a copy
// per row tile (schedule/OperandStaging.h copy_gathered_rows): each is read in place or through
// plain copies only (ContractionOperand::via_plain_copy).
bool gathered_rows_copied(const MatmulPattern &p);
// The broadcast operand (no vector argument) stored with another dimension innermost than the
// reduction (a transposed A, `a(m, k)`), read in that role alone, over more reduction steps than
// a tile's lines of it keep in L1 (or an unknown number): every CPU kernel reads it from a
// reduction-major copy made once per call (schedule/OperandStaging.h), so it counts as
// contiguous along the reduction for the dot-product kernels too. Over fewer steps it is read in
// place (column kernels only).
bool copied_reduction_major(const MatmulPattern &p, const ContractionOperand &o);
// CpuKernel::k_pack for this contraction: 32 / the widest operand's bits (4 for 8-bit, 2 for 16-bit
// operands; 2 for 8-bit ones where the target has no 4-way 8-bit dot product: lim.dot_product_8bit) when it accumulates integers of 8 or 16 bits into a 32-bit integer over one reduction
// variable of a constant extent that is a multiple of it (no tail: the compute loop stays
// guard-free), every operand walks the reduction along one argument and is read densely along
// it (in place or through the reduction-major copy, not computed), no 16-bit operand is
// unsigned and the reduction domain has no predicate; 1 otherwise. When it is
// above 1, every CPU kernel of the contraction packs (a dispatch's leaves share operand staging).
int packed_reduction_factor(const MatmulPattern &p, const CpuLimits &lim);
std::vector<MicroKernel> enumerate_gpu_kernels(const MatmulPattern &p, const MatmulExtents &e, const GpuLimits &lim);

// How many micro-kernel instances (CPU parallel tasks, GPU blocks) cover an output of these extents
// (per host dimension), and the fraction of the computed points that are not recomputed because the
// last tile was shifted inwards (DietCode's f_pad for ShiftInwards tiles).
int64_t kernel_instances(const MicroKernel &k, const std::vector<int64_t> &extents);
double kernel_padding_efficiency(const MicroKernel &k, const std::vector<int64_t> &extents);

// The named analytic heuristic ("register-tile intensity heuristic"): predicted throughput of
// a kernel at one shape = FMAs per operand load of its register tile, times the fraction of
// cores/SMs busy, divided by the work it recomputes when tiles are shifted inwards. The score
// of a kernel is the mean over the training shapes. Higher is better.
double heuristic_score(const MicroKernel &k, const MatmulExtents &e, int cores_or_sms);
MicroKernel choose_by_heuristic(const std::vector<MicroKernel> &candidates, const MatmulExtents &e,
                                int cores_or_sms);

// One tile shape a kernel uses for outputs at least `cols` x `rows` large. A kernel is applied as
// a chain of variants, largest first, ending with 1 x 1, selected by specialize() on the output's
// extents: every variant's tiles fit, so no shape needs a guard (see schedule/ApplyVariants.cpp).
struct TileVariant {
    int cols = 1, rows = 1;          // output tile (CPU: register tile; GPU: block tile)
    int threads_x = 1, threads_y = 1;  // GPU only
    int reg_x = 1, reg_y = 1;          // GPU only: per-thread accumulators
    int vectors = 1;                   // CPU only: SIMD vectors per tile row (0: scalar)
    int vector_lanes = 0;              // CPU only: lanes of those vectors (narrower than the kernel's for small outputs)
    bool lanes = false;                // GPU staged only: threads_x is a loop over warp lanes
    int depth = 1;                     // CPU only: indices along the depth dimension (CpuKernel::depth)
};
std::vector<TileVariant> tile_variants(const MicroKernel &k);
// The task grain heuristic of the CPU schedule: the iterations of the parallel loop (a panel of
// panel_tiles tiles along the vectors, over every row, at one batch index) grouped into one
// thread-pool task, enough for kMinTaskFmas multiply-adds, at most every iteration. Computed at run
// time from the output's extents (schedule/TaskGrain.h); this is the same rule on known extents
// (in the kernel's order). Below it, a task spends more time in the thread pool's lock than
// computing: 192 heads of a T = 1 batch_matmul took 7x longer on 2 threads than on 1. 128K
// multiply-adds (a few microseconds) measured best among 8K..2M on batch_matmul at T = 5..128
// (2-core AVX-512 host); a heuristic, independent of the core count.
constexpr int64_t kMinTaskFmas = 131072;
// A task spans the depth dimension (schedule/CpuTiling.cpp): a deep tile's task, and a staged deep
// kernel's in every variant (its flat ones too: the operands are then copied once per panel).
inline bool task_spans_depth(const TileVariant &t, const CpuKernel &k) {
    return t.depth > 1 || (k.depth > 1 && k.stage_strided);
}
int64_t cpu_task_grain(const TileVariant &t, const CpuKernel &k, const std::vector<int64_t> &kernel_extents,
                       int64_t reduction_points);
// Heuristic: a dot-product kernel gathering its row operand lane by lane in place
// (gathered_along_reduction: transposed queries) issues a scalar load per multiply-add, each from
// a cache line of its own, where a dense kernel issues one vector load per `lanes` of them: its
// task grain counts each multiply-add `lanes` times, so that a small output's few loads spread
// over the cores. (The features' grain, cpu_task_grain, does not: the shipped model has not seen
// these kernels, the heuristic ranks them.)
inline int64_t gathered_fma_cost(const CpuKernel &k) { return std::max(1, k.vector_width); }
// The reduction extent assumed where nothing better is known: constant extents, 64 per symbolic one.
int64_t schedule_reduction_estimate(const MatmulPattern &p);

// The first variant that fits an output of extents cols x rows (x depth, for CpuKernel::depth).
const TileVariant &fitting_variant(const std::vector<TileVariant> &v, int64_t cols, int64_t rows, int64_t depth = 1);
// The same, from extents in the kernel's order (the depth dimension third).
const TileVariant &fitting_variant_at(const std::vector<TileVariant> &v, const std::vector<int64_t> &kernel_extents);

// GPU: a variant with a narrower one of the same rows after it (not the single-output fallback)
// is taken only where its blocks give every SM kMinGpuWarpsPerSm warps: an SM with a few warps
// hides no latency. Measured on an H100 (dense, one-warp blocks): 36-72 blocks of 128 x 8 outputs
// at T = 1..8 took 143-150 us, 144-1152 blocks of 32 x 8 outputs 23-41 us; 432 blocks of 128 x 8
// at T = 12, 155 us. Variants of fewer rows are not chosen this way: they re-read the operand that
// moves with the columns once per row (128 x 1 at T = 2: 171 us). A heuristic. ApplySchedule
// applies it as a run-time condition; gpu_variant_for is the same rule on known extents.
constexpr int kMinGpuWarpsPerSm = 8;
bool narrower_variant_follows(const std::vector<TileVariant> &v, size_t i);
int64_t min_gpu_blocks(const TileVariant &t, int sm_count);
// extents: the output's, kernel columns first, then rows, then batch dimensions.
const TileVariant &gpu_variant_for(const std::vector<TileVariant> &v, const std::vector<int64_t> &extents, int sm_count);

}  // namespace diet
