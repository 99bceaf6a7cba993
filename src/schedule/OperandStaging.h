// The CPU micro-kernel's operand staging (schedule/ApplyMatmul.cpp applies it to column-kernel
// leaves): per-task panels of the operands read across the vectors (and of those read along them
// in rows a page apart), per-task dense copies of computed operands (boundary conditions), and the
// once-per-call reduction-major copy of a broadcast operand stored the other way (TN's A); for
// packed integer kernels, per-task reduction-major panels.
#pragma once

#include "analysis/FunctionDAG.h"
#include "schedule/ApplyGroups.h"
#include "schedule/ScheduleWriter.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace diet {

// The Func whose definition reads an operand, for a wrapper `operand.in(that)`: acc (or what the
// schedule put in its place, an rfactor intermediate), or, for an operand read through Funcs
// inlined into acc's summand (ContractionOperand::via), a clone of the last of them made for acc
// alone (`prod.clone_in(acc)`): a wrapper in the shared Func would also redirect the reads of
// the dot-product leaves' rfactor intermediates and the in-place leaves' (CpuTiling.h
// tile_acc_direct), which read the operands in place.
class OperandCallers {
public:
    OperandCallers(ScheduleWriter &w, const FuncRefLookup &ref, ScheduleWriter::FuncRef acc)
        : w_(w), ref_(ref), acc_(std::move(acc)) {}
    ScheduleWriter::FuncRef of(const ContractionOperand &o);

private:
    ScheduleWriter &w_;
    const FuncRefLookup &ref_;
    ScheduleWriter::FuncRef acc_;
    std::map<std::vector<std::string>, ScheduleWriter::FuncRef> clones_;  // by path from acc
};

// The once-per-call reduction-major copy of each broadcast operand stored across the reduction
// (space/MicroKernel.h copied_reduction_major), for every CPU kernel, column or dot-product.
// `copied`: the Funcs already copied (by this call or an earlier contraction's); each is copied once.
// `extents_of`: a Func's run-time extents per dimension, as the schedule spells them (empty when
// one is not known before the run: the copy is then always parallel).
using OperandExtents = std::function<std::vector<SizeExpr>(const std::string &func)>;
void copy_broadcast_operands(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, int lanes,
                             std::set<std::string> &copied, const OperandExtents &extents_of);

// `task`: the loop of `host` the panels are computed at; `window_task`: the loop computed operands
// read through a window across tasks are copied at (empty: `task`); `lanes`: the kernel's SIMD width;
// `strided`: the kernel stages (CpuKernel::stage_strided); `k_pack` > 1: the packed kernel's
// reduction-major panels instead (CpuKernel::k_pack), or natural-order ones of at most
// `packed_panel_cols` columns (the widest task of the dispatch's column leaves) for an operand
// packed_in_natural_panel.
void stage_cpu_operands(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, ScheduleWriter::FuncRef &acc,
                        ScheduleWriter::FuncRef &host, const std::string &task, const std::string &window_task, int lanes,
                        bool strided, int k_pack, int packed_panel_cols);

// Dot-product kernels load every operand along the reduction in vectors: a row operand stored with
// its rows innermost (transposed queries, `q(i, d, b)`: space/MicroKernel.h
// gathered_along_reduction) would be gathered lane by lane in every tile. It is copied for the
// lane intermediate `lanes` alone (`q.in(lanes)`: the column leaves of the dispatch keep reading
// it in place), per row tile of `host` (`row_loop`), stored reduction-major: each copy serves every
// column tile of its rows, which then load dense vectors.
// Nothing is copied unless space/MicroKernel.h gathered_rows_copied: an operand read through Funcs
// inlined into the summand is copied only where they are plain copies (`a(_) = A(_)`, wrapped
// themselves: `a.in(lanes)`); through others (a transposition, a cast) the wrapper would go in a
// clone of the last of them per lane intermediate, and Halide 14 cannot clone a Func again once
// it has a clone (Schedule.cpp, "copied_func.defined()", at the second variant): those keep the gathers.
void copy_gathered_rows(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, const ScheduleWriter::FuncRef &lanes,
                        const ScheduleWriter::FuncRef &host, const std::string &row_loop, int vector_width);

}  // namespace diet
