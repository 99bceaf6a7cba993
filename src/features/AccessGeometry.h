// The geometry of buffer accesses Features.cpp works with: dense buffer shapes, the loops around
// a store, an access's index analysed against them, and boxes of touched elements.
#pragma once

#include "features/FeatureLayout.h"

#include "Halide.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace diet {
namespace feature_detail {

using namespace Halide;
using namespace Halide::Internal;

// ---------------------------------------------------------------------------------------------
// Buffers, loops and accesses.
// ---------------------------------------------------------------------------------------------

// Dense storage, innermost dimension first.
struct BufferShape {
    std::vector<int64_t> extents;
    std::vector<int64_t> strides() const {
        std::vector<int64_t> s;
        int64_t stride = 1;
        for (int64_t e : extents) {
            s.push_back(stride);
            stride *= std::max<int64_t>(1, e);
        }
        return s;
    }
};

struct Loop {
    const void *key = nullptr;  // the For node, or the Store for the loop over its lanes
    std::string var;
    int64_t min = 0, extent = 1;
    ForType type = ForType::Serial;
    bool unrolled = false;
};

// One index of an access, against the loop stack of the store.
struct IndexInfo {
    Expr index;                                // scalar flat index; the lanes of a vector are kLaneVar
    std::vector<bool> uses;                    // per loop of the stack
    std::vector<std::optional<int64_t>> coef;  // per loop: coefficient in the index, if constant
    std::vector<int64_t> stride;               // per loop: |coefficient| (estimated if not constant)
    std::optional<int64_t> base;               // the index with every loop at its first iteration
    // A vector index whose lanes do not step evenly (a block of several ramps, from vectorizing
    // two loops): the offset of each lane from lane 0. Empty otherwise.
    std::vector<int64_t> lane_offsets;
};

struct BufferUse {
    std::string name;
    AccessType type = AccessType::Read;
    int elem_bytes = 1;
    std::vector<IndexInfo> indices;
};

struct DimRange {
    int64_t lo = 0, hi = 0;
};

struct TouchEntry {
    AccessType type;
    int64_t elems;
    int bytes;
};

struct AccessFeature {
    std::string buffer;
    AccessType type;
    double bytes, unique_bytes, lines, unique_lines, stride;
    ReuseType reuse;
    double reuse_dis_iter, reuse_dis_bytes, reuse_ct;
};

// Loop variables are Int(32); an Expr(int64_t) would be Int(64).
inline Expr i32(int64_t v) {
    return make_const(Int(32), v);
}

inline int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// The coordinates, innermost first, of a flat (dense) index.
inline std::vector<int64_t> coordinates(int64_t flat, const BufferShape &s) {
    const std::vector<int64_t> st = s.strides();
    std::vector<int64_t> c(st.size(), 0);
    for (int d = (int)st.size() - 1; d >= 1; d--) {
        c[d] = floor_div(flat, st[d]);
        flat -= c[d] * st[d];
    }
    if (!c.empty()) c[0] = flat;
    return c;
}

inline int64_t elements(const std::vector<DimRange> &box, const BufferShape &s) {
    int64_t n = 1;
    for (size_t d = 0; d < box.size(); d++) {
        n *= std::clamp<int64_t>(box[d].hi - box[d].lo + 1, 1, std::max<int64_t>(1, s.extents[d]));
    }
    return n;
}

inline std::vector<DimRange> full_box(const BufferShape &s) {
    std::vector<DimRange> b;
    for (int64_t e : s.extents) b.push_back({0, e - 1});
    return b;
}

// Bounding box of the flat interval [lo, hi].
inline std::vector<DimRange> box_of_interval(int64_t lo, int64_t hi, const BufferShape &s) {
    std::vector<int64_t> a = coordinates(lo, s), b = coordinates(hi, s);
    std::vector<DimRange> box(a.size());
    int d = (int)a.size() - 1;
    for (; d >= 0 && a[d] == b[d]; d--) box[d] = {a[d], a[d]};
    if (d >= 0) box[d] = {std::min(a[d], b[d]), std::max(a[d], b[d])};
    for (int i = d - 1; i >= 0; i--) box[i] = {0, s.extents[i] - 1};
    return box;
}

}  // namespace feature_detail
}  // namespace diet
