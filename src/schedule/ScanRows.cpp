// An update that scans along dimension 0 (analysis/Scans.h) with rows interleaved
// (schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"
#include "analysis/Scans.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using StageRef = GroupApplier::StageRef;

// A scan along dimension 0 has no vector there: each row's steps are one serial chain, and a
// floating-point step waits on the step before for several cycles (an IIR section's
// multiply-adds). The rows' chains are independent: kInterleavedRows rows unrolled inside each
// step keep that many chains in flight. Measured on the AVX-512 guest (probe in
// apps/results/cpu/scan_lanes_2026-12-01/): a first-order IIR along 1920 x 1080 rows 1.78 ->
// 1.10 ms, along 16 rows of 2000 0.036 -> 0.016 ms. Vectors across the rows instead (what
// Mullapudi2016 does for red-team round 9's biquad cascade) gather and scatter every lane, rows
// a page apart: 1.2-4x slower than serial code at 1024 and 1920 wide. Integer scans (a prefix
// sum, a running maximum: one-cycle steps) gain nothing and stay serial (interleaved, a u8
// running maximum ran 1.5x slower). A heuristic. Returns whether `st` is scheduled.
bool GroupApplier::interleave_scan_rows(StageRef &st, const StageNode &s, const FuncNode &n, bool parallel) {
    const std::vector<std::string> args = n.func.args(), pure = s.pure_vars();
    if (s.index == 0 || !scans_along(n.func.updates()[s.index - 1], args, 0)) return false;
    for (const Type &t : n.func.output_types()) {
        if (!t.is_float()) return false;
    }
    int row_dim = -1;
    for (size_t d = 1; d < args.size() && row_dim < 0; d++) {
        if (std::find(pure.begin(), pure.end(), args[d]) != pure.end()) row_dim = (int)d;
    }
    if (row_dim < 0) return false;
    int rows = kInterleavedRows;
    const std::optional<SizeExpr> extent = parallel ? extent_of(n, row_dim) : std::nullopt;
    const std::optional<int64_t> known = extent ? constant_value(extent->expr) : std::nullopt;
    if (known) rows = (int)std::min<int64_t>(*known, rows);
    if (rows < 2) return false;
    const std::string y = args[row_dim], yo = y + "_rows", yi = y + "_row";
    w_.split(st, y, yo, yi, rows, TailStrategy::GuardWithIf);
    w_.unroll(st, yi);
    std::vector<std::string> order = {yi};
    const std::vector<std::string> rvars = s.rvars();
    order.insert(order.end(), rvars.begin(), rvars.end());
    std::vector<std::string> outer = {yo};
    for (const std::string &p : pure) {
        if (p != y) outer.push_back(p);
    }
    order.insert(order.end(), outer.begin(), outer.end());
    w_.reorder(st, order);
    if (parallel) parallel_fused(st, outer, n.name + "_u" + std::to_string(s.index), stage_points(n, s.index, 1));
    note_once("Func " + n.name + ": its update scans along " + args[0] + ": " + std::to_string(rows) + " rows of " + y +
              " interleaved inside its steps.");
    return true;
}

}  // namespace diet
