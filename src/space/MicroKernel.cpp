#include "space/MicroKernel.h"
#include "analysis/SymbolicRegion.h"
#include "common/Errors.h"
#include "space/GpuSpace.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace diet {

using namespace Halide;

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

std::string MicroKernel::to_string() const {
    std::ostringstream o;
    if (gpu) {
        o << "cuda{threads=" << cuda.threads_x << "x" << cuda.threads_y << ", regs=" << cuda.reg_x << "x" << cuda.reg_y
          << ", k_unroll=" << cuda.k_unroll;
        // Unstaged kernels keep their old spelling: tuning logs key records by this string.
        if (cuda.staged()) o << ", k_tile=" << cuda.k_tile;
        o << "}";
    } else {
        if (cpu.dot) {
            o << "cpu{dot=" << cpu.vector_width << ", cols=" << cpu.vectors << ", rows=" << cpu.rows
              << ", panel=" << cpu.panel_tiles << ", stage=" << cpu.stage_strided;
            if (cpu.k_pack > 1) o << ", pack=" << cpu.k_pack;
            o << "}";
        } else {
            o << "cpu{vec=" << cpu.vector_width << "x" << cpu.vectors << ", rows=" << cpu.rows << ", panel="
              << cpu.panel_tiles << ", k_unroll=" << cpu.k_unroll << ", stage=" << cpu.stage_strided;
            if (cpu.depth > 1) o << ", depth=" << cpu.depth;
            // Unpacked kernels keep their old spelling: tuning logs key records by this string.
            if (cpu.k_pack > 1) o << ", pack=" << cpu.k_pack;
            o << "}";
        }
    }
    return o.str();
}

nlohmann::json kernel_to_json(const MicroKernel &k) {
    nlohmann::json j;
    j["gpu"] = k.gpu;
    if (k.gpu) {
        j["threads"] = {k.cuda.threads_x, k.cuda.threads_y};
        j["regs"] = {k.cuda.reg_x, k.cuda.reg_y};
        j["k_unroll"] = k.cuda.k_unroll;
        if (k.cuda.staged()) j["k_tile"] = k.cuda.k_tile;
    } else {
        j["vector_width"] = k.cpu.vector_width;
        j["vectors"] = k.cpu.vectors;
        j["rows"] = k.cpu.rows;
        j["panel_tiles"] = k.cpu.panel_tiles;
        j["k_unroll"] = k.cpu.k_unroll;
        j["stage_strided"] = k.cpu.stage_strided;
        if (k.cpu.dot) j["dot"] = true;  // absent: the vector-along-columns kernel (older logs)
        if (k.cpu.k_pack > 1) j["k_pack"] = k.cpu.k_pack;  // absent: unpacked (older logs)
        if (k.cpu.depth > 1) j["depth"] = k.cpu.depth;      // absent: a two-dimensional tile (older logs)
    }
    return j;
}

MicroKernel kernel_from_json(const nlohmann::json &j) {
    MicroKernel k;
    try {
        k.gpu = j.at("gpu").get<bool>();
        if (k.gpu) {
            k.cuda.threads_x = j.at("threads").at(0).get<int>();
            k.cuda.threads_y = j.at("threads").at(1).get<int>();
            k.cuda.reg_x = j.at("regs").at(0).get<int>();
            k.cuda.reg_y = j.at("regs").at(1).get<int>();
            k.cuda.k_unroll = j.at("k_unroll").get<int>();
            k.cuda.k_tile = j.value("k_tile", 0);  // absent in logs written before staging existed
        } else {
            k.cpu.vector_width = j.at("vector_width").get<int>();
            k.cpu.vectors = j.at("vectors").get<int>();
            k.cpu.rows = j.at("rows").get<int>();
            k.cpu.panel_tiles = j.at("panel_tiles").get<int>();
            k.cpu.k_unroll = j.at("k_unroll").get<int>();
            k.cpu.stage_strided = j.at("stage_strided").get<bool>();
            k.cpu.dot = j.value("dot", false);
            k.cpu.k_pack = j.value("k_pack", 1);
            k.cpu.depth = j.value("depth", 1);
        }
    } catch (const nlohmann::json::exception &e) {
        user_error << "Diet: malformed micro-kernel " << j.dump() << ": " << e.what() << "\n";
    }
    const int lo = 1, hi = 4096;
    for (int v : {k.cpu.vector_width, k.cpu.vectors, k.cpu.rows, k.cpu.panel_tiles, k.cpu.k_unroll, k.cpu.k_pack, k.cpu.depth, k.cuda.threads_x,
                  k.cuda.threads_y, k.cuda.reg_x, k.cuda.reg_y, k.cuda.k_unroll}) {
        user_assert(v >= lo && v <= hi) << "Diet: malformed micro-kernel " << j.dump() << ": a field out of range\n";
    }
    user_assert(k.cuda.k_tile >= 0 && k.cuda.k_tile <= hi)
        << "Diet: malformed micro-kernel " << j.dump() << ": k_tile out of range\n";
    return k;
}

std::optional<int64_t> reduction_points_at(const MatmulPattern &p, const Shape &s) {
    // Several contraction updates run in turn: their reduction points add up.
    int64_t points = 0;
    for (const std::vector<LoopVar> &u : reductions_of(p)) {
        int64_t update_points = 1;
        for (const LoopVar &l : u) {
            const std::optional<int64_t> x = ShapeFamily::evaluate_pipeline_expr(l.extent, s);
            if (!x || *x <= 0) return std::nullopt;
            update_points *= *x;
        }
        points += update_points;
    }
    if (points <= 0) return std::nullopt;
    return points;
}

std::optional<int64_t> family_reduction_max(const MatmulPattern &p, const ShapeFamily &fam, const std::vector<Shape> &shapes) {
    Shape largest;
    for (const ShapeVar &v : fam.vars) largest[v.name] = v.values.back();
    std::optional<int64_t> most = reduction_points_at(p, largest);
    if (!most) return std::nullopt;
    for (const Shape &s : shapes) {
        const std::optional<int64_t> points = reduction_points_at(p, s);
        if (!points) return std::nullopt;
        most = std::max(*most, *points);
    }
    return most;
}

MatmulExtents extents_at_one_shape(const MatmulExtents &e, const std::vector<int64_t> &host_extents) {
    MatmulExtents one = e;
    one.host_extents = {host_extents};
    one.reduction_points.clear();
    return one;
}

MatmulExtents matmul_extents(const MatmulPattern &p, const ShapeFamily &fam, const std::vector<Shape> &shapes) {
    MatmulExtents e;
    e.vector_operands_only = p.depth_dim > 0;
    e.dot_gathered_rows = dot_kernels_gather(p);
    e.packed_natural_panel = std::any_of(p.operands.begin(), p.operands.end(),
                                         [](const ContractionOperand &o) { return packed_in_natural_panel(o); });
    e.dot_gathered_rows_copied = gathered_rows_copied(p);
    e.vector_operand_per_row = vector_operand_moves_with_rows(p);
    e.operand_moves = operand_motion(p);
    for (const Shape &s : shapes) {
        // In the kernel's order (vectors, rows, the rest): what the tile variants are sized on.
        std::vector<int64_t> ext;
        for (int d : p.kernel_dims()) {
            const std::optional<int64_t> x = size_at(p.host_extent.at(d), fam, s);
            internal_assert(x) << "Diet: the extent " << p.host_extent[d] << " of " << p.host << " has no value at "
                               << ShapeFamily::to_string(s) << "\n";
            ext.push_back(*x);
        }
        if (p.vector_period > 0 && !ext.empty()) {
            // Tiled in groups (MatmulPattern::vector_period): K columns, and the groups as a batch
            // dimension of their own, as the schedule runs it (schedule/ApplyMatmul.cpp).
            ext.push_back(ceil_div(ext[0], p.vector_period));
            ext[0] = p.vector_period;
        }
        e.host_extents.push_back(ext);
    }
    for (const Shape &s : shapes) {
        const std::optional<int64_t> points = reduction_points_at(p, s);
        if (!points) {
            e.reduction_points.clear();
            break;
        }
        e.reduction_points.push_back(*points);
    }
    if (p.cpu_reduction_extent() || p.total_reduction_extent) {
        // A panel holds what every update reads of its operand, over every reduction variable.
        e.reduction_max = p.cpu_reduction_extent() ? *p.cpu_reduction_extent() : *p.total_reduction_extent;
    } else if (p.family_reduction_max) {
        // A symbolic reduction whose largest extent over the family is known (set by the plugin):
        // a weight gradient's reduction over 16 T rows is 2048 steps where no host extent
        // exceeds 512, and a panel sized on 512 steps overflowed L2 (apps/results/cpu/probe_styles5/).
        e.reduction_max = *p.family_reduction_max;
    } else {
        // Otherwise bound it by the largest host extent, the usual case for attention-style
        // products (a reduction over T); only sizes the panels.
        for (const auto &ext : e.host_extents) {
            for (int64_t x : ext) e.reduction_max = std::max(e.reduction_max, x);
        }
    }
    e.unstaged_alternatives = unstaged_alternatives(p, e);
    std::vector<Shape> checked = shapes;
    Shape smallest;
    for (const ShapeVar &v : fam.vars) smallest[v.name] = v.values.front();
    checked.push_back(smallest);
    std::optional<int64_t> least;
    for (const Shape &s : checked) {
        const std::optional<int64_t> x = p.host_extent.empty() ? std::nullopt : size_at(p.host_extent.at(p.kernel_dims().at(0)), fam, s);
        if (!x) {
            least = 0;
            break;
        }
        least = least ? std::min(*least, *x) : *x;
    }
    e.vector_extent_min = least.value_or(0);
    if (!p.operands.empty()) {
        e.operand_bytes = 0;
        for (const ContractionOperand &o : p.operands) e.operand_bytes = std::max(e.operand_bytes, o.type.bytes());
    }
    return e;
}

namespace {

// `extent`: the reduction's constant extent (on a CPU, the estimate the kernels are specialized
// on: MatmulPattern::cpu_reduction_extent).
std::vector<int> k_unrolls(const std::optional<int64_t> &extent) {
    // Only exact divisors of a constant reduction extent: a split with a tail would put a guard
    // into the compute loop.
    std::vector<int> u = {1};
    if (extent) {
        for (int k : {2, 4, 8}) {
            if (*extent % k == 0) u.push_back(k);
        }
    }
    return u;
}

bool any_strided(const MatmulPattern &p) {
    return std::any_of(p.operands.begin(), p.operands.end(),
                       [](const ContractionOperand &o) { return o.strided_along_vector(); });
}

// An operand contiguous along the vectors whose reduction steps lie a page (4 KiB) or more apart
// at some training shape (NN's B, b(n, k) with N = 2304; numpy's C(i, j) = sum A(i, k) B(k, j),
// whose A has 16T rows of 4 KiB from T = 64): each step of a tile loads from another page, which
// defeats the hardware prefetchers and the TLB. Staged like the strided ones, its task's panel is
// one dense block (BLAS packs B for the same reason). Staging is one choice for the whole family
// (the dispatch's leaves share it; but see unstaged_alternatives); where the rows are short the
// panel copy is small against the product (measured on numpy's form: apps/results/cpu/forms_probe3).
bool page_strided_rows(const MatmulPattern &p, const MatmulExtents &e) {
    constexpr int64_t kPageBytes = 4096;
    const auto pitch = [&](const ContractionOperand &o) {
        int64_t most = 0;
        for (const auto &ext : e.host_extents) {
            int64_t elems = ext.empty() ? 1 : ext[0];
            if (o.reduction_arg > 1 && ext.size() > 1) elems *= *std::min_element(ext.begin() + 1, ext.end());
            most = std::max(most, elems * p.type.bytes());
        }
        return most;
    };
    return std::any_of(p.operands.begin(), p.operands.end(), [&](const ContractionOperand &o) {
        return o.vector_arg == 0 && o.reduction_arg > 0 && !o.computed && pitch(o) >= kPageBytes;
    });
}

std::vector<int> distinct_desc(std::vector<int> v) {
    std::sort(v.begin(), v.end(), std::greater<int>());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// The packed kernels (CpuKernel::k_pack): column kernels whose operands are read reduction-
// innermost. Staged (a per-task reduction-major panel) when a vector operand is stored otherwise
// or computed; the broadcast operand is copied once per call when it is stored otherwise.
std::vector<MicroKernel> enumerate_packed_cpu_kernels(const MatmulPattern &p, const MatmulExtents &e,
                                                      const CpuLimits &lim, int pack) {
    std::vector<MicroKernel> out;
    const int lanes = lim.lanes(p.type);
    const bool stage = std::any_of(p.operands.begin(), p.operands.end(), [](const ContractionOperand &o) {
        return o.vector_arg >= 0 && (o.reduction_arg != 0 || o.computed);
    });
    for (int vectors = 1; vectors <= 4; vectors++) {
        for (int rows = 1; rows <= 8; rows++) {
            if (vectors * rows + vectors + 1 > lim.vector_registers) continue;
            for (int panel : {1, 2, 4, 8, 16}) {
                if (e.packed_natural_panel && panel > packed_panel_tiles_max(vectors, pack)) continue;
                int64_t panel_bytes = e.reduction_max * panel * vectors * lanes * (p.type.bytes() / pack);  // narrow operands
                if (panel > 1 && panel_bytes > lim.l2_bytes / 2) continue;
                MicroKernel k;
                k.cpu = {lanes, vectors, rows, panel, 1, stage, false, pack};
                out.push_back(k);
            }
        }
    }
    // Packed dot kernels: both operands contiguous along the reduction (NT), each lane sums
    // k_pack steps per instruction over lanes * k_pack consecutive steps: dense vector loads of
    // both operands, where a packed column kernel gathers k_pack-wide groups at a row stride.
    if (dot_kernels_apply(p, lanes * pack)) {
        for (int cols = 1; cols <= 8; cols++) {
            for (int rows = 1; rows <= 8; rows++) {
                if (cols * rows + std::min(cols, rows) + 1 > lim.vector_registers) continue;
                for (int panel : {1, 2, 4, 8}) {
                    MicroKernel k;
                    k.cpu = {lanes, cols, rows, panel, 1, stage, true, pack};
                    out.push_back(k);
                }
            }
        }
    }
    return out;
}

}  // namespace

bool staging_optional(const MatmulPattern &p) {
    return p.depth_dim > 0 && !any_strided(p) && !p.several_updates() && p.fused_reduction.empty();
}

bool unstaged_alternatives(const MatmulPattern &p, const MatmulExtents &e) {
    return staging_optional(p) && page_strided_rows(p, e);
}

std::vector<TileVariant> tile_variants(const MicroKernel &k) {
    std::vector<TileVariant> v;
    if (!k.gpu && k.cpu.dot) {
        // Scalar output columns and rows; halves of each so that small outputs (attention at
        // T = 3) still get several accumulators rather than one.
        const CpuKernel &c = k.cpu;
        for (int cols : distinct_desc({c.vectors, (c.vectors + 1) / 2, 1})) {
            for (int rows : distinct_desc({c.rows, (c.rows + 1) / 2, 1})) {
                TileVariant t;
                t.cols = cols;
                t.rows = rows;
                t.vectors = 0;
                t.vector_lanes = 0;
                v.push_back(t);
            }
        }
        std::stable_sort(v.begin(), v.end(), [](const TileVariant &a, const TileVariant &b) {
            return a.cols * a.rows > b.cols * b.rows;
        });
    } else if (!k.gpu) {
        const CpuKernel &c = k.cpu;
        // Below one full vector: half and quarter vectors (down to 4 lanes), so that outputs
        // narrower than a vector (attention at small T) still run SIMD instead of scalar tiles.
        std::vector<int> widths = {c.tile_cols(), c.vector_width};
        for (int w = c.vector_width / 2; w >= 4; w /= 2) widths.push_back(w);
        widths.push_back(1);
        const auto add = [&](int cols, int rows, int depth) {
            TileVariant t;
            t.cols = cols;
            t.rows = rows;
            t.depth = depth;
            t.vectors = cols >= c.vector_width ? cols / c.vector_width : cols > 1 ? 1 : 0;
            t.vector_lanes = cols >= c.vector_width ? c.vector_width : cols > 1 ? cols : 0;
            v.push_back(t);
        };
        // A deep tile in full vectors only (each variant is one more specialization to compile);
        // narrower outputs and shallower depth extents fall back to the flat chain below.
        if (c.depth > 1) {
            for (int cols : distinct_desc({c.tile_cols(), c.vector_width})) {
                for (int rows : distinct_desc({c.rows, 1})) add(cols, rows, c.depth);
            }
            // Square deep tiles one vector wide below the kernel's rows and depth (fewer
            // accumulators than the kernel's, so within its registers): where both extents are
            // shorter (attention in numpy's index order at T = 2..4) the flat chain below ran one
            // accumulator per vector, a chain of dependent multiply-adds. Probe, 192 heads,
            // AVX-512, dense buffers: T = 2 2.4 us in 2 x 2 tiles against 4.3 us, T = 3 3.4
            // (3 x 3) against 8.5, T = 4 7.7 (2 x 2) against 16.6.
            for (int s = std::min(c.rows, c.depth) - 1; s >= 2; s--) add(c.vector_width, s, s);
            // Four vectors of one row and depth where neither extent holds two (T = 1): four
            // independent multiply-add chains, and four loads in flight where the rows lie
            // pages apart.
            if (c.tile_cols() < 4 * c.vector_width) add(4 * c.vector_width, 1, 1);
        }
        for (int cols : distinct_desc(widths)) {
            for (int rows : distinct_desc({c.rows, 1})) add(cols, rows, 1);
        }
        std::stable_sort(v.begin(), v.end(), [](const TileVariant &a, const TileVariant &b) {
            return a.cols * a.rows * a.depth > b.cols * b.rows * b.depth;
        });
    } else {
        const GpuKernel &g = k.cuda;
        if (g.staged()) return staged_gpu_variants(g);
        v.push_back({g.block_cols(), g.block_rows(), g.threads_x, g.threads_y, g.reg_x, g.reg_y, 1});
        if (g.reg_x * g.reg_y > 1) v.push_back({g.threads_x, g.threads_y, g.threads_x, g.threads_y, 1, 1, 1});
        if (g.threads_x * g.threads_y > 1) v.push_back({1, 1, 1, 1, 1, 1, 1});
    }
    return v;
}

int64_t cpu_task_grain(const TileVariant &t, const CpuKernel &k, const std::vector<int64_t> &kernel_extents,
                       int64_t reduction_points) {
    const int64_t cols = kernel_extents.empty() ? 1 : kernel_extents[0];
    const int64_t rows = kernel_extents.size() > 1 ? kernel_extents[1] : 1;
    int64_t iterations = ceil_div(ceil_div(cols, t.cols), k.panel_tiles);
    // A deep tile's iteration (CpuKernel::depth) is one row tile over the whole depth dimension;
    // staged, one panel over every row and depth index, in its flat variants too (schedule/CpuTiling.cpp).
    const bool deep = task_spans_depth(t, k) && kernel_extents.size() > 2;
    if (deep && !k.stage_strided) iterations *= ceil_div(rows, t.rows);
    for (size_t d = deep ? 3 : 2; d < kernel_extents.size(); d++) iterations *= kernel_extents[d];
    const int64_t work = (deep ? (k.stage_strided ? rows : t.rows) * kernel_extents[2] : rows) *
                         std::min<int64_t>((int64_t)t.cols * k.panel_tiles, cols) * std::max<int64_t>(1, reduction_points);
    return std::clamp<int64_t>(ceil_div(kMinTaskFmas, std::max<int64_t>(work, 1)), 1, std::max<int64_t>(iterations, 1));
}

int64_t ReductionModel::at(const std::vector<int64_t> &kernel_extents) const {
    if (kernel_dim < 0 || kernel_dim >= (int)kernel_extents.size()) return offset;
    return scale * kernel_extents[kernel_dim] + offset;
}

ReductionModel fit_reduction_model(const MatmulPattern &p, const MatmulExtents &e) {
    ReductionModel m;
    m.offset = schedule_reduction_estimate(p);
    const std::vector<int64_t> &K = e.reduction_points;
    if (K.empty() || K.size() != e.host_extents.size()) return m;
    if (std::all_of(K.begin(), K.end(), [&](int64_t k) { return k == K[0]; })) {
        m.offset = K[0];
        return m;
    }
    const size_t dims = e.host_extents[0].size();
    for (size_t d = 0; d < dims; d++) {
        // Two shapes with different extents give the line; every shape must lie on it.
        size_t j = 1;
        while (j < K.size() && e.host_extents[j][d] == e.host_extents[0][d]) j++;
        if (j == K.size()) continue;
        const int64_t dk = K[j] - K[0], dx = e.host_extents[j][d] - e.host_extents[0][d];
        if (dk % dx != 0 || dk / dx <= 0) continue;
        ReductionModel c{(int)d, dk / dx, K[0] - dk / dx * e.host_extents[0][d]};
        bool exact = true;
        for (size_t i = 0; i < K.size(); i++) exact &= c.at(e.host_extents[i]) == K[i];
        if (exact) return c;
    }
    double log_sum = 0;
    for (int64_t k : K) log_sum += std::log((double)std::max<int64_t>(k, 1));
    m.offset = std::max<int64_t>(1, std::llround(std::exp(log_sum / K.size())));
    return m;
}

int64_t schedule_reduction_estimate(const MatmulPattern &p) {
    int64_t total = 0;
    for (const std::vector<LoopVar> &u : reductions_of(p)) {
        int64_t r = 1;
        for (const LoopVar &l : u) r *= constant_value(l.extent).value_or(64);
        total += r;
    }
    return total;
}

const TileVariant &fitting_variant(const std::vector<TileVariant> &v, int64_t cols, int64_t rows, int64_t depth) {
    for (const TileVariant &t : v) {
        if (t.cols <= cols && t.rows <= rows && t.depth <= depth) return t;
    }
    return v.back();
}

const TileVariant &fitting_variant_at(const std::vector<TileVariant> &v, const std::vector<int64_t> &ext) {
    return fitting_variant(v, ext.empty() ? 1 : ext[0], ext.size() > 1 ? ext[1] : 1, ext.size() > 2 ? ext[2] : 1);
}

bool narrower_variant_follows(const std::vector<TileVariant> &v, size_t i) {
    for (size_t j = i + 1; j < v.size(); j++) {
        if (v[j].rows == v[i].rows && v[j].cols < v[i].cols && v[j].cols > 1) return true;
    }
    return false;
}

int64_t min_gpu_blocks(const TileVariant &t, int sm_count) {
    const int64_t warps_per_block = std::max<int64_t>(1, (int64_t)t.threads_x * t.threads_y / 32);
    return ((int64_t)kMinGpuWarpsPerSm * sm_count + warps_per_block - 1) / warps_per_block;
}

const TileVariant &gpu_variant_for(const std::vector<TileVariant> &v, const std::vector<int64_t> &extents, int sm_count) {
    const int64_t cols = extents.at(0), rows = extents.size() > 1 ? extents[1] : 1;
    int64_t outer = 1;
    for (size_t d = 2; d < extents.size(); d++) outer *= extents[d];
    for (size_t i = 0; i < v.size(); i++) {
        const TileVariant &t = v[i];
        if (t.cols > cols || t.rows > rows) continue;
        const int64_t blocks = ((cols + t.cols - 1) / t.cols) * ((rows + t.rows - 1) / t.rows) * outer;
        if (!narrower_variant_follows(v, i) || blocks >= min_gpu_blocks(t, sm_count)) return t;
    }
    return v.back();
}

std::vector<MicroKernel> enumerate_cpu_kernels(const MatmulPattern &p, const MatmulExtents &e, const CpuLimits &lim) {
    std::vector<MicroKernel> out;
    const int lanes = lim.lanes(p.type);
    const int64_t elem = p.type.bytes();
    const int pack = packed_reduction_factor(p, lim);
    if (pack > 1) return enumerate_packed_cpu_kernels(p, e, lim, pack);
    // An operand whose vectors would be gathers whatever its panel's storage (a flattened weight
    // matrix read w(k + K * n)): the dot-product kernels read it along the reduction, densely.
    // Also one the column kernels would copy across the vectors although each value is read once
    // (staged_panel_serves_one_row: a batched matrix-vector product's matrix), where the dot
    // kernels read it in place.
    const bool columns_gather = staged_panel_serves_one_row(p) ||
                                std::any_of(p.operands.begin(), p.operands.end(),
                                            [](const ContractionOperand &o) { return o.vector_gather; });
    // Column kernels stage their strided or page-strided operands; some contractions hold both
    // (unstaged_alternatives).
    std::vector<bool> stagings = {any_strided(p) || page_strided_rows(p, e)};
    // Only where the vector dimension always fills a vector: with heads from 4 (20 heads were
    // fine), a dispatch mixing both failed Halide 14's input bounds check below 8 heads, in both
    // leaves (an operand read 4 past its end in the 4-lane variants; cause not isolated, a
    // numpy-order attention probe with two shape variables, 2026-11-29). Staged alone it passes.
    if (unstaged_alternatives(p, e) && e.vector_extent_min >= lanes) stagings = {true, false};
    // A Func read as two operands (a Gram matrix, sum a(k, i) * a(k, j)) has one wrapper per
    // consumer in Halide 14: a staged panel would serve both roles, its region the task's columns
    // and every row (the whole matrix copied per task: 1.9x slower at N = 256 than two distinct
    // inputs). Where the dot-product kernels read both in place, they replace the staged kernels.
    if (operand_read_twice(p) && dot_kernels_apply(p, lanes)) stagings.erase(std::remove(stagings.begin(), stagings.end(), true), stagings.end());
    for (int vectors = 1; vectors <= 4 && !stagings.empty() && !(columns_gather && dot_kernels_apply(p, lanes)); vectors++) {
        // A predicated reduction (RDom::where) gets one-row tiles: Halide then trims each row's
        // reduction loop to where the predicate holds (a triangular mask k <= m), where a taller
        // tile tests every row's predicate at every step. Triangular dense layer on AVX2:
        // 1.3-2.9x faster at T = 1-16; at T = 128 73-149 ms against 105-128 (noisy; styles_probe.txt of
        // apps/results/cpu/forms_gelu_dotpanels_2026-11-29/).
        for (int rows = 1; rows <= (p.reduction_predicated ? 1 : 8); rows++) {
            // Accumulators + the operand vectors per column vector + the broadcasts of one row
            // must fit (one of each for a product of two operands: MatmulPattern::vector_reads).
            if (vectors * rows + vectors * p.vector_reads + p.broadcast_reads > lim.vector_registers) continue;
            // Groups (MatmulPattern::vector_period): tiles that divide a group (a panel wider than a
            // group is guarded to the group, as any panel wider than its output).
            if (p.vector_period > 0 && p.vector_period % (vectors * lanes) != 0) continue;
            for (int panel : {1, 2, 4, 8, 16}) {
                // The staged panel (reduction x panel columns) must fit in half of L2.
                int64_t panel_bytes = e.reduction_max * panel * vectors * lanes * elem;
                if (panel > 1 && panel_bytes > lim.l2_bytes / 2) continue;
                for (int ku : k_unrolls(p.cpu_inner_reduction_extent())) {
                    for (bool stage : stagings) {
                        MicroKernel k;
                        k.cpu = {lanes, vectors, rows, panel, ku, stage};
                        out.push_back(k);
                    }
                }
            }
        }
    }
    if (p.depth_dim > 0) {
        // Deep tiles (CpuKernel::depth): vectors x rows x depth accumulators, plus one step's
        // vectors along the smaller of rows and depth (the other side streams) and one.
        for (int vectors = 1; vectors <= 2; vectors++) {
            for (int rows = 2; rows <= 8; rows++) {
                for (int depth = 2; depth <= 8; depth++) {
                    if (vectors * rows * depth + vectors * std::min(rows, depth) + 1 > lim.vector_registers) continue;
                    // One panel per task: a task is one row tile over every depth tile
                    // (schedule/ApplyMatmul.cpp), and a wider panel multiplies the row tile's
                    // operand kept in cache (panels of 1-4 measured within noise of each other).
                    for (int panel : {1}) {
                        for (int ku : k_unrolls(p.cpu_inner_reduction_extent())) {
                            for (bool stage : stagings) {
                                MicroKernel k;
                                k.cpu = {lanes, vectors, rows, panel, ku, stage};
                                k.cpu.depth = depth;
                                out.push_back(k);
                            }
                        }
                    }
                }
            }
        }
    }
    if (dot_kernels_apply(p, lanes)) {
        for (int cols = 1; cols <= 8; cols++) {
            for (int rows = 1; rows <= 8; rows++) {
                // Accumulators + the operand vectors of one step along the smaller side + one.
                // (Not times the summand's reads per step, as the column kernels count them: for
                // a complex product that dropped the 3 x 4 tile, whose four rows are the whole
                // output at T = 1, and the 3 x 3 one ran 1.5x slower there: probe_styles5/.)
                // Several updates: each update's lane sums are computed inside it (schedule/
                // CpuTiling.cpp tile_update_dot), one tile of them live at a time.
                if (cols * rows + std::min(cols, rows) + 1 > lim.vector_registers) continue;
                for (int panel : {1, 2, 4, 8, 16, 32}) {
                    // A task runs its panel's columns against every row tile: the panel's operand
                    // rows (reduction x columns) stay in half of L2 while the other operand streams
                    // past them once per task (up to 8 tiles, they always do). The wider panels
                    // only on an output: on a host Halide sizes from its readers (an MLP's first
                    // layer) a panel that does not divide the tiles left a loop-invariant max in
                    // the lanes' index inside the reduction loop (test_forms, the MLP spellings).
                    if (panel > 8 && (!p.host_is_output || e.reduction_max * cols * panel * elem > lim.l2_bytes / 2)) continue;
                    MicroKernel k;
                    k.cpu = {lanes, cols, rows, panel, 1, any_strided(p), true};
                    out.push_back(k);
                }
            }
        }
    }
    return out;
}

std::vector<MicroKernel> enumerate_gpu_kernels(const MatmulPattern &p, const MatmulExtents &e, const GpuLimits &lim) {
    if (gpu_staging_possible(p, lim)) return enumerate_staged_gpu_kernels(p, lim);
    std::vector<MicroKernel> out;
    for (int tx : {8, 16, 32}) {
        for (int ty : {1, 2, 4, 8, 16, 32}) {
            int threads = tx * ty;
            if (threads % lim.warp_size != 0 || threads > std::min(256, lim.max_threads_per_block)) continue;
            for (int rx : {1, 2, 4, 8}) {
                for (int ry : {1, 2, 4, 8}) {
                    // Registers: accumulators, one row and one column of operands, ~24 for addressing.
                    int regs = rx * ry + rx + ry + 24;
                    if (regs > lim.registers_per_thread || regs * threads > lim.registers_per_block) continue;
                    for (int ku : k_unrolls(p.reduction_extent)) {
                        MicroKernel k;
                        k.gpu = true;
                        k.cuda = {tx, ty, rx, ry, ku};
                        out.push_back(k);
                    }
                }
            }
        }
    }
    return out;
}

int64_t kernel_instances(const MicroKernel &k, const std::vector<int64_t> &ext) {
    const std::vector<TileVariant> variants = tile_variants(k);
    const int64_t cols = ext[0], rows = ext.size() > 1 ? ext[1] : 1;
    const TileVariant &t = k.gpu ? fitting_variant(variants, cols, rows) : fitting_variant_at(variants, ext);
    int64_t outer = 1;
    for (size_t d = 2; d < ext.size(); d++) outer *= d == 2 ? ceil_div(ext[d], t.depth) : ext[d];
    if (!k.gpu) {
        int64_t panel_cols = (int64_t)t.cols * k.cpu.panel_tiles;
        return (cols + panel_cols - 1) / panel_cols * outer;
    }
    return ((cols + t.cols - 1) / t.cols) * ((rows + t.rows - 1) / t.rows) * outer;
}

}  // namespace diet
