// The cost model's pieces: the pack-sum XGBoost model, Kendall's tau, and the adaptation terms.
#include <catch2/catch.hpp>

#include "cost/Adaptation.h"
#include "cost/BaseModel.h"
#include "cost/Dataset.h"
#include "cost/PackSumModel.h"
#include "search/ModelTraining.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

using namespace diet;

namespace {

// Programs of 1-3 rows of 6 features; the true score is a sum over rows, as pack-sum assumes.
struct Synthetic {
    std::vector<FeatureRows> programs;
    std::vector<float> labels;
};

float row_value(const std::vector<float> &x) {
    return 1.0f + 2.0f * x[0] + std::sin(3.0f * x[1]) + (x[2] > 0.5f ? 1.5f : 0.f) + x[3] * x[4];
}

Synthetic make(int n, uint64_t seed) {
    Synthetic s;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::uniform_int_distribution<int> rows(1, 3);
    for (int i = 0; i < n; i++) {
        FeatureRows p;
        float y = 0;
        for (int r = rows(rng); r > 0; r--) {
            std::vector<float> x(6);
            for (float &v : x) v = u(rng);
            y += row_value(x);
            p.push_back(x);
        }
        s.programs.push_back(p);
        s.labels.push_back(y);
    }
    return s;
}

std::vector<double> to_double(const std::vector<float> &v) {
    return std::vector<double>(v.begin(), v.end());
}

}  // namespace

TEST_CASE("Kendall's tau of identical, reversed and tied rankings", "[cost]") {
    CHECK(kendall_tau({1, 2, 3, 4}, {10, 20, 30, 40}) == Approx(1.0));
    CHECK(kendall_tau({1, 2, 3, 4}, {4, 3, 2, 1}) == Approx(-1.0));
    CHECK(std::abs(kendall_tau({1, 2, 3, 4}, {1, 1, 1, 1})) < 1e-12);
}

TEST_CASE("the pack-sum XGBoost model learns a synthetic function", "[cost]") {
    Synthetic train = make(400, 1), held_out = make(200, 2);
    PackSumModel m;
    m.train(train.programs, train.labels);
    REQUIRE(m.trained());
    CHECK(m.rounds_used() > 10);
    double tau = kendall_tau(to_double(m.predict(held_out.programs)), to_double(held_out.labels));
    INFO("Kendall tau on held-out programs: " << tau);
    CHECK(tau > 0.9);
}

TEST_CASE("training is deterministic for a seed", "[cost]") {
    Synthetic s = make(100, 3);
    PackSumModel a, b;
    a.train(s.programs, s.labels);
    b.train(s.programs, s.labels);
    CHECK(a.predict(s.programs) == b.predict(s.programs));
}

TEST_CASE("a saved model loads back with the same predictions; bad files are refused", "[cost]") {
    Synthetic s = make(120, 4);
    PackSumModel m;
    m.train(s.programs, s.labels);
    const std::string path = "diet_test_model.json";
    m.save(path);
    CHECK(!std::ifstream(path + ".tmp.json").good());  // written to a temporary, then renamed
    PackSumModel loaded;
    std::string why;
    REQUIRE(loaded.load(path, &why));
    CHECK(loaded.predict(s.programs) == m.predict(s.programs));

    std::ofstream("diet_test_garbage.json") << "{ not a model";
    PackSumModel g;
    CHECK(!g.load("diet_test_garbage.json", &why));
    CHECK(!why.empty());
    CHECK(!g.load("diet_no_such_model.json", &why));
    CHECK(why.find("cannot open") != std::string::npos);
    std::remove(path.c_str());
    std::remove("diet_test_garbage.json");
}

TEST_CASE("before the warm-up count the model gives reproducible noise", "[cost]") {
    Synthetic s = make(10, 5);
    PackSumModelParams p;
    p.warmup_programs = 50;
    PackSumModel m(p);
    m.train(s.programs, s.labels);
    auto a = m.predict(s.programs), b = m.predict(s.programs);
    CHECK(a == b);
    for (float v : a) {
        CHECK(v >= 0.f);
        CHECK(v <= 1.f);
    }
}

TEST_CASE("occupancy and padding terms", "[cost]") {
    CHECK(occupancy(132, 132, 1.0) == Approx(1.0));
    CHECK(occupancy(133, 132, 1.0) == Approx(133.0 / 264.0));
    CHECK(occupancy(133, 132, 0.5) == Approx(0.5 * 133.0 / 264.0 + 0.5));
    CHECK(padding_efficiency({100, 16}, {32, 16}) == Approx(100.0 / 128.0));
}

TEST_CASE("k is recovered from synthetic measurements", "[cost]") {
    const double k = 0.62;
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.01);
    std::vector<OccupancySample> samples;
    for (int g = 1; g <= 300; g += 7) {
        double u = (double)g / (double)(((g + 107) / 108) * 108);
        samples.push_back({u, k * u + (1 - k) + noise(rng)});
    }
    CHECK(fit_occupancy_k(samples) == Approx(k).margin(0.03));
    CHECK(fit_occupancy_k({}) == 1.0);
}

TEST_CASE("the pairwise objective learns the order within groups that the groups' offsets hide", "[cost][rank]") {
    // 40 groups (shapes) of 8 programs. A program's label is its group's offset (large, from
    // feature 0) plus a small within-group term (features 1 and 2): what the search needs is the
    // within-group order, which a squared error on the labels mostly spends its trees on the
    // offsets to learn.
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    auto make_groups = [&](int groups, size_t first_group, std::vector<FeatureRows> *p, std::vector<float> *y,
                           std::vector<size_t> *g) {
        for (int gi = 0; gi < groups; gi++) {
            const float offset = 20.f * u(rng);
            for (int i = 0; i < 8; i++) {
                std::vector<float> x = {offset, u(rng), u(rng), u(rng)};
                p->push_back({x});
                y->push_back(offset + 0.5f * x[1] + 0.3f * (x[2] > 0.5f));
                g->push_back(first_group + gi);
            }
        }
    };
    std::vector<FeatureRows> tp, hp;
    std::vector<float> ty, hy;
    std::vector<size_t> tg, hg;
    make_groups(40, 0, &tp, &ty, &tg);
    make_groups(20, 1000, &hp, &hy, &hg);
    auto within_tau = [&](Objective o) {
        PackSumModelParams params;
        params.objective = o;
        params.max_depth = 3;
        params.eta = 0.1;
        params.rounds = 100;
        PackSumModel m(params);
        m.train(tp, ty, tg);
        REQUIRE(m.trained());
        std::vector<float> s = m.predict(hp);
        double sum = 0;
        for (size_t b = 0; b < hp.size(); b += 8) {
            std::vector<double> ps(s.begin() + b, s.begin() + b + 8), ms(hy.begin() + b, hy.begin() + b + 8);
            sum += kendall_tau(ps, ms);
        }
        return sum / (hp.size() / 8);
    };
    const double pairwise = within_tau(Objective::PairwiseRank), regression = within_tau(Objective::Regression);
    INFO("pairwise " << pairwise << ", regression " << regression);
    CHECK(pairwise >= 0.7);
    CHECK(pairwise > regression);
}

TEST_CASE("a pairwise model keeps its objective and calibration through a file", "[cost][rank][files]") {
    std::vector<FeatureRows> p;
    std::vector<float> y;
    std::vector<size_t> g;
    for (int i = 0; i < 60; i++) {
        p.push_back({{(float)(i % 10), (float)(i / 10)}});
        y.push_back((float)(i % 10) + 0.1f * (i / 10));
        g.push_back((size_t)(i / 10));
    }
    PackSumModelParams params;
    params.objective = Objective::PairwiseRank;
    params.rounds = 50;
    PackSumModel m(params);
    m.train(p, y, g);
    REQUIRE(m.trained());
    ModelInfo info;
    info.format = kModelFormat;
    info.features = "kernel";
    m.set_info(info);
    const std::string path = "/tmp/diet_test_pairwise_" + std::to_string((long)::getpid()) + ".json";
    m.save(path);
    PackSumModel back;  // default params: regression, until the file says otherwise
    std::string why;
    REQUIRE(back.load(path, &why));
    CHECK(back.info().objective == "pairwise");
    CHECK(back.info().features == "kernel");
    CHECK(back.predict(p) == m.predict(p));
    std::remove(path.c_str());
}

TEST_CASE("objective names", "[cost][rank][options]") {
    CHECK(objective_from_name("pairwise") == Objective::PairwiseRank);
    CHECK(objective_from_name("regression") == Objective::Regression);
    CHECK_THROWS_WITH(objective_from_name("lambdamart"), Catch::Contains("unknown cost-model objective"));
}

TEST_CASE("dataset records round-trip through a file, gzip included, and bad lines are named", "[cost][dataset]") {
    DatasetRecord r;
    r.pipeline = "abc";
    r.label = "dense/inline_sum@0";
    r.stage = "sum";
    r.target = "x86-64-linux-avx-avx2-fma";
    r.shape = "T=3";
    r.kernel.kernel.cpu.vector_width = 8;
    r.kernel.kernel.cpu.vectors = 3;
    r.kernel.kernel.cpu.rows = 4;
    r.kernel.extents = {96, 48};
    r.kernel.reduction_points = 64;
    r.kernel.contraction.strided_operands = 1;
    r.flops = 2.0 * 96 * 48 * 64;
    r.seconds = 1.5e-4;
    DatasetRecord failed = r;
    failed.seconds.reset();
    const std::string path = "/tmp/diet_test_dataset_" + std::to_string((long)::getpid()) + ".jsonl";
    std::remove(path.c_str());
    append_dataset(path, {r});
    append_dataset(path, {failed});
    std::vector<DatasetRecord> back = read_dataset({path});
    REQUIRE(back.size() == 2);
    CHECK(back[0].to_json() == r.to_json());
    CHECK(!back[1].seconds);
    CHECK(kernel_features(back[0].kernel) == kernel_features(r.kernel));
    CHECK(back[0].group() == "abc|sum|T=3");
    REQUIRE(std::system(("gzip -kf " + path).c_str()) == 0);
    CHECK(read_dataset({path + ".gz"}).size() == 2);
    std::ofstream(path, std::ios::app) << "{\"format\": 1}\n";
    CHECK_THROWS_WITH(read_dataset({path}), Catch::Contains("malformed dataset record"));
    std::remove(path.c_str());
    std::remove((path + ".gz").c_str());
}

TEST_CASE("the shipped model is used only for its target class and with loop-nest features", "[cost][base_model]") {
    const Halide::Target avx512("x86-64-linux-avx-avx2-avx512-avx512_skylake-fma-f16c-sse41");
    const Halide::Target avx2("x86-64-linux-avx-avx2-fma-f16c-sse41");
    CHECK(target_class(avx512) == "x86-64/512-bit/32-vregs");
    CHECK(target_class(avx2) == "x86-64/256-bit/16-vregs");
    CHECK(base_model_path("none", avx2).empty());
    CHECK(base_model_path("/x/m.json", avx2) == "/x/m.json");
    CHECK(base_model_path("", avx2).find("/diet_models/x86-64_256-bit_16-vregs.json") != std::string::npos);

    // A model trained for AVX-512 offered to an AVX2 target, a per-pipeline model, and no file.
    std::vector<FeatureRows> p;
    std::vector<float> y;
    for (int i = 0; i < 20; i++) {
        p.push_back({{(float)i, 1.f}});
        y.push_back((float)i);
    }
    PackSumModel m(base_model_params(Objective::PairwiseRank));
    m.train(p, y, std::vector<size_t>(20, 0));
    ModelInfo info = shipped_model_info(m.info(), target_class(avx512), "kernel", 20);
    m.set_info(info);
    const std::string path = "/tmp/diet_test_base_" + std::to_string((long)::getpid()) + ".json";
    m.save(path);
    std::string why;
    CHECK(BaseModel::load(path, target_class(avx512), &why) != nullptr);
    CHECK(why.empty());
    CHECK(BaseModel::load(path, target_class(avx2), &why) == nullptr);
    CHECK_THAT(why, Catch::Contains("a model for x86-64/512-bit/32-vregs, not x86-64/256-bit/16-vregs"));
    info.pipeline = "0123456789abcdef";
    m.set_info(info);
    m.save(path);
    CHECK(BaseModel::load(path, target_class(avx512), &why) == nullptr);
    CHECK_THAT(why, Catch::Contains("a model of one pipeline"));
    std::remove(path.c_str());
    CHECK(BaseModel::load(path, target_class(avx512), &why) == nullptr);
    CHECK(why.empty());  // no file: nothing to warn about
}

TEST_CASE("every shipped model loads for its own target class and for no other", "[cost][base_model]") {
    // models/ holds one file per class (models/README.md): the AVX-512 and the AVX2 models.
    const Halide::Target avx512("x86-64-linux-avx-avx2-avx512-avx512_skylake-fma-f16c-sse41");
    const Halide::Target avx2("x86-64-linux-avx-avx2-fma-f16c-sse41");
    for (const Halide::Target &t : {avx512, avx2}) {
        const std::string cls = target_class(t);
        const std::string file = base_model_path("", t);
        const std::string name = file.substr(file.rfind('/') + 1);
        const std::string path = std::string(DIET_SHIPPED_MODELS_DIR) + "/" + name;
        INFO(path);
        std::string why;
        auto m = BaseModel::load(path, cls, &why);
        REQUIRE(m != nullptr);
        CHECK(why.empty());
        CHECK(m->info().target == cls);
        CHECK(m->info().pipeline == kAnyPipeline);
        const Halide::Target other = t == avx512 ? avx2 : avx512;
        CHECK(BaseModel::load(path, target_class(other), &why) == nullptr);
        CHECK_THAT(why, Catch::Contains("not " + target_class(other)));
    }
}

// The hidden child of the test below: prints where it looks for the default model.
TEST_CASE("(child) print the default model path", "[.print-model-path]") {
    std::printf("MODEL_PATH=%s\n", base_model_path("", Halide::Target("x86-64-linux-avx-avx2-fma-f16c-sse41")).c_str());
}

TEST_CASE("the default model is found beside the executable whatever its argv[0] and working directory",
          "[cost][base_model]") {
    const Halide::Target avx2("x86-64-linux-avx-avx2-fma-f16c-sse41");
    const std::string own = base_model_path("", avx2);
    REQUIRE(own.rfind('/', 0) == 0);  // absolute: the executable's directory, not a relative name
    // The same executable run as a bare name from another directory (glibc reports the main
    // program's name as argv[0]; a farm test's child ran like this and read another model).
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        if (chdir("/") != 0) _exit(126);
        execl("/proc/self/exe", "test_cost", "[.print-model-path]", (char *)nullptr);
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    char buf[512];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, n);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const size_t at = out.find("MODEL_PATH=");
    REQUIRE(at != std::string::npos);
    CHECK(out.substr(at + 11, out.find('\n', at) - at - 11) == own);
}

TEST_CASE("a plan model and a kernel model are not taken for each other", "[cost][base_model][plans]") {
    const Halide::Target avx2("x86-64-linux-avx-avx2-fma-f16c-sse41");
    CHECK(base_plan_model_path("none", avx2).empty());
    CHECK(base_plan_model_path("/x/p.json", avx2) == "/x/p.json");
    CHECK(base_plan_model_path("", avx2).find("/diet_models/plans_x86-64_256-bit_16-vregs.json") != std::string::npos);
    std::vector<FeatureRows> p;
    std::vector<float> y;
    for (int i = 0; i < 20; i++) {
        p.push_back({{(float)i, 1.f}});
        y.push_back((float)i);
    }
    PackSumModel m(plan_model_params());
    m.train(p, y, std::vector<size_t>(20, 0));
    ModelInfo info = shipped_model_info(m.info(), target_class(avx2), "plan", 20);
    m.set_info(info);
    const std::string path = "/tmp/diet_test_plan_model_" + std::to_string((long)::getpid()) + ".json";
    m.save(path);
    std::string why;
    auto loaded = BaseModel::load(path, target_class(avx2), &why, "plan");
    REQUIRE(loaded != nullptr);
    CHECK(why.empty());
    // Its scores order the plans as the labels did (higher: faster).
    const std::vector<float> s = loaded->predict_plans({{{2.f, 1.f}}, {{15.f, 1.f}}});
    CHECK(s[1] > s[0]);
    CHECK(BaseModel::load(path, target_class(avx2), &why) == nullptr);  // asked for a kernel model
    CHECK_THAT(why, Catch::Contains("a model of plan features, not loop-nest (kernel) features"));
    std::remove(path.c_str());
}
