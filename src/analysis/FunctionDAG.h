// The pipeline as Diet sees it: one node per Func with its stages, loop variables and
// producer/consumer edges, plus the patterns the micro-kernel space is built for.
// Pure analysis: nothing here changes a schedule.
#pragma once

#include "Halide.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace diet {

// The value of an Expr that simplifies to an integer constant.
std::optional<int64_t> constant_value(const Halide::Expr &e);

// Visits a definition's values, arguments and predicate with Halide's lets substituted: an inline
// reduction's body is CSE'd (sum(a(x + r.x) * b(x + r.x)) reads both at a let-bound `t`), and
// an analysis of the coordinates a Func is read at must see `x + r.x`, not `t`.
void accept_without_lets(const Halide::Internal::Definition &d, Halide::Internal::IRVisitor *v);

struct LoopVar {
    std::string name;
    Halide::Expr min, extent;  // defined for reduction variables only
    bool is_rvar = false;
};

struct StageNode {
    int index = 0;                // 0: the pure definition; k: update k-1
    std::vector<LoopVar> loops;   // Halide's loop order, innermost first (no __outermost)
    // Funcs the definition names but its simplified form no longer reads (analysis/VanishingReads.h):
    // such a stage is never specialized (schedule/ScheduleWriter.h).
    std::set<std::string> vanishing_reads;
    std::vector<std::string> pure_vars() const;
    std::vector<std::string> rvars() const;
};

// A producer read inside a matmul-like reduction.
struct ContractionOperand {
    std::string func;     // the Func called (an input's wrapper such as "x_im", or any Func)
    // The Funcs inlined into acc's summand through which it is read, outermost first (the last
    // one calls it); empty when acc calls it.
    std::vector<std::string> via;
    bool via_plain_copy = false;  // each Func of `via` is a plain copy (`a(_) = A(_)`): read at via[0]'s arguments
    Halide::Type type;    // of the values read (before any widening cast in the product)
    int dims = 0;
    int vector_arg = -1;  // argument index that moves with the output's innermost dimension, -1: none
    bool strided_along_vector() const { return vector_arg > 0; }
    // The vector dimension moves its argument by other than one element (a flattened buffer,
    // w(k + K * n)): a panel (a copy with another storage order) cannot make the vectors dense.
    bool vector_gather = false;
    // ... by exactly minus one (a reversed read, w(K - 1 - n)): one dense load and a shuffle.
    bool vector_reversed = false;
    // ... by a stride the same at every point (a constant, or a run-time Param: in(x * ST + r.x)),
    // not an index computed per point (a clamp, a division, a table lookup).
    bool vector_stride_uniform = false;
    // Read through a Func that is more than a plain copy of its source (a boundary condition's
    // select and clamps, a cast): evaluated in the reduction loop it would cost a select and
    // clamped gathers per load, so the schedule copies the region a task reads into a dense buffer.
    bool computed = false;
    // Some dimension of the contraction's result does not move it: each value read is reused.
    bool reused = false;
    // Its innermost argument is the innermost reduction variable plus terms free of it (the other
    // reduction variables among them: ctx(r.x, r.y, m) or x(r.x + 8 * r.y, m)): a vector of
    // consecutive reduction steps is one dense load (what the dot-product kernel reads). (A
    // reduction written backwards, x(K - 1 - k, m), also loads densely, reversed: with dot
    // kernels it measured 0.41-0.49x the canonical form at T = 1-8, slower than without.)
    bool unit_stride_reduction = false;
    // The argument that is the (single) reduction variable plus terms free of it; -1: none.
    int reduction_arg = -1;
    // No argument reads a reduction variable (a per-column scale inside the sum,
    // sum(x(k, m) * (w(k, n) * scale(n)))): one value per output across the whole reduction.
    bool reduction_invariant = false;
    // Every argument moves with at most one of the contraction's loop variables (acc's pure
    // variables, and the reduction variables taken together): a tile of the loops reads a box of it no bigger
    // than the tile. A flattened buffer, x(k + K * m), is not: a tile of 8 rows and 32 steps
    // reads 7 * K + 32 elements (what a GPU kernel cannot stage in shared memory).
    bool separable = true;
    // Which of acc's arguments it moves with (indexed like acc's arguments).
    std::vector<bool> uses_acc_arg;
    // Which of acc's arguments its innermost argument steps by one element (a vector along that
    // argument would be one dense load of it).
    std::vector<bool> unit_stride_acc_arg;
    // Which of acc's arguments it reads through a window: an argument moving with that one and
    // with a reduction variable (a convolution's in(x + r.x, y + r.y)). Neighbouring outputs
    // along it read overlapping regions.
    std::vector<bool> window_acc_arg;
    // > 0: the vector variable reaches it only as a whole argument `v / vector_period` (heads as a
    // view of the hidden dimension: p(j, i, c / 64)), so within an aligned group of that many
    // outputs it is a broadcast (vector_arg is -1; MatmulPattern::vector_period).
    int64_t vector_period = 0;
    // Some argument loads from a Func or an input (analysis/Loads.h loads_in; a resampler's source
    // row, e(ix(x) + r.x, ...)): the region a tile reads is known only from the values read, so
    // no copy of it can be bounded.
    bool data_dependent = false;
};

// A contraction, recognized by what it computes: acc(v...) = init (zero, a bias, anything);
// acc(v...) += (a product reading at least two producers) over one or more reduction variables.
// Its result reaches a pure output `host` at the same coordinates, directly or through a chain of
// pure pointwise Funcs (the epilogue: bias, activation, scale, casts; inlined into the host), in
// any order of dimensions: the host's dimension d reads acc's argument acc_arg_of_host_dim[d].
// Or the update is on the output itself (update_on_output: host == acc); the schedule then moves
// the reduction into an intermediate (rfactor) read through a pure wrapper that it tiles.
// The host may also be an intermediate Func (computed at root): the last pure Func of the chain when
// what reads it is not pointwise (the first layer of an MLP, read by the second's reduction), or,
// when acc itself is read so (by several consumers, or by a softmax's reductions), a pure wrapper
// of acc the schedule makes (host_wraps_acc: host == acc).
// The micro-kernel tiles `host` and computes `acc` per tile.
struct MatmulPattern {
    std::string acc, host;
    std::vector<std::string> epilogue;  // pure pointwise Funcs between acc and host, acc's consumer first
    // Pure Funcs between acc and its operands that only multiply or rearrange them (a product
    // written as a Func, a transposition): seen through by the recognizer, left inlined.
    std::vector<std::string> inlined;
    // Computed operands the schedule computes at root (dense buffers read in place).
    std::vector<std::string> materialized;
    // Computed operands read at coordinates computed from values (a boundary condition of an
    // embedding table read at token ids), left inlined: read in place like an input, never copied.
    std::vector<std::string> in_place;
    // Every Func the micro-kernel rule schedules or leaves inlined on purpose.
    std::set<std::string> funcs() const;
    bool update_on_output = false;
    // The update on the output is its only one and adds the contraction to the output's initial
    // values: it is lifted into an rfactor intermediate and the output computed from it like
    // any accumulator's consumer, directly or, with moved vectors (CPU), through the
    // transposing wrapper (analysis/PointwiseUpdate.h update_adds_to_init,
    // schedule/ScheduleWriter.h lift_update).
    bool update_liftable = false;
    // Some update's reduction domain has a predicate (RDom::where: a causal or triangular mask).
    // Halide trims a reduction loop to where a predicate on it holds only when the predicate's
    // other variables are outside that loop; the dot-product kernels split the reduction across
    // vector lanes, so the predicate becomes a select per lane and step (a masked dense layer
    // at T = 1 ran 10x slower than at T = 7 with them): column kernels of one row only
    // (space/MicroKernel.cpp).
    bool reduction_predicated = false;
    bool host_is_output = true;
    bool host_wraps_acc = false;
    // The host's extent per dimension when the pipeline runs (analysis/SymbolicRegion.h): its
    // output buffer's, or for an intermediate host the region its consumers require. Tile variants
    // and dispatch leaves are specialized on these.
    std::vector<Halide::Expr> host_extent;
    // For each dimension d of the host (0 = innermost storage), the acc argument it reads.
    std::vector<int> acc_arg_of_host_dim;
    // For each dimension d of the host, the host's own argument that runs along it: the identity,
    // but for the wrapper of a contraction whose result another contraction's host reads (a sum
    // of contractions): its arguments are acc's, stored (reorder_storage) in the reader's order.
    std::vector<int> host_arg_of_dim;
    // The host dimension the register tile's rows run along: the first dimension after 0 that
    // gives the tile reuse (an operand reads it and not the vector dimension, and no operand read
    // along the vectors reads it): a dense layer's rows, a convolution's output channels (its
    // image rows would give none: the image operand moves with both). 1 when none does.
    int row_dim = 1;
    // When no dimension gives a broadcast operand (every operand moves with the vectors: the batch
    // stored innermost), the host dimension a register tile may also span (CpuKernel::depth) so
    // that each operand is reused along rows or along it (analysis reusing_dim_pair; row_dim is
    // the pair's other member). -1: none (every other contraction).
    int depth_dim = -1;
    // > 0: some operand reads the vector variable v only as v / vector_period
    // (ContractionOperand::vector_period), a multiple of every target's lanes. The CPU schedule
    // splits the output's vector dimension into groups of that many (when its buffer starts at 0
    // and holds whole groups) so that Halide proves such an operand constant across each vector
    // and broadcasts it; elsewhere it is gathered. Set only for an output host (no wrapper).
    int64_t vector_period = 0;
    // Distinct reads per reduction step of one update's summand (the most over its updates): of
    // operands that move with the vectors, and of the others (broadcasts). One each for a product
    // of two operands; two each for a complex product's real part, sum(ar * br - ai * bi). A
    // register tile keeps that many operand vectors live per column (or per row).
    int vector_reads = 1, broadcast_reads = 1;
    // The host's dimensions in the micro-kernel's order: 0 (vectors), row_dim, depth_dim when set,
    // then the others in order (batch, fused into the task loop). Extents handed to the kernel space use it.
    std::vector<int> kernel_dims() const;
    std::vector<LoopVar> reduction;            // the RDom variables, innermost first (of the first update)
    // Each contraction update's RDom variables, innermost first: one entry, or several when acc's
    // updates are all contractions (acc += x·wx; acc += h·wh), computed in turn on one register
    // tile (no packed or staged GPU kernel: those are built for one update).
    std::vector<std::vector<LoopVar>> update_reductions;
    bool several_updates() const { return update_reductions.size() > 1; }
    std::optional<int64_t> reduction_extent;   // constant extent of a single reduction variable (one update)
    // A single float reduction whose extent is known only at run time but estimated as a
    // constant (RDom(0, x.width()) with x's width estimated 768): the CPU kernels are built for
    // that extent and applied under specialize(extent == estimate), a general column kernel
    // elsewhere (schedule/ApplyMatmul.cpp). Unset when reduction_extent is.
    std::optional<int64_t> estimated_reduction_extent;
    // The reduction extent the CPU kernels are built for: the constant one, else the estimate.
    std::optional<int64_t> cpu_reduction_extent() const {
        return reduction_extent ? reduction_extent : estimated_reduction_extent;
    }
    // The constant extent of the innermost reduction variable (of every update, when they agree),
    // whatever the others: what k unrolling and the dot-product kernels split. A reduction over
    // several variables (heads x head dimension, ctx(r.x, r.y, m) * wo(r.x, r.y, n)) runs the
    // others outside it. For one variable: cpu_reduction_extent().
    std::optional<int64_t> inner_reduction_extent;
    std::optional<int64_t> cpu_inner_reduction_extent() const {
        return reduction.size() == 1 && update_reductions.size() <= 1 ? cpu_reduction_extent() : inner_reduction_extent;
    }
    // The reduction points of all updates (per update the product of its extents, summed) when all
    // are constant: what a panel holds.
    std::optional<int64_t> total_reduction_extent;
    // The most reduction points at any shape of the family, for a reduction whose extent varies
    // with the shape (over T in attention's context): set by the plugin from the shape family
    // (space/MicroKernel.h family_reduction_max), unset when not known.
    std::optional<int64_t> family_reduction_max;
    // Two reduction variables fused into one (`reduction` then holds the fused one, `<r0>_fused`):
    // every operand reads them as one contiguous run (x(r.x + 8 * r.y, m):
    // analysis/ContractionOperands.h reduction_fuses), so the kernels of a single reduction of the
    // whole length apply. The schedule fuses them first on the update ({inner, outer}).
    std::vector<std::string> fused_reduction;
    std::vector<ContractionOperand> operands;
    Halide::Type type;
    // The host is a wrapper of acc stored with this acc argument innermost, where the output
    // stores another one innermost that is shorter than a vector at some shapes
    // (analysis/VectorChoice.h); the output and its epilogue are then ordinary stages reading the
    // wrapper (a transposing pass). -1: the vectors run along the host's own innermost dimension.
    int moved_vector_arg = -1;
    // One line saying what was recognized, for the user ("acc(n, m) += x(k, m) * w(k, n) over k,
    // output y via epilogue e1, vectors along n").
    std::string description;
};

// Each contraction update's reduction variables (p.update_reductions, or {p.reduction} for a
// pattern built without them).
inline std::vector<std::vector<LoopVar>> reductions_of(const MatmulPattern &p) {
    return p.update_reductions.empty() ? std::vector<std::vector<LoopVar>>{p.reduction} : p.update_reductions;
}

// The loops of a Func's stages as the schedule sees them now (after, e.g., an rfactor the DAG
// does not know about).
std::vector<StageNode> stages_of(const Halide::Internal::Function &f);

struct FuncNode {
    Halide::Internal::Function func;
    std::string name;
    int pipeline_index = -1;   // the index Pipeline::get_func takes
    bool is_output = false;
    bool is_extern = false;
    bool is_input_wrapper = false;  // reads only inputs, directly or via such Funcs ("x_im", boundary conditions)
    bool pointwise_consumed = false;  // every consumer reads it at its own pure coordinates
    // Its region at run time may be smaller than the analysis' (analysis/PredicateReads.h
    // regions_narrowed_by_predicates): its extents give no lower bound.
    bool region_narrowed = false;
    // An input wrapper that computes something, not inlined because a consumer reads it at
    // several stencil taps (analysis/RecomputeCost.h): computed per tile by a tiled group, or
    // inlined again into a contraction's per-task operand copy (analysis/RecomputeCost.h: inline_staged_operands).
    bool wrapper_read_at_taps = false;
    std::vector<StageNode> stages;
    std::set<std::string> producers, consumers;
    int dims() const { return (int)func.args().size(); }
    bool has_updates() const { return stages.size() > 1; }
};

// If every call to `producer` in `consumer` uses the consumer's pure arguments, the mapping
// consumer-dim -> producer-arg; empty otherwise.
std::vector<int> pointwise_mapping(const Halide::Internal::Function &consumer, const std::string &producer);
// Whether `consumer` calls `producer`, always at its own pure arguments in order (f(x, y) reads g(x, y)).
bool read_at_own_coordinates(const Halide::Internal::Function &consumer, const std::string &producer);

// MatmulPattern::fused_reduction: one update over two reduction variables that every operand
// (its `calls`) reads as one contiguous run becomes one reduction variable of the whole length
// (analysis/MatmulPattern.cpp).
void fuse_contiguous_reduction(MatmulPattern &p, const std::vector<const Halide::Internal::Call *> &calls);

// Contractions whose vectors are moved off their output's innermost dimension: acc's name -> the
// acc argument the vectors run along (analysis/VectorChoice.h, MatmulPattern::moved_vector_arg).
using VectorMoves = std::map<std::string, int>;

// The moves of the patterns of a previous analysis (to analyze a copy of the pipeline the same way).
VectorMoves vector_moves_of(const std::vector<MatmulPattern> &patterns);

class FunctionDAG {
public:
    explicit FunctionDAG(const std::vector<Halide::Internal::Function> &outputs, const VectorMoves &moves = {});

    const std::vector<FuncNode> &nodes() const { return nodes_; }  // producers before consumers
    const FuncNode &node(const std::string &name) const;
    bool has(const std::string &name) const { return index_.count(name) > 0; }
    const std::vector<MatmulPattern> &matmuls() const { return matmuls_; }
    // Matmul-like reductions that do not fit MatmulPattern, with the reason (for a warning).
    const std::map<std::string, std::string> &unmatched_reductions() const { return unmatched_; }

private:
    std::vector<FuncNode> nodes_;
    std::map<std::string, int> index_;
    std::vector<MatmulPattern> matmuls_;
    std::map<std::string, std::string> unmatched_;
    VectorMoves moves_;

    void classify_matmuls();
    void materialize_computed_operands(MatmulPattern &p);
    const FuncNode *chain_consumer(const FuncNode &cur, int dims, std::vector<int> *m) const;
};

}  // namespace diet
