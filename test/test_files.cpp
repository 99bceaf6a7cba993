// Files and faults (issue 7): corrupt, truncated, foreign and other-version tuning logs and cost
// model files are skipped or rejected with a message, and a file is never overwritten with less
// than it held. The policies are documented in src/measure/TuningLog.h and src/cost/PackSumModel.h.
#include <catch2/catch.hpp>

#include "test_support.h"

#include "Halide.h"
#include "space/HostCpu.h"
#include "cost/PackSumModel.h"
#include "dense_fixture.h"
#include "measure/Fingerprint.h"
#include "measure/Isolate.h"
#include "measure/TuningLog.h"
#include "options/Options.h"
#include "plugin/Diet.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace diet;

namespace {

using diet_test::TempDir;

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

bool exists(const std::string &path) {
    return access(path.c_str(), F_OK) == 0;
}

// Captures std::cerr (the tuner's messages) while alive, and echoes it at the end.
struct CaptureCerr {
    std::stringstream text;
    std::streambuf *old;
    CaptureCerr() : old(std::cerr.rdbuf(text.rdbuf())) {}
    ~CaptureCerr() {
        std::cerr.rdbuf(old);
        std::cerr << text.str();
    }
    std::string str() const { return text.str(); }
};

TuningRecord sample_record(const std::string &pipeline, int t) {
    TuningRecord r;
    r.pipeline = pipeline;
    r.target = "x86-64-linux-avx2";
    r.shape = {{"T", t}};
    r.micro_kernel = "acc:cpu{vec=8x1}";
    r.features_digest = "0123456789abcdef";
    r.median_seconds = 0.001 * t;
    r.repeats = 5;
    return r;
}

// A trained model on synthetic programs of `width` features.
void train_synthetic(PackSumModel &m, int programs, int width = 4) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<FeatureRows> ps;
    std::vector<float> labels;
    for (int i = 0; i < programs; i++) {
        FeatureRows rows(2, std::vector<float>(width));
        for (auto &r : rows) {
            for (float &v : r) v = u(rng);
        }
        labels.push_back(rows[0][0] + 2 * rows[1][1]);
        ps.push_back(rows);
    }
    m.train(ps, labels);
    REQUIRE(m.trained());
}

ModelInfo info_for(const std::string &pipeline, const std::string &target, int64_t trained_on) {
    ModelInfo i;
    i.format = kModelFormat;
    i.pipeline = pipeline;
    i.target = target;
    i.trained_on = trained_on;
    i.label_scale = 3.5;
    i.tool_version = kToolVersion;
    return i;
}

// A JSON model file with its "diet_*" attributes edited (erase: none at all).
void edit_attributes(const std::string &path, const std::map<std::string, std::string> &set, bool erase) {
    nlohmann::json j = nlohmann::json::parse(read_file(path));
    nlohmann::json &attrs = j["learner"]["attributes"];
    if (erase) {
        for (auto it = attrs.begin(); it != attrs.end();) {
            if (it.key().rfind("diet_", 0) == 0) {
                it = attrs.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (const auto &[k, v] : set) attrs[k] = v;
    write_file(path, j.dump());
}

struct SmallDense : DenseFixture {
    SmallDense() : DenseFixture(200, 16, 8) {}
};

nlohmann::json read_json(const std::string &path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the log: foreign-pipeline, wrong-target, other-format and truncated lines are counted and left out",
          "[files]") {
    TempDir dir("diet-test-files");
    const std::string path = dir.path + "/log.jsonl";
    REQUIRE(append_record(path, sample_record("aaaaaaaaaaaaaaaa", 1)));
    // A new log starts with the header.
    CHECK(read_file(path).rfind(log_header_line(), 0) == 0);
    REQUIRE(append_record(path, sample_record("bbbbbbbbbbbbbbbb", 2)));  // another pipeline
    TuningRecord other_target = sample_record("aaaaaaaaaaaaaaaa", 3);
    other_target.target = "arm-64-linux";
    REQUIRE(append_record(path, other_target));
    DispatchRecord d{"aaaaaaaaaaaaaaaa", "x86-64-linux-avx2", 0, "T=1..16(16)", nlohmann::json::array(), kToolVersion, 0};
    REQUIRE(append_dispatch(path, d));
    {
        // Records of log formats 0 and 2, and one with a "format" of the wrong type.
        std::ofstream out(path, std::ios::app | std::ios::binary);
        nlohmann::json j = record_to_json(sample_record("aaaaaaaaaaaaaaaa", 4));
        j["format"] = 0;
        out << j.dump() << "\n";
        j["format"] = 2;
        out << j.dump() << "\n" << j.dump() << "\n";
        j["format"] = "one";
        out << j.dump() << "\n";
        // A final line cut short by a killed writer (no newline).
        std::string full = record_to_json(sample_record("aaaaaaaaaaaaaaaa", 5)).dump();
        out << full.substr(0, full.size() / 3);
    }
    const std::string before = read_file(path);
    LogContents c = read_log(path);
    CHECK(!c.foreign);
    REQUIRE(c.records.size() == 3);  // the reader keeps all pipelines; the tuner filters (below)
    CHECK(c.records[1].pipeline == "bbbbbbbbbbbbbbbb");
    CHECK(c.records[2].target == "arm-64-linux");
    CHECK(c.dispatches.size() == 1);
    CHECK(c.other_format == std::map<int, int>{{0, 1}, {2, 2}});
    CHECK(c.skipped == 2);
    CHECK_THAT(c.first_skipped, Catch::Contains("line 9") && Catch::Contains("format"));
    const std::string s = c.summary(2);
    INFO(s);
    CHECK_THAT(s, Catch::Contains("2 records of other pipelines or targets ignored"));
    CHECK_THAT(s, Catch::Contains("2 corrupt or truncated lines skipped"));
    CHECK_THAT(s, Catch::Contains("1 record of log format 0 skipped"));
    CHECK_THAT(s, Catch::Contains("2 records of log format 2 skipped"));
    CHECK(LogContents().summary() == "");
    // The next append starts a fresh line after the truncated one and rewrites nothing.
    REQUIRE(append_record(path, sample_record("aaaaaaaaaaaaaaaa", 6)));
    CHECK(read_file(path).compare(0, before.size(), before) == 0);
    CHECK(read_log(path).records.size() == 4);
    CHECK(read_log(path).skipped == 2);
}

TEST_CASE("the log: a file that is not a Diet log is never appended to", "[files]") {
    TempDir dir("diet-test-files");
    const std::string junk = std::string("\x7f" "ELF\x02\x01\x01\0\0\0binary\n\xff\xfe", 18);
    const std::string theirs = "{\"name\": \"my-app\", \"version\": 3}\n{\"other\": 1}\n";
    const std::string text = "# notes\nsome text\n";
    for (const std::string &bytes : {junk, theirs, text}) {
        const std::string path = dir.path + "/foreign";
        write_file(path, bytes);
        std::string why;
        CHECK(!is_diet_log(path, &why));
        CHECK(!why.empty());
        CHECK(!append_record(path, sample_record("aaaaaaaaaaaaaaaa", 1)));
        CHECK(!append_dispatch(path, {"a", "b", 0, "f", nlohmann::json::array(), kToolVersion, 0}));
        CHECK(read_file(path) == bytes);  // byte for byte
        LogContents c = read_log(path);
        CHECK(c.foreign);
        CHECK(c.records.empty());
        CHECK_THAT(c.summary(), Catch::Contains("not a Diet tuning log"));
    }
    // Appendable: missing, empty, blank, and a log written before the header existed.
    const std::string legacy = dir.path + "/legacy";
    write_file(legacy, record_to_json(sample_record("aaaaaaaaaaaaaaaa", 1)).dump() + "\n");
    CHECK(is_diet_log(legacy));
    CHECK(append_record(legacy, sample_record("aaaaaaaaaaaaaaaa", 2)));
    CHECK(read_log(legacy).records.size() == 2);
    CHECK(is_diet_log(dir.path + "/missing"));
    write_file(dir.path + "/blank", "\n \n");
    CHECK(is_diet_log(dir.path + "/blank"));
    CHECK(append_record(dir.path + "/blank", sample_record("aaaaaaaaaaaaaaaa", 1)));
    CHECK(read_log(dir.path + "/blank").records.size() == 1);
}

TEST_CASE("model files: corrupt, truncated, foreign, other-version and richer files are never overwritten",
          "[files]") {
    TempDir dir("diet-test-files");
    const std::string P = "0123456789abcdef", T = "x86-64-linux-avx2";
    PackSumModel small;
    train_synthetic(small, 8);
    small.set_info(info_for(P, T, 8));

    // Missing: saved, with its attributes.
    const std::string path = dir.path + "/model.json";
    std::string msg;
    CHECK(save_model_with_policy(small, path, &msg) == path);
    ModelFile f = inspect_model_file(path, P, T);
    REQUIRE(f.state == ModelFile::Usable);
    CHECK(f.info.trained_on == 8);
    CHECK(f.info.label_scale == 3.5);
    CHECK(f.info.format == kModelFormat);
    CHECK(model_sibling_path(path) == dir.path + "/model.diet-new.json");
    CHECK(model_sibling_path(dir.path + "/m") == dir.path + "/m.diet-new");

    // A richer model replaces a poorer one of the same pipeline and target.
    PackSumModel rich;
    train_synthetic(rich, 20);
    rich.set_info(info_for(P, T, 20));
    CHECK(save_model_with_policy(rich, path, &msg) == path);
    CHECK(inspect_model_file(path, P, T).info.trained_on == 20);
    // ... and a poorer one does not replace it: the file stays, the new model goes to the sibling.
    const std::string rich_bytes = read_file(path);
    const std::string sibling = model_sibling_path(path);
    CHECK(save_model_with_policy(small, path, &msg) == sibling);
    CHECK(read_file(path) == rich_bytes);
    CHECK_THAT(msg, Catch::Contains(path) && Catch::Contains(sibling) && Catch::Contains("20") &&
                        Catch::Contains("warning"));
    CHECK(inspect_model_file(sibling, P, T).info.trained_on == 8);
    // The sibling follows the same rule: a richer sibling is not replaced either, nothing is written.
    CHECK(save_model_with_policy(rich, sibling, &msg) == sibling);
    const std::string sibling_bytes = read_file(sibling);
    CHECK(save_model_with_policy(small, path, &msg) == "");
    CHECK_THAT(msg, Catch::Contains("not saved"));
    CHECK(read_file(path) == rich_bytes);
    CHECK(read_file(sibling) == sibling_bytes);
    std::remove(sibling.c_str());

    // Files a run must reject and must not overwrite.
    struct Case {
        const char *name;
        std::function<void(const std::string &)> make;
        ModelFile::State state;
        const char *why;
    };
    const std::vector<Case> cases = {
        {"corrupt", [&](const std::string &p) { write_file(p, "this is not a model\n\x01\x02"); }, ModelFile::Unreadable,
         "not an XGBoost model"},
        {"truncated", [&](const std::string &p) { write_file(p, rich_bytes.substr(0, rich_bytes.size() / 2)); },
         ModelFile::Unreadable, "not an XGBoost model"},
        {"no Diet attributes",
         [&](const std::string &p) {
             write_file(p, rich_bytes);
             edit_attributes(p, {}, true);
         },
         ModelFile::Foreign, "without Diet's attributes"},
        {"older format",
         [&](const std::string &p) {
             write_file(p, rich_bytes);
             edit_attributes(p, {{"diet_model_format", "0"}}, false);
         },
         ModelFile::Foreign, "without Diet's attributes"},
        {"newer format",
         [&](const std::string &p) {
             write_file(p, rich_bytes);
             edit_attributes(p, {{"diet_model_format", std::to_string(kModelFormat + 1)}}, false);
         },
         ModelFile::Foreign, "of format"},
        {"other target",
         [&](const std::string &p) {
             write_file(p, rich_bytes);
             edit_attributes(p, {{"diet_target", "arm-64-linux"}}, false);
         },
         ModelFile::Foreign, "for the target arm-64-linux"},
        {"other pipeline",
         [&](const std::string &p) {
             write_file(p, rich_bytes);
             edit_attributes(p, {{"diet_pipeline", "ffffffffffffffff"}}, false);
         },
         ModelFile::Foreign, "another pipeline"},
    };
    for (const Case &c : cases) {
        INFO(c.name);
        const std::string p = dir.path + "/case.json";
        std::remove(model_sibling_path(p).c_str());
        c.make(p);
        const std::string bytes = read_file(p);
        ModelFile got = inspect_model_file(p, P, T);
        CHECK(got.state == c.state);
        CHECK_THAT(got.why, Catch::Contains(c.why));
        // Even a model trained on more than any file held does not replace it.
        PackSumModel big;
        train_synthetic(big, 12);
        big.set_info(info_for(P, T, 1000000));
        CHECK(save_model_with_policy(big, p, &msg) == model_sibling_path(p));
        CHECK_THAT(msg, Catch::Contains(p) && Catch::Contains(model_sibling_path(p)));
        CHECK(read_file(p) == bytes);
        CHECK(inspect_model_file(model_sibling_path(p), P, T).state == ModelFile::Usable);
    }
}

// Through the tuner: a log of foreign records and a truncated line is not reused (a rerun of the
// same seed would otherwise hit every one of its first round), a corrupt model file is rejected
// and left as it was, a richer model is not replaced by this run's poorer one, and a non-Diet
// file named as the log is not touched.
TEST_CASE("the tuner skips foreign log records and keeps model files it may not replace", "[files][tuner]") {
    TempDir dir("diet-test-files");
    const std::string log_a = dir.path + "/a.log", model_a = dir.path + "/a.json", report = dir.path + "/r.json";
    auto options = [&](const std::string &log, const std::string &model) {
        return Options::from_map({{"trials", "4"}, {"samples", "2"}, {"seed", "5"}, {"log", log}, {"model", model},
                                  {"report", report}});
    };
    const Halide::Target host = diet::runnable_host_target();

    // Run A: a fresh log and no model yet.
    SmallDense a;
    const std::string fingerprint = pipeline_fingerprint(a.outputs(), host);
    {
        CaptureCerr err;
        autoschedule(Halide::Pipeline(a.y), host, 2, 0, options(log_a, model_a));
        CHECK_THAT(err.str(), Catch::Contains("no cost model at " + model_a));
        CHECK_THAT(err.str(), Catch::Contains("saved to " + model_a));
    }
    nlohmann::json ra = read_json(report);
    const int measured_a = ra["measurements"];
    CHECK(measured_a >= 4);
    LogContents la = read_log(log_a);
    REQUIRE((int)la.records.size() == measured_a);
    ModelFile fa = inspect_model_file(model_a, fingerprint, la.records[0].target);
    REQUIRE(fa.state == ModelFile::Usable);
    CHECK(fa.info.trained_on >= 4);

    // Run B: the same seed with a log holding A's records as another pipeline, another target and
    // another log format, then a truncated copy of one; and a truncated copy of A's model.
    const std::string log_b = dir.path + "/b.log", model_b = dir.path + "/b.json";
    {
        std::string lines = log_header_line();
        for (const TuningRecord &r : la.records) {
            nlohmann::json j = record_to_json(r);
            nlohmann::json other_pipeline = j, other_target = j, other_format = j;
            other_pipeline["pipeline"] = "ffffffffffffffff";
            other_target["target"] = "arm-64-linux";
            other_format["format"] = 0;
            lines += other_pipeline.dump() + "\n" + other_target.dump() + "\n" + other_format.dump() + "\n";
        }
        const std::string full = record_to_json(la.records[0]).dump();
        lines += full.substr(0, full.size() - 10);
        write_file(log_b, lines);
        const std::string m = read_file(model_a);
        write_file(model_b, m.substr(0, m.size() / 2));
    }
    const std::string log_b_before = read_file(log_b), model_b_before = read_file(model_b);
    SmallDense b;
    {
        CaptureCerr err;
        autoschedule(Halide::Pipeline(b.y), host, 2, 0, options(log_b, model_b));
        const std::string n = std::to_string(la.records.size());
        CHECK_THAT(err.str(), Catch::Contains("tuning log " + log_b + ": 0 record(s) of this pipeline and target; " +
                                              std::to_string(2 * la.records.size()) +
                                              " records of other pipelines or targets ignored, 1 corrupt or "
                                              "truncated line skipped"));
        CHECK_THAT(err.str(), Catch::Contains(n + " record" + (la.records.size() == 1 ? "" : "s") +
                                              " of log format 0 skipped"));
        CHECK_THAT(err.str(), Catch::Contains("cost model file " + model_b + " is rejected: it is not an XGBoost model"));
        CHECK_THAT(err.str(), Catch::Contains(model_sibling_path(model_b)));
    }
    nlohmann::json rb = read_json(report);
    CHECK(rb["stages"][0]["log_hits"] == 0);
    CHECK(rb["measurements"].get<int>() >= 4);
    CHECK(read_file(log_b).compare(0, log_b_before.size(), log_b_before) == 0);  // appended to, never rewritten
    CHECK(read_log(log_b).records.size() == 2 * la.records.size() + rb["measurements"].get<size_t>());  // (format 0 left out)
    CHECK(read_file(model_b) == model_b_before);
    CHECK(inspect_model_file(model_sibling_path(model_b), fingerprint, la.records[0].target).state == ModelFile::Usable);

    // Run C: a non-Diet file as the log, and a model richer than this run's (A's model, said to be
    // trained on 100000 measurements): both left byte for byte.
    const std::string log_c = dir.path + "/c.log", model_c = dir.path + "/c.json";
    const std::string theirs = "{\"app\": \"someone else's\", \"entries\": [1, 2, 3]}\n";
    write_file(log_c, theirs);
    {
        PackSumModel m;
        std::string why;
        REQUIRE(m.load(model_a, &why));
        ModelInfo i = m.info();
        i.trained_on = 100000;
        m.set_info(i);
        m.save(model_c);
    }
    const std::string model_c_before = read_file(model_c);
    SmallDense c;
    {
        CaptureCerr err;
        autoschedule(Halide::Pipeline(c.y), host, 2, 0, options(log_c, model_c));
        CHECK_THAT(err.str(), Catch::Contains("the tuning log " + log_c + " is not a Diet tuning log"));
        CHECK_THAT(err.str(), Catch::Contains("cost model loaded from " + model_c + " (trained on 100000"));
        CHECK_THAT(err.str(), Catch::Contains("the cost model file " + model_c + " is left as it was"));
    }
    CHECK(read_json(report)["measurements"].get<int>() >= 4);
    CHECK(read_file(log_c) == theirs);
    CHECK(read_file(model_c) == model_c_before);
    ModelFile fc = inspect_model_file(model_sibling_path(model_c), fingerprint, la.records[0].target);
    CHECK(fc.state == ModelFile::Usable);
    CHECK(fc.info.trained_on < 100000);
}

// A killed tuner takes its measurement with it: a candidate that would run for a minute (a hang
// within the timeout) must not outlive the process that measures it.
TEST_CASE("a measurement child does not outlive its killed tuner", "[files]") {
    for (int sig : {SIGTERM, SIGINT, SIGKILL}) {
        INFO("signal " << sig);
        int fds[2];
        REQUIRE(pipe(fds) == 0);
        pid_t tuner = fork();
        REQUIRE(tuner >= 0);
        if (tuner == 0) {
            // The "tuner": measures a candidate that sleeps for a minute, well within its timeout.
            close(fds[0]);
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            IsolationLimits limits;
            limits.timeout_seconds = 120;
            run_isolated(
                [&]() {
                    pid_t me = getpid();
                    if (write(fds[1], &me, sizeof me) != (ssize_t)sizeof me) _exit(5);
                    sleep(60);
                    return ChildReport{};
                },
                limits);
            _exit(0);
        }
        close(fds[1]);
        pid_t child = 0;
        REQUIRE(read(fds[0], &child, sizeof child) == (ssize_t)sizeof child);
        close(fds[0]);
        REQUIRE(kill(child, 0) == 0);  // the measurement is running
        REQUIRE(kill(tuner, sig) == 0);
        int status = 0;
        REQUIRE(waitpid(tuner, &status, 0) == tuner);
        CHECK(WIFSIGNALED(status));
        // Gone (or a zombie waiting for whoever adopted it) within two seconds.
        auto alive = [&]() {
            std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
            std::string line;
            if (!std::getline(stat, line)) return false;
            size_t paren = line.rfind(')');
            return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
        };
        bool gone = false;
        for (int i = 0; i < 200 && !gone; i++) {
            gone = !alive();
            if (!gone) usleep(10000);
        }
        CHECK(gone);
        if (!gone) kill(child, SIGKILL);  // this test's own grandchild
    }
}
