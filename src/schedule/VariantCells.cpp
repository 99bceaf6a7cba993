#include "schedule/VariantCells.h"

#include "space/MicroKernel.h"

namespace diet {

std::vector<std::vector<int64_t>> cell_corners(const std::vector<std::pair<int64_t, int64_t>> &box,
                                               const std::vector<std::set<int64_t>> &cuts, size_t max_points) {
    std::vector<std::vector<int64_t>> out = {{}};
    for (size_t d = 0; d < box.size(); d++) {
        const auto [lo, hi] = box[d];
        std::vector<int64_t> values = {lo};
        if (d < cuts.size()) {
            for (int64_t v : cuts[d]) {
                if (v > lo && v <= hi) values.push_back(v);
            }
        }
        if (out.size() * values.size() > max_points) return {};
        std::vector<std::vector<int64_t>> next;
        for (const std::vector<int64_t> &p : out) {
            for (int64_t v : values) {
                next.push_back(p);
                next.back().push_back(v);
            }
        }
        out = std::move(next);
    }
    return out;
}

std::vector<std::vector<int64_t>> family_cell_corners(const std::vector<std::pair<int64_t, int64_t>> &box,
                                                      const Dispatch &leaves) {
    if (box.empty()) return {};
    std::vector<std::set<int64_t>> cuts(box.size());
    const auto cut = [&](size_t d, int64_t v) {
        if (d < cuts.size()) cuts[d].insert(v);
    };
    for (const DispatchLeaf &l : leaves.leaves) {
        for (size_t d = 0; d < l.lo.size(); d++) {
            cut(d, l.lo[d]);
            if (l.hi[d] < kNoUpperBound) cut(d, l.hi[d] + 1);
        }
        for (const TileVariant &t : tile_variants(l.kernel)) {
            cut(0, t.cols);
            cut(1, t.rows);
            cut(2, t.depth);
            cut(2, t.rows);
        }
    }
    return cell_corners(box, cuts, 4096);
}

}  // namespace diet
