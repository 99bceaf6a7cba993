#include "schedule/TaskGrain.h"

namespace diet {

namespace {

// ceil(kMinTaskFmas / (a * b * ...)) without forming the product (int32 Exprs): ceil(ceil(x/a)/b)
// is ceil(x/(ab)) for positive integers.
SizeExpr units_for_min_work(const std::vector<SizeExpr> &work_factors) {
    SizeExpr q = size_constant(kMinTaskFmas);
    for (const SizeExpr &f : work_factors) q = ceil_div(q, f);
    return q;
}

}  // namespace

SizeExpr reduction_points_expr(const std::vector<SizeExpr> &ext, const ReductionModel &r) {
    if (r.kernel_dim < 0 || r.kernel_dim >= (int)ext.size()) return size_constant(std::max<int64_t>(1, r.offset));
    SizeExpr k = r.scale == 1 ? ext[r.kernel_dim] : size_constant(r.scale) * ext[r.kernel_dim];
    if (r.offset != 0) k = k + size_constant(r.offset);
    return size_max(k, size_constant(1));
}

SizeExpr task_grain_expr(const std::vector<SizeExpr> &ext, const TileVariant &t, const CpuKernel &k,
                         const ReductionModel &reduction, int64_t fma_cost) {
    const SizeExpr cols = ext.at(0), rows = ext.size() > 1 ? ext[1] : size_constant(1);
    const int64_t panel_cols = (int64_t)t.cols * k.panel_tiles;
    SizeExpr iterations = ceil_div(ceil_div(cols, size_constant(t.cols)), size_constant(k.panel_tiles));
    // A deep tile's iteration (CpuKernel::depth) is one row tile over the whole depth dimension;
    // staged, one panel over every row and depth index (CpuTiling.cpp).
    const bool deep = task_spans_depth(t, k) && ext.size() > 2, row_tasks = deep && !k.stage_strided;
    if (row_tasks) iterations = iterations * ceil_div(rows, size_constant(t.rows));
    for (size_t d = deep ? 3 : 2; d < ext.size(); d++) iterations = iterations * ext[d];
    std::vector<SizeExpr> work = {reduction_points_expr(ext, reduction), size_min(cols, size_constant(panel_cols)),
                                  row_tasks ? size_constant(t.rows) : rows};
    if (deep) work.push_back(ext[2]);
    if (fma_cost > 1) work.push_back(size_constant(fma_cost));
    const SizeExpr q = units_for_min_work(work);
    return size_max(size_min(q, iterations), size_constant(1));
}

SizeExpr row_task_grain_expr(const std::vector<SizeExpr> &ext, const TileVariant &t, const ReductionModel &reduction) {
    const SizeExpr cols = ext.at(0), rows = ext.size() > 1 ? ext[1] : size_constant(1);
    SizeExpr iterations = ceil_div(rows, size_constant(t.rows));
    for (size_t d = 2; d < ext.size(); d++) iterations = iterations * ext[d];
    const SizeExpr q = units_for_min_work({reduction_points_expr(ext, reduction), cols, size_constant(t.rows)});
    return size_max(size_min(q, iterations), size_constant(1));
}

SizeExpr slices_per_task_expr(const std::vector<SizeExpr> &slice_extents, const SizeExpr &reduction_points,
                              const SizeExpr &slices) {
    std::vector<SizeExpr> factors = {reduction_points};
    factors.insert(factors.end(), slice_extents.begin(), slice_extents.end());
    return size_max(size_min(units_for_min_work(factors), slices), size_constant(1));
}

}  // namespace diet
