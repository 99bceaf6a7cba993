#include "measure/FarmRun.h"
#include "measure/FarmProcess.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

namespace diet {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kSqueueGiveUpSeconds = 600;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Names this round's files: a result envelope carrying another token is not this round's.
std::string new_token() {
    std::random_device rd;
    uint64_t x = ((uint64_t)rd() << 32) ^ rd() ^ ((uint64_t)getpid() << 16) ^ (uint64_t)std::time(nullptr);
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)x);
    return buf;
}

std::string shard_dir(const std::string &dir, int k) { return dir + "/shard-" + std::to_string(k); }

struct Shard {
    std::vector<size_t> entries;  // into the manifest
    std::set<std::string> ids;
    bool done = false;            // a valid result.json was read
    bool finished = false;        // left the queue, or wrote a result (valid or not)
    std::vector<BatchResult> results;
    std::string why;              // why it has no valid result
};

void write_shards(const std::string &dir, const BatchManifest &m, const std::vector<Shard> &shards,
                  const std::string &token) {
    for (size_t k = 0; k < shards.size(); k++) {
        // The shard's manifest is the batch's with only its entries; paths point one level up,
        // so the compiled libraries are not copied.
        BatchManifest sub = m;
        sub.entries.clear();
        for (size_t i : shards[k].entries) {
            BatchEntry e = m.entries[i];
            if (!e.library.empty()) e.library = "../" + e.library;
            sub.entries.push_back(e);
        }
        for (BatchShape &s : sub.shapes) {
            if (!s.reference_library.empty()) s.reference_library = "../" + s.reference_library;
        }
        const std::string d = shard_dir(dir, (int)k);
        mkdir(d.c_str(), 0755);
        // A directory run before (by hand, or a tuner resumed with keep=1) must not show its old
        // results as this round's progress.
        unlink((d + "/results.json").c_str());
        unlink((d + "/result.json").c_str());
        nlohmann::json j = manifest_to_json(sub);
        j["farm_batch"] = token;
        j["farm_shard"] = k;
        std::string why;
        if (!write_json_file(d + "/manifest.json", j, &why)) throw FarmError(why);
    }
}

// How many entries a running shard has measured so far (diet_runner rewrites results.json after
// each one, atomically); 0 when it has not started.
size_t partial_count(const std::string &d) {
    nlohmann::json j;
    std::vector<BatchResult> r;
    std::string why;
    if (access((d + "/results.json").c_str(), R_OK) != 0) return 0;
    return read_json_file(d + "/results.json", &j, &why) && results_from_json(j, &r, &why) ? r.size() : 0;
}

std::string last_line_of(const std::string &path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty()) last = line;
    }
    return last;
}

std::string submit(const std::string &dir, const FarmConfig &c, const std::vector<int> &tasks,
                   const std::string &token, int minutes) {
    std::vector<std::string> argv = {"sbatch"};
    for (const std::string &a : sbatch_arguments(c, tasks, "diet-" + token.substr(0, 8), dir + "/slurm-%A_%a.out",
                                                 minutes, dir + "/diet_farm_job.sh")) {
        argv.push_back(a);
    }
    CommandResult r = run_command(argv, 120);
    if (r.status != 0) throw FarmError("sbatch refused the job: " + r.output);
    // --parsable prints "<job id>" or "<job id>;<cluster>".
    std::string id = r.output.substr(0, r.output.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        throw FarmError("cannot read a job id in sbatch's output: " + r.output);
    }
    return id;
}

// Reads the result files of the shards in `tasks` that have not finished yet.
void read_results(const std::string &dir, const std::string &token, const std::vector<int> &tasks,
                  std::vector<Shard> *shards) {
    for (int k : tasks) {
        Shard &s = (*shards)[k];
        const std::string path = shard_dir(dir, k) + "/result.json";
        if (s.finished || access(path.c_str(), F_OK) != 0) continue;
        s.finished = true;
        s.done = read_shard_result(path, token, k, s.ids, &s.results, &s.why);
        if (!s.done) std::cerr << "[diet] farm: rejected " << path << ": " << s.why << "\n";
    }
}

// Waits until every task of `tasks` wrote its result or left Slurm's queue, printing progress.
void wait_for_job(const std::string &dir, const std::string &job, const std::vector<int> &tasks,
                  const std::string &token, const FarmConfig &c, std::vector<Shard> *shards) {
    const auto start = Clock::now();
    auto last_squeue = start - std::chrono::hours(1), last_print = start;
    std::map<int, std::string> states;
    std::string last_progress;
    int squeue_failures = 0;
    auto first_failure = start;
    size_t total = 0, measured_at_start = 0;
    for (int k : tasks) total += (*shards)[k].entries.size();
    for (bool first = true;; first = false) {
        read_results(dir, token, tasks, shards);
        bool all = true;
        for (int k : tasks) all = all && (*shards)[k].finished;
        if (all) return;
        if (seconds_since(last_squeue) >= c.poll_seconds) {
            last_squeue = Clock::now();
            CommandResult q = run_command({"squeue", "-h", "-r", "-j", job, "-o", "%i|%T"}, 60);
            // An unknown job id is a job that ended and was purged; an empty list is one that ended.
            bool gone = q.status == 0 ? parse_squeue(q.output, job).empty()
                                      : q.output.find("Invalid job id") != std::string::npos;
            if (q.status == 0 || gone) {
                states = parse_squeue(q.output, job);
                squeue_failures = 0;
            } else {
                if (squeue_failures++ == 0) first_failure = Clock::now();
                if (squeue_failures % 10 == 1) std::cerr << "[diet] farm: squeue failed (" << q.output << "); still waiting\n";
                // A controller unreachable for this long: stop waiting; the tasks without a
                // result are resubmitted (which fails loudly if Slurm is really gone).
                if (seconds_since(first_failure) > kSqueueGiveUpSeconds) {
                    std::cerr << "[diet] farm: squeue has failed for " << (int)kSqueueGiveUpSeconds << " s; giving up on job " << job << "\n";
                    run_command({"scancel", job}, 60);
                    gone = true;
                }
            }
            if (gone) {
                read_results(dir, token, tasks, shards);
                for (int k : tasks) (*shards)[k].finished = true;
                return;
            }
            // A task that is no longer listed has ended; its result file, if any, was read above.
            for (int k : tasks) {
                if (!states.count(k)) {
                    read_results(dir, token, tasks, shards);
                    (*shards)[k].finished = true;
                }
            }
        }
        int pending = 0, running = 0, done = 0;
        size_t measured = 0;
        for (int k : tasks) {
            const Shard &s = (*shards)[k];
            if (s.finished) {
                done++;
                measured += s.entries.size();
            } else {
                auto it = states.find(k);
                bool is_pending = it != states.end() && is_pending_state(it->second);
                (is_pending ? pending : running)++;
                if (!is_pending) measured += std::min(s.entries.size(), partial_count(shard_dir(dir, k)));
            }
        }
        if (first) measured_at_start = measured;
        const size_t fresh = measured - measured_at_start;
        const double eta = fresh > 0 ? seconds_since(start) / (double)fresh * (double)(total - measured) : -1;
        std::string line = progress_line(job, pending, running, done, (int)tasks.size(), measured, total, eta);
        std::string key = line.substr(0, line.find("; ETA"));
        if ((key != last_progress && seconds_since(last_print) >= 2) || seconds_since(last_print) >= 30 || first) {
            std::cerr << line << "\n";
            last_progress = key;
            last_print = Clock::now();
        }
        usleep(500 * 1000);
    }
}

// A task that left the queue without a visible result file: on a network file system the file
// may show up a little later (cached directory entries), so look again for a few seconds.
void late_results(const std::string &dir, const std::string &token, const std::vector<int> &tasks,
                  std::vector<Shard> *shards) {
    std::vector<int> missing;
    for (int k : tasks) {
        Shard &s = (*shards)[k];
        if (!s.done && s.why.empty()) {
            s.finished = false;
            missing.push_back(k);
        }
    }
    for (int i = 0; i < 10 && !missing.empty(); i++) {
        usleep(500 * 1000);
        read_results(dir, token, missing, shards);
        std::vector<int> still;
        for (int k : missing) {
            if (!(*shards)[k].finished) still.push_back(k);
        }
        missing = still;
    }
    for (int k : missing) (*shards)[k].finished = true;
}

std::string absolute(const std::string &path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

}  // namespace

std::string progress_line(const std::string &job, int pending, int running, int done, int tasks, size_t measured,
                          size_t total, double eta_seconds) {
    std::ostringstream s;
    s << "[diet] farm: job " << job << ": " << pending << " pending, " << running << " running, " << done
      << " done of " << tasks << " task" << (tasks == 1 ? "" : "s") << "; " << measured << "/" << total << " measured";
    if (eta_seconds >= 0) {
        long e = (long)(eta_seconds + 0.5);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%ld:%02ld", e / 60, e % 60);
        s << "; ETA " << buf;
    }
    return s.str();
}

bool read_shard_result(const std::string &path, const std::string &token, int shard,
                       const std::set<std::string> &ids, std::vector<BatchResult> *results, std::string *why) {
    nlohmann::json j;
    if (!read_json_file(path, &j, why)) {
        *why += " (truncated or corrupt: a task killed while writing it?)";
        return false;
    }
    try {
        if (!j.is_object() || j.value("format", "") != kFarmResultFormat) {
            *why = "not a Diet farm result (format " + (j.is_object() && j.contains("format") ? j["format"].dump() : "missing") +
                   ", expected \"" + kFarmResultFormat + "\")";
            return false;
        }
        const std::string batch = j.at("batch").get<std::string>();
        if (batch != token) {
            *why = "it is from another batch (" + batch + "), not this round's (" + token + ")";
            return false;
        }
        if (j.at("shard").get<int>() != shard) {
            *why = "it is the result of shard " + j.at("shard").dump() + ", not of shard " + std::to_string(shard);
            return false;
        }
        std::vector<BatchResult> r;
        if (!results_from_json(j.at("results"), &r, why)) return false;
        std::set<std::string> seen;
        for (const BatchResult &b : r) {
            if (!ids.count(b.id)) {
                *why = "it has a result for " + b.id + ", which is not in this shard";
                return false;
            }
            seen.insert(b.id);
        }
        if (seen.size() != ids.size()) {
            *why = "it has results for " + std::to_string(seen.size()) + " of the shard's " + std::to_string(ids.size()) +
                   " candidates";
            return false;
        }
        *results = r;
        return true;
    } catch (const std::exception &e) {
        *why = std::string("malformed: ") + e.what();
        return false;
    }
}

std::vector<TuningRecord> run_batch_on_farm(const std::string &batch_dir, const FarmConfig &c,
                                            const std::string &runner, const std::string &log_path) {
    const std::string dir = absolute(batch_dir);  // the job script runs elsewhere
    nlohmann::json mj;
    BatchManifest m;
    std::string why;
    if (!read_json_file(dir + "/manifest.json", &mj, &why) || !manifest_from_json(mj, &m, &why)) {
        throw FarmError("cannot read the batch in " + dir + ": " + why);
    }
    if (m.entries.empty()) return {};
    const std::string token = new_token();
    std::vector<int> shape_of_entry;
    for (const BatchEntry &e : m.entries) shape_of_entry.push_back(e.shape_index);
    std::vector<Shard> shards;
    size_t largest = 0;
    for (const std::vector<size_t> &cut : shard_entries(shape_of_entry, c.tasks)) {
        Shard s;
        s.entries = cut;
        for (size_t i : cut) s.ids.insert(m.entries[i].id);
        largest = std::max(largest, cut.size());
        shards.push_back(s);
    }
    write_shards(dir, m, shards, token);
    const std::string runner_from = find_program(c.runner.empty() ? runner : c.runner);
    if (runner_from.empty()) {
        throw FarmError("no diet_runner at '" + (c.runner.empty() ? runner : c.runner) +
                        "' (set farm_args runner=<path to diet_runner>)");
    }
    if (!copy_executable(runner_from, dir + "/diet_runner", &why)) throw FarmError(why);
    {
        std::ofstream script(dir + "/diet_farm_job.sh");
        script << job_script(dir, dir + "/diet_runner", token);
        if (!script.flush()) throw FarmError("cannot write " + dir + "/diet_farm_job.sh");
    }
    chmod((dir + "/diet_farm_job.sh").c_str(), 0755);
    const int minutes = default_task_minutes(largest, m.timeout_seconds);

    std::vector<int> todo;
    for (size_t k = 0; k < shards.size(); k++) todo.push_back((int)k);
    for (int attempt = 1; attempt <= 2 && !todo.empty(); attempt++) {
        for (int k : todo) {
            unlink((shard_dir(dir, k) + "/result.json").c_str());
            shards[k].finished = shards[k].done = false;
        }
        const std::string job = submit(dir, c, todo, token, minutes);
        size_t n = 0;
        for (int k : todo) n += shards[k].entries.size();
        std::cerr << "[diet] farm: submitted job " << job << " (" << n << " measurement" << (n == 1 ? "" : "s") << " in "
                  << todo.size() << " array task" << (todo.size() == 1 ? "" : "s") << ", " << dir << ")\n";
        {
            CancelGuard guard({job});
            wait_for_job(dir, job, todo, token, c, &shards);
        }
        late_results(dir, token, todo, &shards);
        std::vector<int> failed;
        for (int k : todo) {
            Shard &s = shards[k];
            if (s.done) continue;
            if (s.why.empty()) {
                std::string out = last_line_of(dir + "/slurm-" + job + "_" + std::to_string(k) + ".out");
                s.why = "the task ended without a result (failed, timed out, cancelled or lost its node)" +
                        (out.empty() ? std::string() : "; its last output: " + out);
            }
            std::cerr << "[diet] farm: task " << job << "_" << k << ": " << s.why << "\n";
            failed.push_back(k);
        }
        if (!failed.empty()) {
            std::cerr << "[diet] farm: " << (attempt == 1 ? "requeuing" : "giving up on") << " task(s) " << array_spec(failed)
                      << (attempt == 1 ? " (once)" : "; their candidates are recorded as failed measurements") << "\n";
        }
        todo = failed;
    }

    // One outcome per entry, in manifest order: measured, or failed with the shard's reason.
    const std::string mode = !m.cuda ? "cpu" : m.cold_l2 ? "cuda-cold" : "cuda-warm";
    std::map<std::string, Outcome> by_id;
    for (const Shard &s : shards) {
        for (const BatchResult &r : s.results) by_id[r.id] = r.outcome;
        if (s.done) continue;
        for (const std::string &id : s.ids) {
            Outcome o;
            o.mode = mode;
            o.error = "farm: its array task failed twice: " + s.why;
            by_id[id] = o;
        }
    }
    std::vector<BatchResult> merged;
    std::vector<TuningRecord> records;
    for (const BatchEntry &e : m.entries) {
        merged.push_back({e.id, by_id[e.id]});
        records.push_back(record_of(m, e, by_id[e.id]));
        if (!log_path.empty()) append_record(log_path, records.back());
    }
    if (!write_json_file(dir + "/results.json", results_to_json(merged, "slurm"), &why)) {
        std::cerr << "[diet] farm: warning: " << why << "\n";
    }
    return records;
}

}  // namespace diet
