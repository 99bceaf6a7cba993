// Features.cpp's access analysis (FeatureExtractor.h): the buffers a store touches, the region
// each touches per loop level, strides, reuse and the per-buffer features.
#include "features/FeatureExtractor.h"
#include "analysis/FunctionDAG.h"
#include "common/Errors.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace feature_detail {

const BufferShape &Extractor::shape_of(const std::string &name) {
    auto it = shapes_.find(name);
    if (it == shapes_.end()) it = shapes_.emplace(name, BufferShape{{int64_t(1) << 40}}).first;
    return it->second;
}

std::vector<BufferUse> Extractor::accesses(const Store *op) {
    std::vector<BufferUse> uses;
    BufferUse w;
    w.name = op->name;
    w.type = AccessType::Write;
    w.elem_bytes = op->value.type().bytes();
    w.indices.push_back(analyse(op->index));
    uses.push_back(w);
    LoadCollector lc;
    op->value.accept(&lc);
    for (const Load *l : lc.loads) {
        auto it = std::find_if(uses.begin(), uses.end(), [&](const BufferUse &u) { return u.name == l->name; });
        if (it == uses.end()) {
            BufferUse u;
            u.name = l->name;
            u.type = AccessType::Read;
            u.elem_bytes = l->type.bytes();
            u.indices.push_back(analyse(l->index));
            uses.push_back(u);
        } else if (it->type == AccessType::Write) {
            it->type = AccessType::ReadWrite;
        } else if (it->type == AccessType::Read) {
            it->indices.push_back(analyse(l->index));
        }
    }
    return uses;
}

Expr Extractor::at_loop_points(const Expr &e, bool middle) const {
    std::map<std::string, Expr> v;
    for (const Loop &l : stack_) v[l.var] = i32(l.min + (middle ? l.extent / 2 : 0));
    return simplify(substitute(v, e));
}

IndexInfo Extractor::analyse(const Expr &raw) const {
    IndexInfo info;
    Expr e = expand(raw);
    const bool has_lanes = !stack_.empty() && stack_.back().var == kLaneVar;
    if (e.type().is_vector()) {
        Expr e0 = simplify(extract_lane(e, 0));
        Expr step = simplify(extract_lane(e, 1) - e0);
        if (!as_const_int(step)) step = at_loop_points(step, true);
        // Ansor's stride when it cannot find the coefficient is 2.
        if (!as_const_int(step)) step = Expr(2);
        const Ramp *ramp = e.as<Ramp>();
        if (has_lanes && !(ramp && ramp->base.type().is_scalar()) && !e.as<Broadcast>()) {
            // The lane loop keeps the step of the first two lanes (the innermost vectorized
            // loop); the region uses every lane's offset.
            const int lanes = e.type().lanes();
            bool even = true;
            for (int i = 0; i < lanes; i++) {
                std::optional<int64_t> o = constant_value(extract_lane(e, i) - e0);
                if (!o) {
                    info.lane_offsets.clear();
                    even = true;
                    break;
                }
                info.lane_offsets.push_back(*o);
                even = even && *o == i * *as_const_int(step);
            }
            if (even) info.lane_offsets.clear();
        }
        e = has_lanes ? simplify(e0 + step * Variable::make(Int(32), kLaneVar)) : e0;
    }
    info.index = e;
    for (const Loop &l : stack_) {
        const bool uses = expr_uses_var(e, l.var);
        info.uses.push_back(uses);
        std::optional<int64_t> coef = 0;
        int64_t stride = 0;
        if (uses) {
            Expr v = Variable::make(Int(32), l.var);
            Expr d = simplify(substitute(l.var, v + 1, e) - e);
            coef = as_const_int(d) ? std::optional<int64_t>(*as_const_int(d)) : std::nullopt;
            if (coef) {
                stride = std::abs(*coef);
            } else {
                Expr mid = at_loop_points(d, true);
                stride = as_const_int(mid) ? std::abs(*as_const_int(mid)) : 2;
            }
        }
        info.coef.push_back(coef);
        info.stride.push_back(stride);
    }
    Expr base = at_loop_points(e, false);
    if (as_const_int(base)) info.base = *as_const_int(base);
    return info;
}

std::vector<DimRange> Extractor::region(const BufferUse &u, int level) {
    const BufferShape &s = shape_of(u.name);
    std::vector<DimRange> box;
    for (const IndexInfo &idx : u.indices) {
        std::vector<DimRange> b = index_region(idx, s, level);
        if (box.empty()) {
            box = b;
        } else {
            for (size_t d = 0; d < box.size(); d++) {
                box[d].lo = std::min(box[d].lo, b[d].lo);
                box[d].hi = std::max(box[d].hi, b[d].hi);
            }
        }
    }
    return box;
}

std::vector<DimRange> Extractor::index_region(const IndexInfo &idx, const BufferShape &s, int level) {
    bool affine = idx.base.has_value();
    for (int j = level; j < (int)stack_.size(); j++) affine = affine && idx.coef[j].has_value();
    const std::vector<int64_t> st = s.strides();
    // The lanes of an uneven vector index: the bounding box of their offsets.
    const bool lane_block = !idx.lane_offsets.empty();
    const int64_t lo_offset = lane_block ? *std::min_element(idx.lane_offsets.begin(), idx.lane_offsets.end()) : 0;
    const int64_t hi_offset = lane_block ? *std::max_element(idx.lane_offsets.begin(), idx.lane_offsets.end()) : 0;
    if (affine) {
        // Each loop moves the index along the dimension its coefficient is a stride of.
        std::vector<DimRange> box;
        for (int64_t x : coordinates(*idx.base, s)) box.push_back({x, x});
        for (int64_t o : idx.lane_offsets) {
            std::vector<int64_t> c = coordinates(*idx.base + o, s);
            for (size_t d = 0; d < c.size(); d++) {
                box[d].lo = std::min(box[d].lo, c[d]);
                box[d].hi = std::max(box[d].hi, c[d]);
            }
        }
        for (int j = level; j < (int)stack_.size(); j++) {
            if (lane_block && stack_[j].var == kLaneVar) continue;
            const int64_t a = *idx.coef[j];
            if (a == 0 || stack_[j].extent <= 1) continue;
            int d = (int)st.size() - 1;
            while (d > 0 && st[d] > std::abs(a)) d--;
            const int64_t span = a / st[d] * (stack_[j].extent - 1);
            (span > 0 ? box[d].hi : box[d].lo) += span;
        }
        return box;
    }
    // Otherwise the bounds of the flat index, outer loops at their first iteration.
    std::map<std::string, Expr> first;
    for (int j = 0; j < level; j++) first[stack_[j].var] = i32(stack_[j].min);
    if (lane_block) first[kLaneVar] = i32(0);
    Interval i = bounds_of_expr_in_scope(simplify(substitute(first, idx.index)), loop_bounds_);
    if (i.is_bounded()) {
        // (constant_value keeps the value: as_const_int would point into a temporary.)
        std::optional<int64_t> lo = constant_value(i.min), hi = constant_value(i.max);
        if (lo && hi) return box_of_interval(*lo + lo_offset, *hi + hi_offset, s);
    }
    return full_box(s);
}

int64_t Extractor::stride_of(const BufferUse &u, int loop) {
    int64_t s = 0;
    bool found = false;
    for (const IndexInfo &idx : u.indices) {
        if (!idx.uses[loop]) continue;
        s = found ? std::min(s, idx.stride[loop]) : idx.stride[loop];
        found = true;
    }
    return found ? s : 0;
}

AccessFeature Extractor::access_feature(const BufferUse &u, const std::vector<DimRange> &outer_box, double prod) {
    const int n = (int)stack_.size();
    const double elem = u.elem_bytes, line = opt_.cache_line_bytes;
    AccessFeature f;
    f.buffer = u.name;
    f.type = u.type;
    f.bytes = prod * elem;  // one access per store instance, as in Ansor
    if (n == 0) {
        f.unique_bytes = elem;
        f.stride = 0;
        f.lines = f.unique_lines = 1;
    } else {
        const BufferShape &s = shape_of(u.name);
        // Deliberately this store's own region of the buffer (Ansor takes the first entry
        // recorded under the outermost loop, which may belong to an earlier store).
        f.unique_bytes = (double)elements(outer_box, s) * elem;
        // Walk out from the innermost loop to the first that moves the access; the loops
        // skipped re-touch the same line. (Ansor multiplies by the innermost loop's extent
        // at every skipped level; the skipped loop's own extent is used here.)
        int64_t stride = 0;
        double reduce = 1;
        int i = n - 1;
        for (; i >= 0; i--) {
            stride = stride_of(u, i);
            if (stride != 0) break;
            reduce *= (double)stack_[i].extent;
        }
        f.lines = std::max(1.0, prod / reduce * std::min(1.0, (double)stride * elem / line));
        f.stride = i == n - 1 ? (double)stride : 0;
        // Contiguous bytes of the touched region: the innermost dimensions the region
        // covers entirely, and the first one it covers in part. (Ansor uses the first fully
        // covered dimension of the last buffer it looked at.)
        double contiguous = elem;
        for (size_t d = 0; d < outer_box.size(); d++) {
            const int64_t span =
                std::clamp<int64_t>(outer_box[d].hi - outer_box[d].lo + 1, 1, std::max<int64_t>(1, s.extents[d]));
            contiguous *= (double)span;
            if (span < s.extents[d]) break;
        }
        f.unique_lines = std::max(1.0, f.unique_bytes / std::min(contiguous, line));
    }
    reuse(u, &f);
    return f;
}

void Extractor::reuse(const BufferUse &u, AccessFeature *f) {
    double dis_iter = 1, dis_bytes = -1;
    for (int i = (int)stack_.size() - 1; i >= 0; i--) {
        const std::map<std::string, std::vector<TouchEntry>> &touched = touch_[stack_[i].key];
        const double extent = (double)stack_[i].extent;
        bool moves = false;
        for (const IndexInfo &idx : u.indices) moves = moves || idx.uses[i];
        if (moves) {
            dis_iter *= extent;
            dis_bytes = 0;
            for (const auto &kv : touched) {
                for (const TouchEntry &t : kv.second) dis_bytes += (double)t.elems * t.bytes;
            }
        } else {
            // Every iteration of this loop reads the same elements again.
            if (dis_bytes < 0) {
                dis_bytes = 0;
                for (const auto &kv : touched) {
                    for (const TouchEntry &t : kv.second) dis_bytes += t.bytes;
                }
            }
            f->reuse = ReuseType::LoopMultipleRead;
            f->reuse_dis_iter = dis_iter;
            f->reuse_dis_bytes = dis_bytes;
            f->reuse_ct = extent;
            return;
        }
        // Several stores under this loop touch the buffer one after the other.
        const std::vector<TouchEntry> &mine = touched.at(u.name);
        if (mine.size() > 1) {
            double least = INFINITY, total = 0;
            for (const TouchEntry &t : mine) least = std::min(least, (double)t.elems);
            for (const auto &kv : touched) {
                for (const TouchEntry &t : kv.second) total += (double)t.elems * t.bytes;
            }
            f->reuse = ReuseType::SerialMultipleReadWrite;
            f->reuse_dis_iter = least / extent;
            f->reuse_dis_bytes = total / extent;
            f->reuse_ct = (double)(mine.size() - 1);
            return;
        }
    }
    f->reuse = ReuseType::NoReuse;
    f->reuse_dis_iter = f->reuse_dis_bytes = f->reuse_ct = 0;
}

void Extractor::buffer_features(Row &r, std::vector<AccessFeature> feas) {
    std::stable_sort(feas.begin(), feas.end(), [](const AccessFeature &a, const AccessFeature &b) {
        return a.lines > b.lines || (a.lines == b.lines && a.bytes > b.bytes);
    });
    for (int b = 0; b < kAnsorMaxBuffers; b++) {
        double *x = &r.f[kBuffers + b * kAnsorBufferFeatureCount];
        std::fill(x, x + kAnsorBufferFeatureCount, 0.0);
        r.slots[b].clear();
        if (b >= (int)feas.size()) continue;
        const AccessFeature &a = feas[b];
        r.slots[b] = a.buffer;
        x[kAccType + (int)a.type] = 1;
        x[kBytes] = a.bytes;
        x[kUniqueBytes] = a.unique_bytes;
        x[kLines] = a.lines;
        x[kUniqueLines] = a.unique_lines;
        x[kReuseType + (int)a.reuse] = 1;
        x[kReuseDisIter] = a.reuse_dis_iter;
        x[kReuseDisBytes] = a.reuse_dis_bytes;
        x[kReuseCt] = a.reuse_ct;
        // Ansor: divide by the reuse count, or multiply by 2 when there is no reuse.
        const double scale = a.reuse_ct > 0.5 ? 1.0 / a.reuse_ct : 2.0;
        x[kBytesDReuse] = a.bytes * scale;
        x[kUniqueBytesDReuse] = a.unique_bytes * scale;
        x[kLinesDReuse] = a.lines * scale;
        x[kUniqueLinesDReuse] = a.unique_lines * scale;
        x[kStride] = a.stride;
    }
}

void Extractor::arithmetic_intensity(Row &r, double float_ops, const std::vector<double> &ops,
                                 const std::vector<double> &bytes) {
    double *curve = &r.f[kArithCurve];
    std::fill(curve, curve + kArithPoints, 0.0);
    if (float_ops <= 0 || ops.empty()) return;
    size_t pt = 0;
    for (int i = 0; i < kArithPoints; i++) {
        const double x = ops.back() * (i + 1) / kArithPoints;
        while (pt + 1 < ops.size() && ops[pt] < x - 1e-4) pt++;
        if (pt == 0) {
            curve[i] = ops[0] / bytes[0];
        } else {
            const double base = ops[pt - 1] / bytes[pt - 1];
            const double slope = (ops[pt] / bytes[pt] - base) / (ops[pt] - ops[pt - 1]);
            curve[i] = base + slope * (x - ops[pt - 1]);
        }
    }
}

}  // namespace feature_detail
}  // namespace diet
