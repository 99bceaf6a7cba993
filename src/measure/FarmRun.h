// One measurement round on a Slurm cluster. The batch directory (manifest.json and the compiled
// candidates, from write_batch) must be on a path the compute nodes see. The round:
//   1. cuts the entries into shards, one per array task: shard-<k>/manifest.json names its
//      entries (libraries as ../cN.so), and copies diet_runner and a job script into the directory;
//   2. submits one `sbatch --array` job and guards it (CancelGuard: a killed tuner cancels it);
//   3. waits, printing progress on stderr, until every task left the queue or wrote its result;
//   4. reads each shard's result.json (an envelope naming the batch and the shard: a truncated
//      file, or one from another batch, is rejected with a message), resubmits the shards without
//      a valid result once, and records the entries of shards that fail twice as failed measurements;
//   5. writes the merged results.json (import_batch_results can read the directory afterwards)
//      and returns one record per entry, in manifest order, each appended to the tuning log.
// Runtime-only: diet_farm runs it on a login node without Halide.
#pragma once

#include "measure/FarmConfig.h"
#include "measure/Manifest.h"
#include "measure/TuningLog.h"

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace diet {

// A round that cannot run at all (no sbatch, a refused submission, an unreadable manifest).
struct FarmError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs the batch in `dir` on Slurm (see above). `runner`: the diet_runner to copy (the config's
// `runner` wins when set). Throws FarmError when nothing could be submitted.
std::vector<TuningRecord> run_batch_on_farm(const std::string &dir, const FarmConfig &config,
                                            const std::string &runner, const std::string &log_path);

// Reads one shard's result.json: it must be whole JSON, of this batch (`token`) and shard, and
// hold a result for every id of the shard and nothing else. false and *why otherwise.
bool read_shard_result(const std::string &path, const std::string &token, int shard,
                       const std::set<std::string> &ids, std::vector<BatchResult> *results, std::string *why);


// "[diet] farm: job 12: 1 pending, 1 running, 0 done of 2 tasks; 5/32 measured; ETA 0:14"
// (no ETA before the first measurement).
std::string progress_line(const std::string &job, int pending, int running, int done, int tasks, size_t measured,
                          size_t total, double eta_seconds);

}  // namespace diet
