// Ansor's per-store features, computed on Halide's lowered Stmt.
//
// For every buffer a program stores to, one row of Ansor's 164 features (TVM auto_scheduler
// feature.cc, same order, same log2p transform), followed by a few Halide-specific features Ansor
// has no notion of. The rows of one program are what a pack-sum cost model (XGBoost, one sample
// per row, the program's score the sum of its rows' predictions) is trained on.
//
// The 164, in order (see ansor_feature_names()):
//   [0, 57)    computation: 16 op counts (float and int mad/addsub/mul/divmod/cmp/mathfunc/
//              otherfunc, bool_op, select_op), each multiplied by the number of times the store
//              runs; vectorize, unroll and parallel num/prod/len plus an 8-way position one-hot
//              each; is_gpu; blockIdx.x/y/z, threadIdx.x/y/z and vthread extents.
//   [57, 147)  for up to 5 buffers the store touches (sorted by lines, then bytes): access type
//              one-hot (read, write, read-write), bytes, unique bytes, cache lines, unique lines,
//              reuse type one-hot, reuse distance in iterations and in bytes, reuse count,
//              bytes/unique bytes/lines/unique lines divided by the reuse count, stride.
//   [147, 157) the arithmetic-intensity curve (float ops / bytes touched, as a function of the
//              loop level, sampled at 10 points).
//   [157, 161) allocation: size in bytes, size in elements times the loops outside it, the
//              product of the loops outside it, the store's loops inside it.
//   [161, 164) outer scope: product of the loops around the store, number of loops,
//              auto_unroll_max_step (0: Halide has no such pragma).
// All are log2p(x) = sign(x) * log2(1 + |x|), except the one-hots and is_gpu.
//
// Rows are keyed by the stored-to buffer, as in Ansor: op counts (and the Halide counts) add up
// over all stores to the buffer; the other features describe one of them. Ansor takes the last
// store (for a reduction: its update). Halide also copies a store into loop-partition epilogues
// and guarded or predicated tails, which come last and run least, so here the store that runs
// most describes the buffer (ties: the later one, so a reduction's update still wins).
//
// How the Halide Stmt maps onto Ansor's TIR (details in Features.cpp):
// - The Stmt is the one lower_at_shape records: flattened, vectorized, loop-partitioned. A vector
//   store of L lanes is treated as a store inside a vectorized loop of extent L (the loop Ansor
//   would see before vectorization); op counts are per lane.
// - Loops the schedule unrolls are serial loops in that Stmt (see Lowering.h) and count as
//   unrolled. GPU block and thread loops are loops (they enter products and extents, not the
//   parallel features), as Ansor's fake thread loops do. Halide has no vthread: vthread_len = 1.
// - Flat indices are split back into the buffer's dimensions with its strides, for the touched
//   regions; strides are the coefficient of the loop variable in the flat index.
// - Conditionals: a branch that cannot run at the bound shape is skipped; a branch whose
//   condition depends on loop variables (loop partitioning, guards) is weighted by the fraction of
//   iterations that take it, so duplicated loop bodies are not counted twice. Ansor counts every
//   branch fully; so does this extractor when the fraction cannot be computed. A predicated
//   vector store (a guarded tail) counts the lanes it writes.
//
// Ansor's approximations are kept: mad is never detected (always 0, a*b+c is a mul and an add);
// the position one-hots are only ever kPosNone or kPosMixed; bytes is one access per store run
// whatever the number of loads; stride 2 when a coefficient cannot be found; bytes etc. times 2
// when there is no reuse. What looks like a slip in Ansor's code is not kept: its line count
// divides by the innermost loop's extent once per skipped loop (here: by the skipped loops'
// extents); its unique bytes and contiguous run come from the first access recorded, or the last
// buffer processed (here: this store's own access to the buffer); vec/unroll/parallel_prod keep a
// stale value when there is no such loop (here: 0); annotation calls (likely) count as math
// calls (here: not at all).
#pragma once

#include "features/Lowering.h"

#include <string>
#include <vector>

namespace diet {

constexpr int kAnsorFeatureCount = 164;
constexpr int kAnsorMaxBuffers = 5;
constexpr int kAnsorBufferFeatureCount = 18;
// Halide-specific features, appended after the 164 (see halide_feature_names()):
//   mem.none, mem.heap, mem.stack, mem.register, mem.gpu_shared, mem.other: where the row's
//     buffer is allocated (one-hot; "none": a pipeline input or output, allocated by the caller);
//   predicated_stores, predicated_loads: vector stores/loads with a predicate, times they run;
//   gpu_kernels: GPU kernels that store to this buffer;
//   vector_shuffles: shuffle nodes in the stored value, times they run;
//   strided_vector_loads: vector loads that are neither dense ramps nor broadcasts, times they run.
constexpr int kHalideFeatureCount = 11;

// log2p(x) = sign(x) * log2(1 + |x|): Ansor's transform of every non-one-hot feature.
float log2p(float x);

const std::vector<std::string> &ansor_feature_names();   // kAnsorFeatureCount names
const std::vector<std::string> &halide_feature_names();  // kHalideFeatureCount names
// Index of a feature by name (Ansor's names, e.g. "float_addsub", "B0.stride"), -1 if unknown.
int ansor_feature_index(const std::string &name);
int halide_feature_index(const std::string &name);

struct FeatureRow {
    std::string buffer;               // the stored-to (or allocated) buffer
    std::vector<float> ansor;         // kAnsorFeatureCount, transformed
    std::vector<float> halide;        // kHalideFeatureCount, transformed
    std::vector<double> ansor_raw;    // the same before the transform (counts, bytes, extents)
    std::vector<double> halide_raw;
    std::vector<std::string> slots;   // buffer described by each of the 5 buffer slots ("" = empty)
};

struct ProgramFeatures {
    bool shape_generic = false;
    std::vector<FeatureRow> rows;     // in the order buffers are first stored to or allocated
    int gpu_kernels = 0;              // GPU kernels (outermost GPU block loops) in the program
    int unbounded_loops = 0;          // loop extents (or allocation sizes) with no upper bound, counted as 1
};

struct FeatureOptions {
    // Shape-generic variant, for the micro-kernel term f_MK of the cost model: features of one
    // GPU thread block or one CPU register tile. GPU block loops, CPU parallel loops, loops that
    // enclose them and loops whose extent depends on the shape (loops over tiles; on the CPU also
    // the panel of tiles a task covers, which follows the run-time task grain) are not
    // iterated: their variables are fixed at their first iteration, and they are left out of
    // products, extents and loop counts. For a micro-kernel whose tiles have constant sizes the
    // vector is then the same at every shape that selects the same tile variant.
    bool shape_generic = false;
    int cache_line_bytes = 64;
};

ProgramFeatures extract_features(const LoweredProgram &p, const FeatureOptions &o = {});

// One vector per program: the elementwise sum of the rows' transformed features (164 Ansor
// features, then the Halide ones). Ansor's own pack-sum sums the per-row *predictions* of a
// model trained on rows, so a cost model should keep the rows; this is for models that take one
// fixed-length vector per program.
std::vector<float> pack_sum(const ProgramFeatures &f);

}  // namespace diet
