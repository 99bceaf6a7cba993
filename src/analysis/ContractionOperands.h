// How each operand of a recognized contraction is read (analysis for FunctionDAG's patterns):
// along the output's vector dimension, along the reduction, reused or not; and which output
// dimension the register tile's rows run along. Pure functions of the summand's calls.
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/Summand.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace diet {

bool is_var_named(const Halide::Expr &e, const std::string &name);

// One operand of a contraction term: how the call `c` (made in `summand`, over `rvars`, innermost
// first) moves with the output's vector variable and with the reduction; `mapping`: the host's
// dimensions to acc's arguments `acc_args`.
ContractionOperand describe_operand(const Halide::Internal::Call *c, const Summand &summand,
                                    const std::vector<LoopVar> &rvars, const std::string &vector_var,
                                    const std::vector<std::string> &acc_args, const std::vector<int> &mapping,
                                    bool grouped = false);

// Whether the two reduction variables `rvars` (innermost first, constant extents) walk one
// contiguous run of every operand `calls` reads: each reads them as `r0 + e0 * r1` (plus terms
// free of both) in one argument and nowhere else (x(r.x + 8 * r.y, m)), so fused into one
// variable k (Halide's fuse on RVars) the index simplifies back to k. (Consecutive arguments,
// ctx(r.x, r.y, m) over heads x head dimension, were fused too at first: with r.x 64 long the
// column kernels ran at 0.55-0.59x the canonical form at T = 64-128 against 0.66-0.69x unfused,
// so they stay unfused.) `reduction_arg` receives, per call, the argument holding them.
bool reduction_fuses(const std::vector<const Halide::Internal::Call *> &calls, const std::vector<LoopVar> &rvars,
                     std::vector<int> &reduction_arg);

// MatmulPattern::row_dim: the first host dimension d >= 1 whose accumulator variable is read by an
// operand that does not move with the vectors, and by no operand that does (so each vector loaded
// is reused across the rows, each broadcast across the vectors). -1 when none qualifies.
// ContractionOperand::vector_period: K when `var` occurs in the call only as a whole argument
// `var / K` (a constant K >= 2); unset otherwise.
std::optional<int64_t> grouped_period(const Halide::Internal::Call *c, const std::string &var);
// The distinct reads of one summand per reduction step (MatmulPattern::vector_reads,
// broadcast_reads): {of calls that move with the vector variable, of the others}. `grouped`: a
// call reading it only through grouped_period is a broadcast.
std::pair<int, int> reads_per_step(const std::vector<const Halide::Internal::Call *> &calls, const std::string &vector_var,
                                   bool grouped);

// With `grouped` (MatmulPattern::vector_period applies), an operand reading the vector variable
// only through grouped_period counts as not moving with the vectors.
int reusing_row_dim(const std::vector<const Halide::Internal::Call *> &calls, const std::vector<std::string> &acc_args,
                    const std::vector<int> &acc_arg_of_host_dim, bool grouped = false);

// MatmulPattern::row_dim where no operand is reused across the result (a weighted sum, taken as
// a kernel on an output): the first host dimension d >= 1 that some operand reads through a
// window (ContractionOperand::window_acc_arg), so neighbouring rows' windows overlap inside one
// task's copy of the operand; 1 when none does. (Rows along y and the task loop over LRN's channel
// window ce(x, y, c + r, n) copied each channel 2R + 1 times per call: 0.74-1.2 ms, against
// 0.51-0.70 with rows along c and 0.87 by the stage rules, at 64 x 64 x 64 x 4, R = 3, AVX-512:
// apps/results/cpu/window_rows_2026-12-07/lrn_variants.txt.)
int windowed_row_dim(const std::vector<ContractionOperand> &operands, const std::vector<int> &acc_arg_of_host_dim);

// MatmulPattern::depth_dim, for a contraction whose operands all move with the vectors (no broadcast
// operand: the batch stored innermost, o(b, i, j) = sum p(b, i, r) * v(b, r, j)): the first pair of
// host dimensions d1 < d2 (both >= 1) such that every operand reads at most one of them and each is
// left out by some operand, so a register tile over both reuses one operand's vectors along d1 and
// another's along d2. {-1, -1} when no pair qualifies.
std::pair<int, int> reusing_dim_pair(const std::vector<const Halide::Internal::Call *> &calls,
                                     const std::vector<std::string> &acc_args, const std::vector<int> &acc_arg_of_host_dim);

// The computed operands read at coordinates computed from values (ContractionOperand::data_dependent)
// that a contraction's kernel reads in place, left inlined, as it reads an input at gathered rows
// (x(k, idx(m))): a cheap wrapper of inputs (`cheap_input_wrapper`: FuncNode::is_input_wrapper; an
// embedding table's constant_exterior at token ids, ce(k, ids(t))) reused across some output
// dimension, that no term also reads at plain coordinates (a Func staged for those reads would
// have its per-task wrapper take the gathered reads too, an unbounded region). Marks them not
// computed (no copy) and returns their Funcs. By the stage rules, red-team round 12's embedding
// projection ran 2.3x Mullapudi2016's time, round 11's deformable convolution
// (in(ci, x + dx(x, y, r), ...) * w(co, ci, r), reused across co) 4-6.5x the kernel's. One that
// moves with every output dimension (a resampler's source pixels, each read by one output through
// per-pixel weights) gains no register-tile reuse: round 11's Catmull-Rom resize ran 1.2-1.4x
// slower as a kernel at 151 x 113 (the same at 1200 x 900, 2.4x the JIT time). It is left as it
// is (the caller sends such a contraction to the stage rules).
std::vector<std::string> read_in_place(std::vector<ContractionOperand> &operands,
                                       const std::function<bool(const std::string &)> &cheap_input_wrapper);

}  // namespace diet
