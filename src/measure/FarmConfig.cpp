#include "measure/FarmConfig.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace diet {

namespace {

std::vector<std::string> split(const std::string &text, char sep) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, sep)) parts.push_back(part);
    return parts;
}

bool parse_int_in(const std::string &v, int lo, int hi, int *out) {
    if (v.empty() || v.size() > 9 || !std::all_of(v.begin(), v.end(), ::isdigit)) return false;
    int n = std::stoi(v);
    if (n < lo || n > hi) return false;
    *out = n;
    return true;
}

// Values go onto sbatch's command line (as separate argv entries, never through a shell), but
// a comma or a space in them would be a mistake in the options, so they are refused.
bool plain_value(const std::string &v) {
    return !v.empty() && v.find_first_of(" \t\n'\"") == std::string::npos;
}

}  // namespace

bool parse_farm_args(const std::string &text, FarmConfig *config, std::string *why) {
    FarmConfig c;
    for (const std::string &item : split(text, ',')) {
        if (item.empty()) continue;
        size_t eq = item.find('=');
        const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
        auto bad = [&](const std::string &expected) {
            *why = "farm_args: " + key + " must be " + expected + ", got '" + value + "'";
            return false;
        };
        if (key == "partition" || key == "account" || key == "qos" || key == "time" || key == "gres") {
            if (!plain_value(value)) return bad("a value without spaces or quotes");
            (key == "partition" ? c.partition : key == "account" ? c.account : key == "qos" ? c.qos
                                            : key == "time"    ? c.time_limit
                                                               : c.gres) = value;
        } else if (key == "tasks") {
            if (!parse_int_in(value, 1, 1000, &c.tasks)) return bad("an integer in [1, 1000]");
        } else if (key == "cpus") {
            if (!parse_int_in(value, 1, 4096, &c.cpus_per_task)) return bad("an integer in [1, 4096]");
        } else if (key == "exclusive" || key == "keep") {
            int b = 0;
            if (!parse_int_in(value, 0, 1, &b)) return bad("0 or 1");
            (key == "keep" ? (void)(c.keep = b == 1) : (void)(c.exclusive = b));
        } else if (key == "poll") {
            char *end = nullptr;
            double p = std::strtod(value.c_str(), &end);
            if (value.empty() || *end != '\0' || !(p >= 0.1 && p <= 600)) return bad("seconds in [0.1, 600]");
            c.poll_seconds = p;
        } else if (key == "runner") {
            if (!plain_value(value)) return bad("a path without spaces or quotes");
            c.runner = value;
        } else if (key == "sbatch") {
            // Several sbatch arguments in one value, space-separated (a comma would end the value).
            for (const std::string &a : split(value, ' ')) {
                if (!a.empty()) c.extra.push_back(a);
            }
            if (c.extra.empty()) return bad("sbatch arguments separated by spaces");
        } else {
            *why = "farm_args: unknown key '" + key +
                   "' (known: partition, account, qos, time, gres, tasks, cpus, exclusive, poll, runner, sbatch, keep)";
            return false;
        }
    }
    *config = c;
    return true;
}

std::vector<std::vector<size_t>> shard_entries(const std::vector<int> &shape_of_entry, int tasks) {
    std::vector<size_t> order(shape_of_entry.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return shape_of_entry[a] < shape_of_entry[b]; });
    const size_t n = order.size(), k = std::min<size_t>(std::max(1, tasks), n);
    std::vector<std::vector<size_t>> shards(k);
    // The first n % k shards take one more entry.
    size_t next = 0;
    for (size_t s = 0; s < k; s++) {
        size_t size = n / k + (s < n % k ? 1 : 0);
        shards[s].assign(order.begin() + next, order.begin() + next + size);
        next += size;
    }
    return shards;
}

std::string array_spec(const std::vector<int> &task_ids) {
    std::vector<int> ids = task_ids;
    std::sort(ids.begin(), ids.end());
    std::string out;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) j++;
        out += (out.empty() ? "" : ",") + std::to_string(ids[i]);
        if (j > i) out += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return out;
}

int default_task_minutes(size_t entries_in_largest_shard, double timeout_seconds) {
    // Every entry (and the reference of its shape) may run up to the timeout; twice that leaves
    // room for a loaded node, plus 5 minutes for starting up.
    double seconds = 2.0 * (double)(entries_in_largest_shard + 1) * timeout_seconds + 300;
    return std::max(5, (int)std::ceil(seconds / 60));
}

std::vector<std::string> sbatch_arguments(const FarmConfig &c, const std::vector<int> &task_ids,
                                          const std::string &job_name, const std::string &output_pattern,
                                          int default_minutes, const std::string &script) {
    std::vector<std::string> a = {"--parsable", "--array=" + array_spec(task_ids), "--job-name=" + job_name,
                                  "--output=" + output_pattern,
                                  // Diet requeues a failed task itself, once; Slurm's own requeue
                                  // (on a lost node) would make that twice or more.
                                  "--no-requeue"};
    if (!c.partition.empty()) a.push_back("--partition=" + c.partition);
    if (!c.account.empty()) a.push_back("--account=" + c.account);
    if (!c.qos.empty()) a.push_back("--qos=" + c.qos);
    if (!c.gres.empty()) a.push_back("--gres=" + c.gres);
    if (c.cpus_per_task > 0) a.push_back("--cpus-per-task=" + std::to_string(c.cpus_per_task));
    if (c.exclusive_node()) a.push_back("--exclusive");
    a.push_back("--time=" + (c.time_limit.empty() ? std::to_string(default_minutes) : c.time_limit));
    a.insert(a.end(), c.extra.begin(), c.extra.end());
    a.push_back(script);
    return a;
}

bool is_pending_state(const std::string &state) {
    return state == "PENDING" || state == "CONFIGURING" || state == "REQUEUED" || state == "REQUEUE_HOLD" ||
           state == "REQUEUE_FED" || state == "RESV_DEL_HOLD" || state == "SUSPENDED";
}

std::map<int, std::string> parse_squeue(const std::string &text, const std::string &job_id) {
    std::map<int, std::string> states;
    for (const std::string &line : split(text, '\n')) {
        size_t bar = line.find('|');
        if (bar == std::string::npos) continue;
        const std::string id = line.substr(0, bar), state = line.substr(bar + 1);
        if (id.compare(0, job_id.size() + 1, job_id + "_") != 0) continue;
        std::string task = id.substr(job_id.size() + 1);
        if (!task.empty() && task.front() == '[') {
            // "[0-3]", "[1,4-5]", possibly with a "%limit" suffix.
            std::string body = task.substr(1, task.find_first_of("]%") - 1);
            for (const std::string &range : split(body, ',')) {
                size_t dash = range.find('-');
                int lo = 0, hi = 0;
                if (!parse_int_in(range.substr(0, dash), 0, 1 << 30, &lo)) continue;
                hi = lo;
                if (dash != std::string::npos && !parse_int_in(range.substr(dash + 1), lo, 1 << 30, &hi)) continue;
                for (int t = lo; t <= hi; t++) states[t] = state;
            }
        } else {
            int t = 0;
            if (parse_int_in(task, 0, 1 << 30, &t)) states[t] = state;
        }
    }
    return states;
}

std::string job_script(const std::string &round_dir, const std::string &runner, const std::string &token) {
    // Single-quoted in the script: the round directory comes from the user's farm_dir, so a quote
    // in it is escaped the shell way.
    auto q = [](const std::string &s) {
        std::string out = "'";
        for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        return out + "'";
    };
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# Written by Diet (src/measure/FarmConfig.cpp): one array task measures one shard of a round.\n"
      << "round=" << q(round_dir) << "\n"
      << "shard=\"$round/shard-${SLURM_ARRAY_TASK_ID:?not run as an array task}\"\n"
      << "# Candidates are parallel Halide code: use the CPUs Slurm gave the task, not the node's.\n"
      << "if [ -n \"${SLURM_CPUS_PER_TASK:-}\" ]; then export HL_NUM_THREADS=$SLURM_CPUS_PER_TASK; fi\n"
      << "rm -f \"$shard/result.json\" \"$shard/results.json\"\n"
      << q(runner) << " \"$shard\" > \"$shard/runner.out\" 2>&1\n"
      << "rc=$?\n"
      << "if [ $rc -ne 0 ]; then echo \"diet_runner exited with status $rc\" >&2; tail -5 \"$shard/runner.out\" >&2; exit $rc; fi\n"
      << "# The envelope ties the results to this batch and shard; written whole, then renamed.\n"
      << "tmp=\"$shard/result.json.tmp$$\"\n"
      << "{ printf '{\"format\":\"" << kFarmResultFormat << "\",\"batch\":\"%s\",\"shard\":%s,\"results\":' "
      << q(token) << " \"$SLURM_ARRAY_TASK_ID\"; cat \"$shard/results.json\"; printf '}\\n'; } > \"$tmp\" || exit 1\n"
      << "mv \"$tmp\" \"$shard/result.json\"\n";
    return s.str();
}

}  // namespace diet
