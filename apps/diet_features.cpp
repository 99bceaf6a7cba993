// diet_features: the Ansor per-store features of the schedule Diet chooses for one of the
// project's generators, at one shape, as a table (for people) and as JSON (for tools).
//
//   diet_features dense --shape T=32
//   diet_features batch_matmul_nt --target host-cuda-cuda_capability_80 --shape T=8 --generic
//   diet_features dense --param K=40 --param N=200 --json dense.json
//
// The generator is built with auto_schedule=true (symbolic estimates), its estimates are bound at
// the shape, Diet schedules it (its heuristic micro-kernel; HL_DIET_* options apply), and the
// scheduled pipeline is lowered at that shape and featurized (src/features).
#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "features/Features.h"
#include "features/Lowering.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

using namespace Halide;
using namespace diet;

namespace {

// "NAME=VALUE" -> (NAME, VALUE); empty NAME when malformed.
std::pair<std::string, std::string> split_assignment(const std::string &s) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) return {"", ""};
    return {s.substr(0, eq), s.substr(eq + 1)};
}

std::string format_value(double v) {
    char buf[32];
    if (v == (double)(int64_t)v && std::abs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%lld", (long long)v);
    } else {
        std::snprintf(buf, sizeof buf, "%.4g", v);
    }
    return buf;
}

// Feature names down, buffers across; only the features some row has a nonzero value for.
void print_table(const ProgramFeatures &f, bool transformed, std::ostream &os) {
    std::vector<std::string> names = ansor_feature_names();
    for (const std::string &n : halide_feature_names()) names.push_back("halide." + n);
    auto value = [&](const FeatureRow &r, size_t i) -> double {
        if (i < (size_t)kAnsorFeatureCount) return transformed ? r.ansor[i] : r.ansor_raw[i];
        const size_t j = i - kAnsorFeatureCount;
        return transformed ? r.halide[j] : r.halide_raw[j];
    };
    size_t name_width = 8;
    std::vector<size_t> shown;
    for (size_t i = 0; i < names.size(); i++) {
        bool nonzero = false;
        for (const FeatureRow &r : f.rows) nonzero = nonzero || value(r, i) != 0;
        if (!nonzero) continue;
        shown.push_back(i);
        name_width = std::max(name_width, names[i].size());
    }
    std::vector<size_t> widths;
    for (const FeatureRow &r : f.rows) {
        size_t w = r.buffer.size();
        for (size_t i : shown) w = std::max(w, format_value(value(r, i)).size());
        widths.push_back(w);
    }
    auto pad = [](const std::string &s, size_t w, bool right) {
        std::string fill(w > s.size() ? w - s.size() : 0, ' ');
        return right ? fill + s : s + fill;
    };
    os << pad("feature", name_width, false);
    for (size_t c = 0; c < f.rows.size(); c++) os << "  " << pad(f.rows[c].buffer, widths[c], true);
    os << "\n";
    for (size_t i : shown) {
        // Buffer slots B0..B4 describe different buffers in each row: say which.
        os << pad(names[i], name_width, false);
        for (size_t c = 0; c < f.rows.size(); c++) os << "  " << pad(format_value(value(f.rows[c], i)), widths[c], true);
        os << "\n";
    }
    os << pad("slots (B0..B4)", name_width, false) << "\n";
    for (int s = 0; s < kAnsorMaxBuffers; s++) {
        os << pad("  B" + std::to_string(s), name_width, false);
        for (size_t c = 0; c < f.rows.size(); c++) {
            const std::string &b = f.rows[c].slots[s];
            os << "  " << pad(b.empty() ? "-" : b, widths[c], true);
        }
        os << "\n";
    }
}

nlohmann::json to_json(const std::string &generator, const Target &t, const Shape &shape, const LoweredProgram &lp,
                       const ProgramFeatures &f) {
    nlohmann::json j;
    j["generator"] = generator;
    j["target"] = t.to_string();
    j["shape"] = shape;
    j["buffers"] = lp.binding.buffers;
    j["shape_generic"] = f.shape_generic;
    j["gpu_kernels"] = f.gpu_kernels;
    j["unbounded_loops"] = f.unbounded_loops;
    j["violated_assertions"] = lp.violated_assertions;
    j["feature_names"] = ansor_feature_names();
    j["halide_feature_names"] = halide_feature_names();
    j["rows"] = nlohmann::json::array();
    for (const FeatureRow &r : f.rows) {
        j["rows"].push_back({{"buffer", r.buffer},
                             {"slots", r.slots},
                             {"features", r.ansor},
                             {"halide_features", r.halide},
                             {"raw", r.ansor_raw},
                             {"halide_raw", r.halide_raw}});
    }
    j["pack_sum"] = pack_sum(f);
    return j;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"Ansor per-store features of the schedule Diet chooses for a generator, at one shape"};
    std::string generator, target_string = "host", json_path;
    std::vector<std::string> shape_args, param_args;
    int parallelism = (int)std::max(1u, std::thread::hardware_concurrency());
    bool generic = false, transformed = false, print_stmt = false;
    app.add_option("generator", generator, "Generator name (" + [] {
        std::string s;
        for (const std::string &n : Internal::GeneratorRegistry::enumerate()) s += (s.empty() ? "" : ", ") + n;
        return s;
    }() + ")")->required();
    app.add_option("--target", target_string, "Halide target, e.g. host, host-cuda-cuda_capability_80");
    app.add_option("--shape", shape_args, "Shape variable value, NAME=VALUE (repeatable); default: the family's representative");
    app.add_option("--param", param_args, "Generator parameter, NAME=VALUE (repeatable)");
    app.add_option("--parallelism", parallelism, "Cores Diet plans for")->check(CLI::PositiveNumber);
    app.add_flag("--generic", generic, "Shape-generic variant (per thread block / parallel task)");
    app.add_flag("--transformed", transformed, "Print log2p-transformed values (the model's inputs) instead of raw ones");
    app.add_option("--json", json_path, "Write the features as JSON to this file");
    app.add_flag("--stmt", print_stmt, "Also print the lowered statement the features are computed on");
    CLI11_PARSE(app, argc, argv);

    try {
        const Target target = runnable_target_from_string(target_string);
        std::map<std::string, std::string> gen_params;
        for (const std::string &a : param_args) {
            auto [k, v] = split_assignment(a);
            if (k.empty()) throw CLI::ValidationError("--param", "expected NAME=VALUE, got '" + a + "'");
            gen_params[k] = v;
        }
        Shape requested;
        for (const std::string &a : shape_args) {
            auto [k, v] = split_assignment(a);
            if (k.empty()) throw CLI::ValidationError("--shape", "expected NAME=VALUE, got '" + a + "'");
            try {
                requested[k] = std::stoll(v);
            } catch (const std::exception &) {
                throw CLI::ValidationError("--shape", "'" + v + "' is not an integer");
            }
        }

        // Halide 14 hands a generator's pipeline only to an autoscheduler: Diet's work and the
        // feature extraction run inside one, which then stops the build (no code generation).
        struct Result {
            Shape shape;
            LoweredProgram lowered;
            ProgramFeatures features;
        };
        struct Stop {};
        Result result;
        Pipeline::add_autoscheduler("DietFeatures", [&](const Pipeline &p, const Target &t, const MachineParams &mp,
                                                        AutoSchedulerResults *) {
            // The shape: the family's representative, overridden by --shape.
            std::vector<Internal::Function> outputs;
            for (const Func &f : p.outputs()) outputs.push_back(f.function());
            const Options opts = Options::from_map(Options::environment_map());
            ShapeFamily family = read_shape_family(outputs, opts);
            result.shape = family.representative();
            for (const auto &[k, v] : requested) {
                if (!result.shape.count(k)) {
                    std::string known;
                    for (const ShapeVar &sv : family.vars) known += (known.empty() ? "" : ", ") + sv.name;
                    throw CLI::ValidationError("--shape", k + " is not a shape variable of " + generator +
                                                              " (its shape variables: " + (known.empty() ? "none" : known) +
                                                              ")");
                }
                result.shape[k] = v;
            }
            // Bind before Diet makes the estimates constant (at its representative shape).
            const ShapeBinding binding = bind_shape(p, result.shape);
            autoschedule(p, t, mp.parallelism, (int64_t)mp.last_level_cache_size, opts);
            result.lowered = lower_at_shape(p, t, binding);
            FeatureOptions fo;
            fo.shape_generic = generic;
            result.features = extract_features(result.lowered, fo);
            throw Stop{};
        });
        Pipeline::set_default_autoscheduler_name("DietFeatures");

        GeneratorContext ctx(target, /*auto_schedule=*/true, MachineParams(parallelism, 16 << 20, 40));
        auto gen = Internal::GeneratorRegistry::create(generator, ctx);
        Internal::GeneratorParamsMap gp;
        for (const auto &[k, v] : gen_params) gp[k] = v;
        gen->set_generator_param_values(gp);
        try {
            gen->build_module(generator);
            throw std::runtime_error("the generator was built without running the autoscheduler");
        } catch (const Stop &) {
        }
        const Shape &shape = result.shape;
        const LoweredProgram &lowered = result.lowered;
        const ProgramFeatures &features = result.features;

        std::cout << generator << " at " << ShapeFamily::to_string(shape) << " for " << target.to_string() << " ("
                  << (generic ? "shape-generic: per thread block / parallel task" : "whole program") << ", "
                  << (transformed ? "log2p values" : "raw values") << "): " << features.rows.size() << " stored buffer(s)";
        if (target.has_gpu_feature()) std::cout << ", " << features.gpu_kernels << " GPU kernel(s)";
        std::cout << "\n";
        for (const std::string &a : lowered.violated_assertions) {
            std::cout << "warning: fails at this shape: " << a << "\n";
        }
        if (features.unbounded_loops) {
            std::cout << "warning: " << features.unbounded_loops << " loop(s) without an upper bound counted as 1\n";
        }
        if (print_stmt) std::cout << lowered.stmt << "\n";
        print_table(features, transformed, std::cout);

        if (!json_path.empty()) {
            std::ofstream out(json_path);
            out << to_json(generator, target, shape, lowered, features).dump(1) << "\n";
            if (!out) {
                std::cerr << "diet_features: could not write " << json_path << "\n";
                return 1;
            }
            std::cout << "wrote " << json_path << "\n";
        }
    } catch (const CLI::Error &e) {
        return app.exit(e);
    } catch (const std::exception &e) {  // Halide's errors (CompileError, ...) included
        std::string what = e.what();
        if (what.empty() || what.back() != '\n') what += "\n";
        std::cerr << "diet_features: " << what;
        return 1;
    }
    return 0;
}
