// The cost model's pieces: the pack-sum XGBoost model, Kendall's tau, and the adaptation terms.
#include <catch2/catch.hpp>

#include "cost/Adaptation.h"
#include "cost/PackSumModel.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>

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
