// The pure pieces of measuring on Slurm (src/measure/FarmConfig.h, FarmRun.h): farm_args, shards,
// sbatch's command line, squeue's output, and the result envelope a task writes (a truncated
// file, one of another batch or shard, one that misses or adds candidates are rejected). No
// cluster here: test_farm_slurm runs the real thing.
#include <catch2/catch.hpp>

#include "measure/FarmConfig.h"
#include "measure/FarmRun.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

using namespace diet;

namespace {

std::string temp_file(const std::string &text) {
    char name[] = "/tmp/diet-farm-test-XXXXXX";
    int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(name) << text;
    return name;
}

std::string envelope(const std::string &token, int shard, const std::vector<std::string> &ids) {
    std::vector<BatchResult> r;
    for (const std::string &id : ids) r.push_back({id, Outcome{0.001, 5, 0, "cpu", ""}});
    nlohmann::json j = {{"format", kFarmResultFormat}, {"batch", token}, {"shard", shard},
                        {"results", results_to_json(r, "node1")}};
    return j.dump();
}

}  // namespace

TEST_CASE("farm_args: keys, defaults and errors", "[farm-unit]") {
    FarmConfig c;
    std::string why;
    REQUIRE(parse_farm_args("", &c, &why));
    CHECK(c.tasks == 4);
    CHECK(c.exclusive_node());  // nothing says what the task owns: the whole node
    REQUIRE(parse_farm_args("partition=gpu,account=p42,time=00:30:00,gres=gpu:1,tasks=8,sbatch=--mem=8G --constraint=a100", &c, &why));
    CHECK(c.partition == "gpu");
    CHECK(c.account == "p42");
    CHECK(c.time_limit == "00:30:00");
    CHECK(c.gres == "gpu:1");
    CHECK(c.tasks == 8);
    CHECK(!c.exclusive_node());  // the task owns its GPU
    CHECK(c.extra == std::vector<std::string>{"--mem=8G", "--constraint=a100"});
    REQUIRE(parse_farm_args("cpus=1,exclusive=0,poll=0.5,keep=1", &c, &why));
    CHECK(c.cpus_per_task == 1);
    CHECK(!c.exclusive_node());
    CHECK(c.keep);
    CHECK(c.poll_seconds == 0.5);

    CHECK(!parse_farm_args("partitio=gpu", &c, &why));
    CHECK_THAT(why, Catch::Contains("unknown key 'partitio'"));
    CHECK(!parse_farm_args("tasks=0", &c, &why));
    CHECK_THAT(why, Catch::Contains("tasks must be an integer in [1, 1000]"));
    CHECK(!parse_farm_args("exclusive=yes", &c, &why));
    CHECK(!parse_farm_args("poll=fast", &c, &why));
    CHECK(!parse_farm_args("partition=", &c, &why));
}

TEST_CASE("shards are balanced, contiguous by shape, never empty", "[farm-unit]") {
    // Entries of shapes 1, 0, 1, 0, 2: sorted by shape (stably), then cut.
    auto s = shard_entries({1, 0, 1, 0, 2}, 2);
    REQUIRE(s.size() == 2);
    CHECK(s[0] == std::vector<size_t>{1, 3, 0});
    CHECK(s[1] == std::vector<size_t>{2, 4});
    CHECK(shard_entries({0, 0}, 8).size() == 2);  // no more tasks than entries
    auto big = shard_entries(std::vector<int>(32, 0), 3);
    CHECK(big[0].size() == 11);
    CHECK(big[2].size() == 10);
}

TEST_CASE("sbatch's command line and --array syntax", "[farm-unit]") {
    CHECK(array_spec({0, 1, 2, 3}) == "0-3");
    CHECK(array_spec({4, 1}) == "1,4");
    CHECK(array_spec({2, 3, 7}) == "2-3,7");
    FarmConfig c;
    std::string why;
    REQUIRE(parse_farm_args("partition=p,gres=gpu:1,cpus=4", &c, &why));
    auto a = sbatch_arguments(c, {0, 1}, "diet-x", "/d/slurm-%A_%a.out", 12, "/d/job.sh");
    auto has = [&](const std::string &s) { return std::find(a.begin(), a.end(), s) != a.end(); };
    CHECK(has("--array=0-1"));
    CHECK(has("--partition=p"));
    CHECK(has("--gres=gpu:1"));
    CHECK(has("--cpus-per-task=4"));
    CHECK(has("--time=12"));
    CHECK(has("--no-requeue"));
    CHECK(!has("--exclusive"));
    CHECK(a.back() == "/d/job.sh");
    REQUIRE(parse_farm_args("", &c, &why));
    a = sbatch_arguments(c, {3}, "n", "o", 5, "s");
    CHECK(has("--exclusive"));
    CHECK(default_task_minutes(16, 10) >= 5 + (17 * 10) / 60);
}

TEST_CASE("squeue's output: one line per task, or a pending range", "[farm-unit]") {
    auto s = parse_squeue("12_[2-4%2]|PENDING\n12_0|RUNNING\n12_1|COMPLETING\n13_0|RUNNING\n", "12");
    REQUIRE(s.size() == 5);
    CHECK(s[0] == "RUNNING");
    CHECK(s[1] == "COMPLETING");
    CHECK(s[3] == "PENDING");
    CHECK(is_pending_state(s[4]));
    CHECK(!is_pending_state(s[0]));
    CHECK(parse_squeue("", "12").empty());
    CHECK(parse_squeue("12_[0,3]|PENDING\n", "12").size() == 2);
}

TEST_CASE("a shard's result: whole, of this batch and shard, complete", "[farm-unit]") {
    const std::set<std::string> ids = {"c0", "c3"};
    std::vector<BatchResult> r;
    std::string why;
    std::string good = temp_file(envelope("tok", 1, {"c0", "c3"}));
    REQUIRE(read_shard_result(good, "tok", 1, ids, &r, &why));
    CHECK(r.size() == 2);

    const std::string text = envelope("tok", 1, {"c0", "c3"});
    std::string truncated = temp_file(text.substr(0, text.size() / 2));
    CHECK(!read_shard_result(truncated, "tok", 1, ids, &r, &why));
    CHECK_THAT(why, Catch::Contains("truncated"));
    CHECK(!read_shard_result(good, "other", 1, ids, &r, &why));
    CHECK_THAT(why, Catch::Contains("from another batch"));
    CHECK(!read_shard_result(good, "tok", 0, ids, &r, &why));
    CHECK_THAT(why, Catch::Contains("not of shard 0"));
    std::string partial = temp_file(envelope("tok", 1, {"c0"}));
    CHECK(!read_shard_result(partial, "tok", 1, ids, &r, &why));
    CHECK_THAT(why, Catch::Contains("1 of the shard's 2"));
    std::string stranger = temp_file(envelope("tok", 1, {"c0", "c3", "c9"}));
    CHECK(!read_shard_result(stranger, "tok", 1, ids, &r, &why));
    CHECK_THAT(why, Catch::Contains("c9, which is not in this shard"));
    std::string foreign = temp_file("{\"format\":\"diet-batch-results/1\",\"results\":[]}");
    CHECK(!read_shard_result(foreign, "tok", 1, ids, &r, &why));
    CHECK_THAT(why, Catch::Contains("not a Diet farm result"));
    for (const std::string &f : {good, truncated, partial, stranger, foreign}) std::remove(f.c_str());
}

TEST_CASE("progress line", "[farm-unit]") {
    CHECK(progress_line("12", 1, 1, 0, 2, 5, 32, 74) ==
          "[diet] farm: job 12: 1 pending, 1 running, 0 done of 2 tasks; 5/32 measured; ETA 1:14");
    CHECK(progress_line("7", 0, 0, 1, 1, 0, 3, -1) == "[diet] farm: job 7: 0 pending, 0 running, 1 done of 1 task; 0/3 measured");
}
