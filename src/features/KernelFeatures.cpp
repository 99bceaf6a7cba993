#include "features/KernelFeatures.h"

#include "common/Errors.h"
#include "features/Features.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace diet {

nlohmann::json ContractionSummary::to_json() const {
    return {{"operands", operands},   {"strided_operands", strided_operands}, {"computed_operands", computed_operands},
            {"type_bits", type_bits}, {"is_float", is_float},                 {"update_on_output", update_on_output},
            {"epilogue", epilogue},   {"reduction_vars", reduction_vars},     {"host_dims", host_dims}};
}

ContractionSummary ContractionSummary::from_json(const nlohmann::json &j) {
    ContractionSummary c;
    try {
        c.operands = j.at("operands").get<int>();
        c.strided_operands = j.at("strided_operands").get<int>();
        c.computed_operands = j.at("computed_operands").get<int>();
        c.type_bits = j.at("type_bits").get<int>();
        c.is_float = j.at("is_float").get<bool>();
        c.update_on_output = j.at("update_on_output").get<bool>();
        c.epilogue = j.at("epilogue").get<int>();
        c.reduction_vars = j.at("reduction_vars").get<int>();
        c.host_dims = j.at("host_dims").get<int>();
    } catch (const nlohmann::json::exception &e) {
        user_error << "Diet: malformed contraction summary " << j.dump() << ": " << e.what() << "\n";
    }
    return c;
}

ContractionSummary summarize(const MatmulPattern &p) {
    ContractionSummary c;
    c.operands = (int)p.operands.size();
    for (const ContractionOperand &o : p.operands) {
        c.strided_operands += o.strided_along_vector();
        c.computed_operands += o.computed;
    }
    c.type_bits = p.type.bits();
    c.is_float = p.type.is_float();
    // A lifted update runs as the canonical form does.
    c.update_on_output = p.update_on_output && !p.update_liftable;
    c.epilogue = (int)p.epilogue.size();
    c.reduction_vars = (int)p.reduction.size();
    // As the kernel runs it: grouped contractions (MatmulPattern::vector_period) tile their groups
    // as one more batch dimension (space/MicroKernel.cpp matmul_extents).
    c.host_dims = (int)p.acc_arg_of_host_dim.size() + (p.vector_period > 0 ? 1 : 0);
    return c;
}

nlohmann::json MachineSummary::to_json() const {
    return {{"vector_bits", vector_bits}, {"vector_registers", vector_registers}, {"cores", cores},
            {"l1_bytes", l1_bytes},       {"l2_bytes", l2_bytes},                 {"llc_bytes", llc_bytes}};
}

MachineSummary MachineSummary::from_json(const nlohmann::json &j) {
    MachineSummary m;
    try {
        m.vector_bits = j.at("vector_bits").get<int>();
        m.vector_registers = j.at("vector_registers").get<int>();
        m.cores = j.at("cores").get<int>();
        m.l1_bytes = j.at("l1_bytes").get<int64_t>();
        m.l2_bytes = j.at("l2_bytes").get<int64_t>();
        m.llc_bytes = j.at("llc_bytes").get<int64_t>();
    } catch (const nlohmann::json::exception &e) {
        user_error << "Diet: malformed machine summary " << j.dump() << ": " << e.what() << "\n";
    }
    user_assert(m.vector_bits > 0 && m.vector_registers > 0 && m.cores > 0 && m.l1_bytes > 0 && m.l2_bytes > 0)
        << "Diet: malformed machine summary " << j.dump() << ": sizes must be positive\n";
    return m;
}

MachineSummary summarize(const CpuLimits &c) {
    MachineSummary m;
    m.vector_bits = c.vector_bits;
    m.vector_registers = c.vector_registers;
    m.cores = c.cores;
    m.l1_bytes = c.l1_bytes;
    m.l2_bytes = c.l2_bytes;
    m.llc_bytes = c.llc_bytes;
    return m;
}

namespace {

using Named = std::vector<std::pair<const char *, float>>;

int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

// The one place that says what each feature is; names and values come from it together.
Named evaluate(const KernelAtShape &in) {
    const CpuKernel &k = in.kernel.cpu;
    const MachineSummary &m = in.machine;
    const ContractionSummary &c = in.contraction;
    const int64_t cols = in.extents.empty() ? 1 : in.extents[0];
    const int64_t rows = in.extents.size() > 1 ? in.extents[1] : 1;
    int64_t outer = 1;
    for (size_t d = 2; d < in.extents.size(); d++) outer *= in.extents[d];
    const std::vector<TileVariant> variants = tile_variants(in.kernel);
    const TileVariant &t = fitting_variant_at(variants, in.extents);
    const int64_t K = std::max<int64_t>(1, in.reduction_points);
    const double bytes = std::max(1, c.type_bits / 8);

    // Registers: the accumulators of the selected tile, one vector of the streamed operand per
    // tile vector, one broadcast of the other.
    // A dot-product kernel (CpuKernel::dot) holds one vector per output of its tile and loads
    // one vector of each operand row/column per step.
    // A deep tile (CpuKernel::depth) holds vectors x rows x depth accumulators and loads a vector
    // per row and per depth index each step (no broadcast); the features of every other kernel
    // are as the shipped model was trained on.
    const int vecs = k.dot ? t.cols : std::max(1, t.vectors);
    const int accumulators = vecs * t.rows * t.depth;
    const int registers_needed =
        accumulators + (k.dot ? std::min(t.cols, t.rows) : t.depth > 1 ? vecs * std::min(t.rows, t.depth) : vecs) + 1;
    const double loads_per_step = t.depth > 1 ? (double)vecs * (t.rows + t.depth) : (double)(vecs + t.rows);
    // A task owns a panel of panel_tiles tiles along the vectors and loops over every row: its
    // panel of the streamed operand (cols x K) is reused by each row tile, the broadcast operand
    // (rows x K) is read once per panel.
    const int64_t panel_cols = (int64_t)t.cols * k.panel_tiles;
    const double panel_bytes = (double)std::min(panel_cols, cols) * K * bytes;
    const double row_tile_bytes = (double)t.rows * K * bytes * (t.depth > 1 ? t.cols : 1);
    const double tile_working_set = (double)(t.depth > 1 ? t.cols * (t.rows + t.depth) : t.cols + t.rows) * K * bytes;
    // Panels, and the thread-pool tasks the schedule groups them into (the task grain).
    const int64_t panels = kernel_instances(in.kernel, in.extents);
    // The schedule computes its grain at run time from these extents (schedule/TaskGrain.h).
    const int64_t grain = cpu_task_grain(t, k, in.extents, K);
    const int64_t tasks = ceil_div(panels, grain);
    const double waves = (double)ceil_div(tasks, m.cores);
    const double wave_efficiency = (double)tasks / (waves * m.cores);
    const double padding = kernel_padding_efficiency(in.kernel, in.extents);
    const int64_t row_tiles = ceil_div(rows, t.rows);
    const double flops = 2.0 * (double)cols * rows * outer * K;
    const double lane_use = k.dot ? 1.0 : t.vectors ? (double)t.vector_lanes / k.vector_width : 1.0 / k.vector_width;

    // The register-tile intensity heuristic's score (space/MicroKernel.h) as one more feature: the
    // analytic prior, which the trees may correct rather than rediscover.
    MatmulExtents one;
    one.host_extents = {in.extents};
    one.reduction_max = K;
    const double prior = heuristic_score(in.kernel, one, m.cores);

    auto L = [](double x) { return log2p((float)x); };
    return {
        // The kernel's fields.
        {"kernel.vector_width", L(k.vector_width)},
        {"kernel.vectors", L(k.vectors)},
        {"kernel.rows", L(k.rows)},
        {"kernel.panel_tiles", L(k.panel_tiles)},
        {"kernel.k_unroll", L(k.k_unroll)},
        {"kernel.stage_strided", k.stage_strided ? 1.f : 0.f},
        {"kernel.dot", k.dot ? 1.f : 0.f},
        // The tile variant this shape selects.
        {"tile.cols", L(t.cols)},
        {"tile.rows", L(t.rows)},
        {"tile.vectors", L(t.vectors)},
        {"tile.lane_use", (float)lane_use},
        {"tile.scalar", t.vectors == 0 ? 1.f : 0.f},
        // Registers and arithmetic intensity of the register tile.
        {"regs.accumulators", L(accumulators)},
        {"regs.pressure", (float)registers_needed / m.vector_registers},
        {"regs.spilled", L(std::max(0, registers_needed - m.vector_registers))},
        {"regs.fma_per_load", (float)(accumulators / loads_per_step)},
        // Caches: what a task streams and what one tile reads, against L1 and L2.
        {"cache.panel_bytes", L(panel_bytes)},
        {"cache.panel_per_l1", (float)(panel_bytes / m.l1_bytes)},
        {"cache.panel_per_l2", (float)(panel_bytes / m.l2_bytes)},
        {"cache.row_tile_bytes", L(row_tile_bytes)},
        {"cache.row_tile_per_l1", (float)(row_tile_bytes / m.l1_bytes)},
        {"cache.tile_working_set_per_l1", (float)(tile_working_set / m.l1_bytes)},
        // The kernel meets the shape: tasks against cores, recomputed work, loop trips.
        {"shape.panels", L(panels)},
        {"shape.task_grain", L(grain)},
        {"shape.tasks", L(tasks)},
        {"shape.tasks_per_core", L(waves)},
        {"shape.wave_efficiency", (float)wave_efficiency},
        {"shape.padding_efficiency", (float)padding},
        {"shape.row_tiles_per_task", L(row_tiles)},
        {"shape.panel_tiles_used", L(ceil_div(std::min(panel_cols, cols), t.cols))},
        {"shape.cols", L(cols)},
        {"shape.rows", L(rows)},
        {"shape.outer", L(outer)},
        {"shape.reduction", L(K)},
        {"shape.k_unroll_trips", L(ceil_div(K, k.k_unroll))},
        {"shape.flops", L(flops)},
        {"shape.flops_per_task", L(flops / (double)std::max<int64_t>(1, tasks))},
        {"prior.heuristic_score", L(1000.0 * prior)},
        // The contraction as written.
        {"form.operands", L(c.operands)},
        {"form.strided_operands", L(c.strided_operands)},
        {"form.computed_operands", L(c.computed_operands)},
        {"form.type_bits", L(c.type_bits)},
        {"form.is_float", c.is_float ? 1.f : 0.f},
        {"form.update_on_output", c.update_on_output ? 1.f : 0.f},
        {"form.epilogue", L(c.epilogue)},
        {"form.reduction_vars", L(c.reduction_vars)},
        {"form.host_dims", L(c.host_dims)},
        // The machine (one model may serve machines of one instruction set with other caches).
        {"machine.lanes_per_vector", L((double)m.vector_bits / c.type_bits)},
        {"machine.vector_registers", L(m.vector_registers)},
        {"machine.cores", L(m.cores)},
    };
}

}  // namespace

const std::vector<std::string> &kernel_feature_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        KernelAtShape probe;
        probe.extents = {1, 1};
        for (const auto &[name, v] : evaluate(probe)) n.push_back(name);
        return n;
    }();
    return names;
}

int kernel_feature_index(const std::string &name) {
    const auto &n = kernel_feature_names();
    auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : (int)(it - n.begin());
}

std::vector<float> kernel_features(const KernelAtShape &k) {
    internal_assert(!k.kernel.gpu) << "Diet: loop-nest features are for CPU micro-kernels\n";
    std::vector<float> v;
    for (const auto &[name, x] : evaluate(k)) v.push_back(x);
    return v;
}

}  // namespace diet
