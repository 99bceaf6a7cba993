#include "measure/FarmMeasure.h"
#include "common/Errors.h"
#include "measure/Batch.h"
#include "measure/FarmRun.h"

#include <dlfcn.h>
#include <unistd.h>

#include <ctime>
#include <algorithm>
#include <filesystem>
#include <iostream>

namespace diet {

namespace {

// Unique per round and per tuner, so two tuners sharing a farm_dir never share a round.
std::string round_dir_name(const std::string &farm_dir) {
    static int round = 0;
    return farm_dir + "/round-" + std::to_string(getpid()) + "-" + std::to_string((long long)std::time(nullptr)) + "-" +
           std::to_string(round++);
}

}  // namespace

std::string default_runner_path() {
    Dl_info info;
    if (dladdr((void *)&default_runner_path, &info) && info.dli_fname) {
        std::filesystem::path self = std::filesystem::absolute(info.dli_fname).parent_path();
        for (const auto &candidate : {self / "diet_runner", self / ".." / "bin" / "diet_runner"}) {
            if (access(candidate.c_str(), X_OK) == 0) return candidate.lexically_normal().string();
        }
    }
    return "diet_runner";
}

int measurements_per_round(const Options &opts) {
    constexpr int kPerDevice = 8;
    if (opts.farm.empty()) return kPerDevice;
    FarmConfig config;
    std::string why;
    user_assert(parse_farm_args(opts.farm_args, &config, &why)) << "Diet: " << why << "\n";
    return kPerDevice * std::max(1, config.tasks);
}

std::vector<TuningRecord> measure_jobs(Measurer &measurer, const Options &opts,
                                       const std::vector<Halide::Internal::Function> &outputs,
                                       const std::vector<MeasureJob> &jobs, const CpuLimits &cpu) {
    if (opts.farm.empty()) return measurer.measure_candidates(outputs, jobs, cpu);
    FarmConfig config;
    std::string why;
    user_assert(parse_farm_args(opts.farm_args, &config, &why)) << "Diet: " << why << "\n";
    const std::string farm_dir = opts.farm_dir.empty() ? "diet-farm" : opts.farm_dir;
    std::error_code ec;
    std::filesystem::create_directories(farm_dir, ec);
    user_assert(!ec) << "Diet: cannot create the farm directory " << farm_dir << ": " << ec.message() << "\n";
    const std::string dir = round_dir_name(farm_dir);
    write_batch(dir, outputs, jobs, cpu, measurer.setup());
    std::vector<TuningRecord> records;
    try {
        records = run_batch_on_farm(dir, config, default_runner_path(), measurer.setup().log_path);
    } catch (const FarmError &e) {
        user_error << "Diet: measuring on Slurm failed: " << e.what() << " (round directory: " << dir << ")\n";
    }
    user_assert(records.size() == jobs.size()) << "Diet: the farm returned " << records.size() << " records for "
                                               << jobs.size() << " candidates\n";
    if (!config.keep) std::filesystem::remove_all(dir, ec);
    return records;
}

}  // namespace diet
