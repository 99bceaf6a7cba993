// Whether a Func is cheap enough to recompute at every point that reads it: the conditions for
// inlining a Func that is not read pointwise (an input wrapper, a boundary condition, a constant
// table of weights). Named heuristics:
// - A definition is cheap unless it calls the math library (pow, exp, log, the trigonometric
//   functions: a libm call or a long polynomial per point) or divides integers by a value known
//   only at run time (a scalar divide per vector lane on x86). Such a Func read at data-dependent
//   coordinates (a lookup table, `lut(in(x, y))`) is computed once instead; inlined it cost one pow
//   per pixel (probe 10's gamma table: 9x slower than every Func at root).
// - A Func that computes something per point (a boundary condition's clamps and selects), read by
//   one consumer at kTapsToMaterialize or more points (a stencil's taps, a window reduction over
//   an RDom), is computed per tile instead of once per tap: inlined, every tap carried the clamps
//   and the select, and the taps near the edges (most of them in small images) became gathers
//   (probe 10's 5x5 erosion over a constant exterior: 5x slower at 1024x1024 than computed per tile).
//   A relay (a Func that reads one value of its producer at its own coordinates, shifted by
//   constants) stays inlined: it costs nothing per tap.
#pragma once

#include "analysis/FunctionDAG.h"

#include <map>
#include <string>
#include <vector>

namespace diet {

constexpr int kTapsToMaterialize = 3;
// The largest reduction domain read as a filter's window (a heuristic: 64 x 64). A Func read
// through a window is computed (once per tile: the tile plus the window's halo), not inlined into
// every tap, where its clamps would gather the taps near the edges. A disk erosion of run-time
// radius up to 5 (11 x 11) ran 3-6x slower inlined (apps/results/cpu/window_param_2026-12-01/);
// the limit was 121 points until red-team round 22's lens blur (a disc of radius up to 8, 17 x 17)
// and non-local means' 13 x 13 and 21 x 21 searches, which ran 1.5-3.3x faster computed
// (apps/results/cpu/wide_windows_2026-12-07/). Larger domains, and unbounded ones, read most of an
// image per tile. A run-time extent counts at its largest over the Params' ranges.
constexpr int64_t kWindowPoints = 4096;

bool cheap_to_recompute(const Halide::Internal::Function &f);

// What one point of f costs to recompute, in weighted operations of its own definition: a
// division, a modulo or a math-library call 8, any other operation (bitwise ones included) 1,
// loads 0 (inlined, a Func's loads become its reader's, one for one).
double recompute_ops(const Halide::Internal::Function &f);

// f(args) = g(args + constants): one call, no arithmetic on the value or the coordinates.
bool is_relay(const Halide::Internal::Function &f);

// How many distinct points of `producer` one point of `consumer` reads as a stencil (over all its
// definitions; points differing only in constant coordinates are one); a read whose coordinates
// move with a reduction domain of at most kWindowPoints points counts as kTapsToMaterialize.
int taps_read(const Halide::Internal::Function &consumer, const std::string &producer);

// Sets FuncNode::is_input_wrapper on every node (producers before consumers, each node's
// producers and consumers known): Funcs that only read inputs, directly or through other such
// Funcs (an ImageParam's "x_im", boundary conditions), cheap to recompute wherever they are read
// by the rules above. Each producer must be read at one point: a stencil recomputed at every use
// multiplies its taps, and a chain of them inlined into a matmul's unrolled register tile kept
// LLVM busy for more than half an hour (test_fuzz). An extern stage reads its Func arguments as
// buffers: they cannot be inlined ("Func pre cannot be scheduled to be computed inline, because it
// is used in the externally-computed function", test_apps_pipelines).
void mark_input_wrappers(std::vector<FuncNode> &nodes, const std::map<std::string, int> &index);
// After the contractions are recognized: a wrapper mark_input_wrappers kept for its stencil taps
// whose every reader copies it per task (a staged computed operand) is inlined again.
void inline_staged_operands(std::vector<FuncNode> &nodes, const std::vector<MatmulPattern> &matmuls);

}  // namespace diet
