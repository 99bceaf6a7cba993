// Lowering a scheduled pipeline at one concrete shape, for feature extraction.
//
// Halide's lowered Stmt is symbolic in the buffer sizes: loop extents are expressions such as
// (y.extent.1 + 5)/6. Features need numbers, so the Stmt is recorded during lowering (a custom
// lowering pass, which sees the whole pipeline, GPU loops included, before device code is split
// off) and the symbols of the pipeline's buffers and scalar parameters are then bound to the
// values they take at one shape and simplified: loop extents become constants and the
// specialize() branches that do not apply at that shape disappear.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace diet {

// The values of the pipeline's symbols at one shape. Buffers (inputs and outputs) are taken to
// start at 0, be as large as their estimates and be densely packed, innermost dimension first.
struct ShapeBinding {
    Shape scalars;                                         // scalar parameters
    std::map<std::string, std::vector<int64_t>> buffers;   // buffer name -> extent of each dimension
    // The symbols that change with the shape variables: the shape variables themselves and the
    // buffer extents (<buf>.extent.<d>, and the strides of the dimensions above) whose estimates
    // use them. Empty when the estimates were already constant: every buffer symbol then counts.
    std::set<std::string> varying;
};

// Evaluates the pipeline's estimates (maybe symbolic, e.g. 16*T) at `shape`: every input buffer
// and output of `p` gets its extents, every shape variable its value. Call it before anything
// makes the estimates constant (diet::autoschedule and diet::instantiate do; the copies they make
// keep the buffer names, so the binding applies to them): afterwards the estimates say neither
// the values at another shape nor which extents vary. user_error when an estimate is missing.
ShapeBinding bind_shape(const Halide::Pipeline &p, const Shape &shape);

struct LoweredProgram {
    // The whole pipeline at the point custom lowering passes run (after bounds inference,
    // storage flattening, vectorization, unrolling and loop partitioning; before GPU kernels are
    // offloaded and parallel loops become closures), bound to the shape and simplified.
    Halide::Internal::Stmt stmt;
    Halide::Target target;
    ShapeBinding binding;
    // Names of the loops the schedule unrolls. Halide has already unrolled (copied) such loops
    // by the time a custom pass sees the Stmt, which would hide them; so they are lowered as
    // serial loops here (the copy is temporary) and remembered, and the extractor counts them
    // as unrolled.
    std::set<std::string> unrolled_loops;
    // Loops whose extent, before binding, depends on symbols that vary with the shape
    // (ShapeBinding::varying): the loops over tiles, rows, blocks. Within-tile loops of a
    // shape-generic micro-kernel have constant extents and are not in this set.
    std::set<std::string> shape_dependent_loops;
    // Allocations whose size is not a compile-time constant (Halide puts them on the heap).
    std::set<std::string> dynamic_allocations;
    // Funcs whose schedule reorders their storage: the argument index of each storage dimension,
    // innermost first. (An Allocate lists its extents in argument order; its strides follow the
    // storage order.)
    std::map<std::string, std::vector<int>> storage_order;
    // Assertions that are false at this shape (e.g. an output smaller than a vector that may
    // not be guarded), as Halide prints their condition: the program would fail at this shape.
    std::vector<std::string> violated_assertions;
};

// Lowers `p` (already scheduled) for `t` and binds it at `b`. The pipeline's schedule is changed
// while this runs (unrolled loops, see above) and restored before returning, so one pipeline
// must not be lowered by two threads at once (distinct copies, e.g. from instantiate(), may).
// Device code is not generated.
LoweredProgram lower_at_shape(const Halide::Pipeline &p, const Halide::Target &t, const ShapeBinding &b);

// `e` (in terms of the pipeline's buffer symbols and scalar parameters) at the bound shape, simplified.
Halide::Expr bind_to_shape(const Halide::Expr &e, const ShapeBinding &b);
LoweredProgram lower_at_shape(const Halide::Pipeline &p, const Halide::Target &t, const Shape &shape);

}  // namespace diet
