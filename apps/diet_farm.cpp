// diet_farm: runs a batch directory (written by diet::write_batch, or kept by a tuning run with
// HL_DIET_FARM_ARGS=...,keep=1) on a Slurm cluster by hand: cuts it into shards, submits one
// `sbatch --array` job, waits (progress on stderr), requeues a failed task once, and imports the
// results: <dir>/results.json, and records appended to --log. For teams whose build machine
// cannot submit jobs: copy the batch directory to the cluster, run this on a login node (it
// needs no Halide), copy the directory or the log back. See src/measure/FarmRun.h.
//
//   diet_farm <batch-dir> [--args partition=gpu,gres=gpu:1,tasks=8] [--log tuning.log] [--runner PATH]
//
// Exit status: 0 when every candidate was measured (a candidate's own error, such as a crash or a
// wrong result, counts as measured), 1 when some array task failed twice (its candidates are
// recorded as failed measurements), 2 when the batch could not be submitted at all.
#include "measure/FarmRun.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <climits>
#include <iostream>

using namespace diet;

namespace {

// diet_runner is built next to diet_farm.
std::string runner_beside_me() {
    char buf[PATH_MAX] = {0};
    ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    std::string self = n > 0 ? std::string(buf, (size_t)n) : "";
    size_t slash = self.rfind('/');
    std::string beside = slash == std::string::npos ? "" : self.substr(0, slash) + "/diet_runner";
    return !beside.empty() && access(beside.c_str(), X_OK) == 0 ? beside : "diet_runner";
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"Measures a Diet batch directory as a Slurm array job (submit, wait, import)"};
    std::string dir, args, log, runner;
    app.add_option("dir", dir, "batch directory holding manifest.json, on a path the compute nodes share")->required();
    app.add_option("--args", args, "farm_args, as HL_DIET_FARM_ARGS: partition=,account=,qos=,time=,gres=,tasks=,cpus=,exclusive=,poll=,sbatch=");
    app.add_option("--log", log, "tuning log to append the records to");
    app.add_option("--runner", runner, "diet_runner to run on the nodes (default: the one beside diet_farm)");
    CLI11_PARSE(app, argc, argv);

    FarmConfig config;
    std::string why;
    if (!parse_farm_args(args, &config, &why)) {
        std::cerr << "diet_farm: " << why << "\n";
        return 2;
    }
    if (!runner.empty()) config.runner = runner;
    std::vector<TuningRecord> records;
    try {
        records = run_batch_on_farm(dir, config, runner_beside_me(), log);
    } catch (const FarmError &e) {
        std::cerr << "diet_farm: " << e.what() << "\n";
        return 2;
    }
    int measured = 0, failed_here = 0, lost = 0;
    for (const TuningRecord &r : records) {
        if (r.ok()) {
            measured++;
        } else if (r.error.rfind("farm:", 0) == 0) {
            lost++;
        } else {
            failed_here++;
        }
    }
    std::cout << "diet_farm: " << records.size() << " candidates: " << measured << " measured, " << failed_here
              << " failed on the node (crash, hang, wrong result), " << lost << " lost (array task failed twice)\n";
    return lost > 0 ? 1 : 0;
}
