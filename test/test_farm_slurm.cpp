// Measuring on a real Slurm cluster (issue 17): a single-node cluster started for this process
// (scripts/slurm_cluster.sh: munged, slurmctld, slurmd on 127.0.0.1, everything in a temporary
// directory, stopped at exit) runs
//   - a tuning run with farm=slurm: the same log records and dispatch as a local run, a correct library;
//   - a 32-measurement round with 1 and with 2 array tasks: no measurement lost, the wall times;
//   - a round whose task is killed mid-run: the task is requeued once and nothing is lost;
//   - a farm process killed with SIGKILL while its job runs: the job is cancelled.
// Without root or without slurm-wlm/munge the cases print why and skip; on Debian 12 as root a
// cluster that does not start is a failure, not a skip.
#include <catch2/catch.hpp>

#include "test_support.h"

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "dense_fixture.h"
#include "measure/Batch.h"
#include "measure/FarmProcess.h"
#include "measure/FarmRun.h"
#include "measure/TuningLog.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"
#include "space/MicroKernel.h"

#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

using namespace Halide;
using namespace diet;

namespace {

bool debian12() {
    std::ifstream in("/etc/debian_version");
    std::string v;
    return (in >> v) && v.rfind("12", 0) == 0;
}

// The cluster, started on first use and stopped when the process exits.
struct Cluster {
    std::string dir, skip;
    Cluster() {
        char buf[] = "/tmp/diet-slurm-XXXXXX";
        REQUIRE(mkdtemp(buf) != nullptr);
        dir = buf;
        CommandResult r = run_command({"bash", DIET_SLURM_CLUSTER_SCRIPT, "start", dir}, 120);
        std::printf("%s", r.output.c_str());
        if (r.status == 0) {
            setenv("SLURM_CONF", (dir + "/slurm.conf").c_str(), 1);
            return;
        }
        skip = r.output;
        // The brief's promise: where everything needed is present, the cluster must start.
        const bool must_run = r.status != 3 && getuid() == 0 && debian12();
        if (must_run) {
            CommandResult logs = run_command({"bash", "-c", "tail -n 20 '" + dir + "'/log/*"}, 10);
            FAIL("the Slurm test cluster did not start on Debian 12 as root:\n" << r.output << "\n" << logs.output);
        }
    }
    ~Cluster() {
        run_command({"bash", DIET_SLURM_CLUSTER_SCRIPT, "stop", dir}, 60);
        run_command({"rm", "-rf", dir}, 60);
    }
    bool up() const {
        if (!skip.empty()) std::printf("SKIP: no Slurm test cluster: %s\n", skip.c_str());
        return skip.empty();
    }
};

Cluster &cluster() {
    static Cluster c;
    return c;
}

// Task CPUs: one each, so that the node's 2 CPUs run 2 tasks at once (see README: exclusivity).
std::string farm_args(int tasks, const std::string &runner = DIET_RUNNER_PATH) {
    return "tasks=" + std::to_string(tasks) + ",cpus=1,exclusive=0,poll=1,runner=" + runner;
}

FarmConfig config(int tasks) {
    FarmConfig c;
    std::string why;
    REQUIRE(parse_farm_args(farm_args(tasks), &c, &why));
    return c;
}

// A batch of `count` candidates of the small dense pipeline: the first count/2 kernels of its CPU
// space at T=4 and at T=16, each timed for at least `min_seconds` (so the measurements, not
// Slurm's overhead, take the time).
void write_dense_batch(const std::string &dir, int count, double min_seconds) {
    DenseFixture d(96, 16, 8);
    CpuLimits lim = CpuLimits::for_target(runnable_host_target(), 1, 0);
    FunctionDAG dag(d.outputs());
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(4, 0));
    auto space = enumerate_cpu_kernels(dag.matmuls()[0], ext, lim);
    REQUIRE((int)space.size() * 2 >= count);
    std::vector<MeasureJob> jobs;
    for (int i = 0; i < count; i++) {
        jobs.push_back({Candidate{{{dag.matmuls()[0], space[i / 2]}}}, Shape{{"T", i % 2 ? 16 : 4}}, ""});
    }
    MeasureSetup setup;
    setup.target = runnable_host_target();
    setup.build_jobs = 2;
    setup.runner.timing.min_seconds = min_seconds;
    setup.runner.timing.min_repeats = 3;
    setup.runner.timing.max_repeats = 10000000;
    BatchManifest m = write_batch(dir, d.outputs(), jobs, lim, setup);
    REQUIRE((int)m.entries.size() == count);
}

int lost(const std::vector<TuningRecord> &records) {
    int n = 0;
    for (const TuningRecord &r : records) n += r.ok() ? 0 : 1;
    return n;
}

std::string squeue_all() { return run_command({"squeue", "-h", "-o", "%i %T %j"}, 30).output; }

// Waits (up to `seconds`) until `pred` holds.
template<typename F>
bool eventually(double seconds, F pred) {
    auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
        if (pred()) return true;
        usleep(200 * 1000);
    }
    return pred();
}

double wall(const std::function<void()> &f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The id ("12_0") of the running array task `k`, "" when none runs.
std::string running_task(int k) {
    std::istringstream q(run_command({"squeue", "-h", "-r", "-t", "RUNNING", "-o", "%i"}, 30).output);
    const std::string suffix = "_" + std::to_string(k);
    for (std::string line; std::getline(q, line);) {
        if (line.size() > suffix.size() && line.compare(line.size() - suffix.size(), suffix.size(), suffix) == 0) {
            return line;
        }
    }
    return "";
}

// The shared 32-candidate batch (built once: compiling is the slow part).
const std::string &batch32() {
    static diet_test::TempDir dir("diet-farm-batch");
    static bool built = (write_dense_batch(dir.path + "/b", 32, 0.5), true);
    (void)built;
    static std::string path = dir.path + "/b";
    return path;
}

}  // namespace

TEST_CASE("a 32-measurement round loses nothing; 2 array tasks take well under the time of 1", "[slurm]") {
    if (!cluster().up()) return;
    const std::string b = batch32();
    std::vector<TuningRecord> one, two;
    const double t1 = wall([&] { one = run_batch_on_farm(b, config(1), DIET_RUNNER_PATH, ""); });
    const double t2 = wall([&] { two = run_batch_on_farm(b, config(2), DIET_RUNNER_PATH, ""); });
    REQUIRE(one.size() == 32);
    REQUIRE(two.size() == 32);
    CHECK(lost(one) == 0);
    CHECK(lost(two) == 0);
    for (size_t i = 0; i < 32; i++) {
        INFO(two[i].error);
        CHECK(two[i].micro_kernel == one[i].micro_kernel);  // manifest order either way
        CHECK(two[i].repeats >= 3);
    }
    std::printf("32-measurement round: 1 task %.1f s, 2 tasks %.1f s, ratio %.2f\n", t1, t2, t2 / t1);
    // The target is 0.65; a little slack for a machine shared with other work (the committed
    // measurement is apps/results/slurm_round.txt).
    CHECK(t2 / t1 <= 0.75);
    // The merged results.json lets the ordinary batch import read the directory.
    CHECK(import_batch_results(b).size() == 32);
}

TEST_CASE("a task killed mid-run is requeued once and nothing is lost", "[slurm]") {
    if (!cluster().up()) return;
    const std::string b = batch32();
    // Kills task 0 with SIGKILL once it has measured something: its batch script dies, Slurm
    // records a failure, and Diet must resubmit shard 0.
    bool killed = false;
    std::thread killer([&] {
        killed = eventually(120, [&] {
            std::ifstream in(b + "/shard-0/results.json");
            if (!in) return false;
            nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
            if (j.is_discarded() || j["results"].empty()) return false;
            const std::string id = running_task(0);
            if (id.empty()) return false;
            return run_command({"scancel", "--batch", "--signal=KILL", id}, 30).status == 0;
        });
    });
    auto shard0_outputs = [&] {
        return std::stoi(run_command({"bash", "-c", "ls '" + b + "'/slurm-*_0.out 2>/dev/null | wc -l"}, 10).output);
    };
    const int outputs_before = shard0_outputs();
    std::vector<TuningRecord> records = run_batch_on_farm(b, config(2), DIET_RUNNER_PATH, "");
    killer.join();
    REQUIRE(killed);
    REQUIRE(records.size() == 32);
    CHECK(lost(records) == 0);
    // Two jobs ran shard 0: the killed one and the requeue.
    CHECK(shard0_outputs() - outputs_before == 2);
}

TEST_CASE("a farm killed while its job runs leaves no job behind", "[slurm]") {
    if (!cluster().up()) return;
    const std::string b = batch32();
    pid_t pid = fork();
    if (pid == 0) {
        const std::string args = farm_args(2);
        execl(DIET_FARM_PATH, DIET_FARM_PATH, b.c_str(), "--args", args.c_str(), (char *)nullptr);
        _exit(127);
    }
    REQUIRE(pid > 0);
    const bool running = eventually(60, [] { return squeue_all().find("RUNNING") != std::string::npos; });
    kill(pid, SIGKILL);  // no handler can run: only the cancel guard can clean up
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(running);
    const bool empty = eventually(30, [] { return squeue_all().empty(); });
    INFO(squeue_all());
    CHECK(empty);
}

namespace {

struct SmallDense : DenseFixture {
    SmallDense() : DenseFixture(200, 16, 8) {}
};

void check_correct(SmallDense &d, int t) {
    Buffer<float> x(64, 16 * t), w(64, 200);
    x.for_each_element([&](int k, int m) { x(k, m) = (float)((k * 3 + m * 7) % 13) - 6.f; });
    w.for_each_element([&](int k, int n) { w(k, n) = (float)((k * 5 + n) % 11) - 5.f; });
    d.x.set(x);
    d.w.set(w);
    d.T.set(t);
    Buffer<float> y = Pipeline(d.y).realize({200, 16 * t});
    for (int m = 0; m < 16 * t; m++) {
        for (int n = 0; n < 200; n++) {
            float s = 0;
            for (int k = 0; k < 64; k++) s += x(k, m) * w(k, n);
            REQUIRE(y(n, m) == s);
        }
    }
}

}  // namespace

// The tuning run of the kill test below, in a process of its own (run as this executable with
// the hidden tag; DIET_FARM_CHILD_DIR says where its log and rounds go). `runner` replaces the
// measuring runner of farm_args.
Options tuning_options(const std::string &dir, const std::string &runner = DIET_RUNNER_PATH) {
    return Options::from_map({{"trials", "8"}, {"samples", "2"}, {"seed", "5"}, {"log", dir + "/tuning.log"},
                              {"report", dir + "/report.json"}, {"farm", "slurm"}, {"farm_args", farm_args(2, runner)},
                              {"farm_dir", dir + "/farm"}});
}

// The killed tuner's runner: the real one after a pause, so that each array task stays RUNNING for
// seconds. Without it a whole 8-trial tuning took 8 s on a busy 2-core CI machine and its tasks
// could start and end between two squeue polls: the test then never saw a running job.
std::string write_slow_runner(const std::string &dir) {
    const std::string path = dir + "/slow_runner.sh";
    std::ofstream out(path);
    out << "#!/bin/sh\nsleep 4\nexec '" << DIET_RUNNER_PATH << "' \"$@\"\n";
    out.close();
    REQUIRE(chmod(path.c_str(), 0755) == 0);
    return path;
}

TEST_CASE("(child) a tuning run with farm=slurm, to be killed", "[.farm-tuner-child]") {
    const char *dir = std::getenv("DIET_FARM_CHILD_DIR");
    REQUIRE(dir != nullptr);
    SmallDense d;
    diet::autoschedule(Pipeline(d.y), runnable_host_target(), 2, 0, tuning_options(dir, std::string(dir) + "/slow_runner.sh"));
}

TEST_CASE("a tuner killed while its job runs leaves no job behind, and the rerun resumes from the log", "[slurm]") {
    if (!cluster().up()) return;
    diet_test::TempDir dir("diet-farm-killed");
    setenv("DIET_FARM_CHILD_DIR", dir.path.c_str(), 1);
    write_slow_runner(dir.path);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "test_farm_slurm", "[.farm-tuner-child]", (char *)nullptr);
        _exit(127);
    }
    REQUIRE(pid > 0);
    // Killed in a later round, once the log holds the first round's records, so the rerun has
    // something to resume from.
    const std::string log = dir.path + "/tuning.log";
    const bool running = eventually(120, [&] {
        return !read_log(log).records.empty() && squeue_all().find("RUNNING") != std::string::npos;
    });
    kill(pid, SIGKILL);  // the tuner gets no chance to clean up: its cancel guard must
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(running);
    const bool empty = eventually(30, [] { return squeue_all().empty(); });
    INFO(squeue_all());
    CHECK(empty);
    const size_t records_before_rerun = read_log(log).records.size();
    CHECK(records_before_rerun > 0);
    CHECK(records_before_rerun < 8);
    // Like a local run: the rerun with the same log measures what the log lacks and ends normally.
    SmallDense d;
    diet::autoschedule(Pipeline(d.y), runnable_host_target(), 2, 0, tuning_options(dir.path));
    // Every record the killed run logged is reused, not measured again (the same seed picks the
    // same first round in both processes).
    std::ifstream report(dir.path + "/report.json");
    const nlohmann::json r = nlohmann::json::parse(report);
    CHECK(r["stages"][0]["log_hits"].get<size_t>() == records_before_rerun);
    LogContents contents = read_log(log);
    CHECK(contents.records.size() >= 8);
    CHECK(!contents.dispatches.empty());
    for (int t : {3, 16}) check_correct(d, t);
}

TEST_CASE("tuning with farm=slurm: the same log and report as local measurement, a correct library", "[slurm]") {
    if (!cluster().up()) return;
    diet_test::TempDir dir("diet-farm-tune");
    const std::string log = dir.path + "/tuning.log", report = dir.path + "/report.json";
    Options o = Options::from_map({{"trials", "8"}, {"samples", "2"}, {"seed", "5"}, {"log", log}, {"report", report},
                                   {"farm", "slurm"}, {"farm_args", farm_args(2)}, {"farm_dir", dir.path + "/farm"}});
    SmallDense d;
    std::string src = diet::autoschedule(Pipeline(d.y), runnable_host_target(), 2, 0, o).schedule_source;
    CHECK_THAT(src, Catch::Contains("chosen by tuning"));
    std::ifstream in(report);
    nlohmann::json r = nlohmann::json::parse(in);
    const int verified = r["stages"][0]["verification_measurements"];
    CHECK(r["measurements"] == 8 + verified);
    LogContents contents = read_log(log);
    CHECK((int)contents.records.size() == 8 + verified);
    CHECK(contents.skipped == 0);
    for (const TuningRecord &rec : contents.records) {
        INFO(rec.error);
        CHECK(rec.ok());
        CHECK(rec.mode == "cpu");
        CHECK(rec.repeats > 0);
    }
    CHECK(!contents.dispatches.empty());
    // Rounds are removed once imported (farm_args has no keep=1).
    CHECK(run_command({"bash", "-c", "ls '" + dir.path + "/farm' | wc -l"}, 10).output == "0\n");
    for (int t : {1, 5, 16, 23}) check_correct(d, t);
}
