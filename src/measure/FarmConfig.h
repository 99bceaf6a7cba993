// Measuring on a Slurm cluster ("farm"): the settings, and the pure pieces of the protocol (how a
// batch is cut into shards, the sbatch command line, squeue's output, the result envelope). No
// Halide and no processes here, so the unit tests exercise them without a cluster and diet_farm
// (which runs on a login node without Halide) links them. FarmRun.h runs the protocol.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace diet {

// HL_DIET_FARM_ARGS: comma-separated key=value pairs, e.g.
//   partition=gpu,account=proj42,time=00:30:00,gres=gpu:1,tasks=8
struct FarmConfig {
    std::string partition, account, qos;  // passed to sbatch when set
    std::string time_limit;               // "time": per array task, Slurm's syntax; "": derived from the timeout
    std::string gres;                     // e.g. "gpu:1": the task owns that GPU
    int tasks = 4;                        // array tasks per round at most (fewer when the round is smaller)
    int cpus_per_task = 0;                // "cpus": --cpus-per-task and HL_NUM_THREADS; 0: not passed
    // "exclusive": --exclusive (the task owns its node). Default: on, unless gres names the device
    // the task owns, or cpus says how many CPUs it owns.
    int exclusive = -1;
    double poll_seconds = 5;              // "poll": squeue at most this often (result files are checked every 0.5 s)
    std::string runner;                   // "runner": diet_runner to copy into each round; "": found next to Diet
    std::vector<std::string> extra;       // "sbatch": more sbatch arguments, separated by spaces
    bool keep = false;                    // "keep": leave each round's directory after importing it

    bool exclusive_node() const { return exclusive >= 0 ? exclusive == 1 : gres.empty() && cpus_per_task == 0; }
};

// Parses HL_DIET_FARM_ARGS; false and *why (naming the key) on an unknown key or a bad value.
bool parse_farm_args(const std::string &text, FarmConfig *config, std::string *why);

// Shards: the indices of `shape_of_entry` (one per batch entry, its shape index) cut into at most
// `tasks` contiguous, balanced groups after a stable sort by shape, so that each task builds the
// inputs and reference of as few shapes as possible.
std::vector<std::vector<size_t>> shard_entries(const std::vector<int> &shape_of_entry, int tasks);

// The arguments after `sbatch` for one array over `task_ids` (e.g. {0,1,2} or {3} on a requeue).
// `default_minutes`: the time limit when the config sets none.
std::vector<std::string> sbatch_arguments(const FarmConfig &c, const std::vector<int> &task_ids,
                                          const std::string &job_name, const std::string &output_pattern,
                                          int default_minutes, const std::string &script);
// "0-3", "1,4", "2-3,7": Slurm's --array syntax.
std::string array_spec(const std::vector<int> &task_ids);

// Minutes for one task: each measurement may take `timeout_seconds` (plus its reference), with
// room for starting up; at least 5.
int default_task_minutes(size_t entries_in_largest_shard, double timeout_seconds);

// `squeue -h -r -o %i|%T` output -> state of each array task of `job_id` ("12_3" -> 3). A
// pending array may be listed as one line "12_[0-3]"; every task of the range is pending then.
std::map<int, std::string> parse_squeue(const std::string &text, const std::string &job_id);
// Pending-like states (waiting for resources, configuring, being requeued by Slurm).
bool is_pending_state(const std::string &state);

// The job script of a round: task $SLURM_ARRAY_TASK_ID runs `runner` on shard-<id>/ and, when it
// measured every entry, wraps its results.json into shard-<id>/result.json with the batch token.
std::string job_script(const std::string &round_dir, const std::string &runner, const std::string &token);

// The envelope a task writes: {"format":"diet-farm-result/1","batch":...,"shard":...,"attempt":...,"results":{...}}.
constexpr const char *kFarmResultFormat = "diet-farm-result/1";

}  // namespace diet
