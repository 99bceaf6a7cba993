// The tuning loop end to end on the host CPU: real measurements of a small dense layer over
// T in [1, 16], logged and resumable, with the tuned schedule checked for correctness.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "dense_fixture.h"
#include "dispatch/Dispatch.h"
#include "space/Hardware.h"
#include "space/MicroKernel.h"
#include "measure/TuningLog.h"
#include "options/Options.h"
#include "plugin/Diet.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>

using namespace Halide;

namespace {

// 200 columns, T in [1, 16].
struct SmallDense : DenseFixture {
    SmallDense() : DenseFixture(200, 16, 8) {}
};

nlohmann::json read_json(const std::string &path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::string without_unique_suffixes(const std::string &s) {
    return std::regex_replace(std::regex_replace(s, std::regex("\\$[0-9]+"), ""), std::regex("_[0-9]+"), "");
}

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

TEST_CASE("a tuning run measures exactly its budget, logs it, and a rerun resumes from the log", "[tuner]") {
    const std::string log = "diet_test_tuner.log", report = "diet_test_tuner.json", model = "diet_test_tuner_model.json";
    std::remove(log.c_str());
    std::remove(model.c_str());
    diet::Options o = diet::Options::from_map(
        {{"trials", "12"}, {"samples", "4"}, {"log", log}, {"report", report}, {"seed", "3"}});

    SmallDense first;
    std::string src1 = diet::autoschedule(Pipeline(first.y), diet::runnable_host_target(), 2, 0, o).schedule_source;
    nlohmann::json r1 = read_json(report);
    REQUIRE(r1["stages"].size() == 1);
    const int verified1 = r1["stages"][0]["verification_measurements"];
    CHECK(r1["measurements"] == 12 + verified1);  // the search's budget exactly, plus the dispatch's check
    CHECK(verified1 <= 4);                         // at most one per training shape
    CHECK(r1["stages"][0]["log_hits"] == 0);
    CHECK(r1["stages"][0]["shapes"].size() == 4);
    CHECK(r1["stages"][0]["fitted_k"].get<double>() >= 0.0);
    CHECK(r1["stages"][0]["fitted_k"].get<double>() <= 1.0);
    CHECK(r1["stages"][0].contains("dispatch"));
    CHECK(r1["stages"][0]["model_quality_cross_validated"]["pairs"].get<int>() >= 12);
    diet::LogContents contents = diet::read_log(log);
    CHECK((int)contents.records.size() == 12 + verified1);
    CHECK(contents.dispatches.size() == 1);
    CHECK(contents.skipped == 0);
    for (const auto &rec : contents.records) CHECK(rec.features_digest.size() == 16);
    // Every candidate built and ran (a measurement path that fails them all still fills the log:
    // one that built with symbolic estimates did, and only the interrupt test noticed).
    for (const auto &rec : contents.records) {
        INFO(rec.micro_kernel << ": " << rec.error);
        CHECK(rec.ok());
    }
    // The dispatched schedule is correct in the range and outside it (T = 20: the nearest leaf).
    for (int t : {1, 5, 16, 20}) check_correct(first, t);

    // Same pipeline, seed and log: what the log already has is reused, never measured again. The
    // first round (picked before any model exists) is the same as before, so all of it comes from
    // the log; later rounds may pick differently (the model is retrained on features that can
    // differ in their integer index arithmetic from one process history to another).
    SmallDense second;
    std::string src2 = diet::autoschedule(Pipeline(second.y), diet::runnable_host_target(), 2, 0, o).schedule_source;
    nlohmann::json r2 = read_json(report);
    const int hits = r2["stages"][0]["log_hits"], fresh = r2["measurements"];
    const int verified2 = r2["stages"][0]["verification_measurements"];
    CHECK(hits + fresh >= 12);
    CHECK(hits + fresh <= 12 + 4);
    CHECK(hits >= 8);
    diet::LogContents after = diet::read_log(log);
    CHECK((int)after.records.size() == 12 + verified1 + fresh);
    (void)verified2;
    std::set<std::string> pairs;
    for (const auto &rec : after.records) {
        std::string key = rec.micro_kernel;
        for (const auto &[v, x] : rec.shape) key += "|" + v + "=" + std::to_string(x);
        INFO(key);
        CHECK(pairs.insert(key).second);  // no (kernel, shape) measured twice
    }
    for (int t : {2, 16}) check_correct(second, t);

    // No trials, same log: the recorded dispatch is applied as it is; nothing is measured and the
    // schedule source is byte-identical to the run that recorded it.
    diet::Options replay = o;
    replay.trials = 0;
    SmallDense third;
    std::string src3 = diet::autoschedule(Pipeline(third.y), diet::runnable_host_target(), 2, 0, replay).schedule_source;
    // (In one process the three pipelines' Funcs get unique names, acc$1, acc$3, ...: compared
    // without those suffixes. The GenGen rerun in test/CMakeLists.txt compares files byte for byte.)
    CHECK(without_unique_suffixes(src3) == without_unique_suffixes(src2));
    CHECK(read_json(report)["measurements"] == 0);
    CHECK(diet::read_log(log).records.size() == after.records.size());
    CHECK_THAT(src3, Catch::Contains("specialize"));
    for (int t : {3, 16, 20}) check_correct(third, t);
    std::remove(log.c_str());
    std::remove(report.c_str());
}

TEST_CASE("shapes below the training shapes vote with the prior among the measured kernels", "[tuner]") {
    // Trained on T = 4..16, the run's model has no measurement near T = 1..3: there the dispatch
    // follows the prior the untuned run ranks with (here the analytic heuristic: no shipped
    // model), restricted to the kernels measured (PatternTunerDispatch.cpp, prior votes).
    const std::string log = "diet_test_tuner_prior.log", report = "diet_test_tuner_prior.json";
    std::remove(log.c_str());
    diet::Options o = diet::Options::from_map({{"trials", "10"}, {"samples", "4"}, {"training", "T=4,8,12,16"},
                                               {"log", log}, {"report", report}, {"seed", "5"}, {"base_model", "none"}});
    SmallDense d;
    const Target target = diet::runnable_host_target();
    diet::autoschedule(Pipeline(d.y), target, 2, 0, o);
    nlohmann::json r = read_json(report);
    REQUIRE(r["stages"].size() == 1);
    const nlohmann::json &st = r["stages"][0];
    CHECK(st["dispatch_decision"]["prior_votes"] == "T=1..3 (3 shapes)");
    const diet::Dispatch disp = diet::dispatch_from_json(st["dispatch"], "the test's report");

    // The space as the tuner enumerates it, to score the measured kernels with the heuristic.
    SmallDense fresh;
    diet::FunctionDAG dag(fresh.outputs());
    REQUIRE(dag.matmuls().size() == 1);
    const diet::MatmulPattern &p = dag.matmuls()[0];
    diet::ShapeFamily fam = diet::read_shape_family(fresh.outputs(), o);
    const diet::MatmulExtents train = diet::matmul_extents(p, fam, {{{"T", 4}}, {{"T", 8}}, {{"T", 12}}, {{"T", 16}}});
    const diet::CpuLimits cpu = diet::CpuLimits::for_target(target, 2, 0);
    std::vector<diet::MicroKernel> space = diet::enumerate_cpu_kernels(p, train, cpu);
    std::map<std::string, diet::MicroKernel> measured;
    for (const auto &rec : diet::read_log(log).records) {
        if (!rec.ok()) continue;
        // Logged as "<stage>:<kernel>".
        const std::string name = rec.micro_kernel.substr(rec.micro_kernel.find(':') + 1);
        auto it = std::find_if(space.begin(), space.end(), [&](const diet::MicroKernel &k) { return k.to_string() == name; });
        INFO(rec.micro_kernel);
        REQUIRE(it != space.end());
        measured.emplace(name, *it);
    }
    REQUIRE(measured.size() >= 2);
    for (int t : {1, 2, 3}) {
        const std::vector<int64_t> host = diet::matmul_extents(p, fam, {{{"T", t}}}).host_extents.at(0);
        const diet::MicroKernel &got = disp.leaves.at(disp.leaf_for(host)).kernel;
        // The heuristic's best among the measured kernels of the same operand staging (one
        // staging per stage: the dispatch restricts its candidates to the majority's). The
        // dispatch may give these shapes a kernel within its merge tolerance of that one (a
        // kernel whose removal costs under 0.5% in mean relative time over the 16 shapes is
        // dropped: up to 16 / 3 x 0.5% at these three), so the check is on the prior's score.
        const diet::MatmulExtents here = diet::extents_at_one_shape(train, host);
        double best = -1;
        std::string expected;
        for (const auto &[name, k] : measured) {
            if (k.cpu.stage_strided != got.cpu.stage_strided) continue;
            const double score = diet::heuristic_score(k, here, cpu.cores);
            if (score > best) best = score, expected = name;
        }
        const double got_score = diet::heuristic_score(got, here, cpu.cores);
        INFO("T=" << t << ": dispatched " << got.to_string() << " (prior score " << got_score << "), the prior's best "
                  << expected << " (" << best << ")");
        CHECK(got_score >= 0.97 * best);
    }
    // Shapes inside the box vote with the run's model: with T = 1 among the training shapes,
    // no shape is outside it.
    diet::Options inside = o;
    inside.training = diet::parse_shape_specs("T=1,6,11,16", "HL_DIET_TRAINING");
    std::remove(log.c_str());
    SmallDense again;
    diet::autoschedule(Pipeline(again.y), target, 2, 0, inside);
    CHECK(read_json(report)["stages"][0]["dispatch_decision"]["prior_votes"] == "");
    for (int t : {1, 3, 16}) check_correct(again, t);
    std::remove(log.c_str());
    std::remove(report.c_str());
}

TEST_CASE("with no trials and no model nothing is measured", "[tuner]") {
    SmallDense d;
    diet::Options o;
    o.report_path = "diet_test_tuner_none.json";
    std::remove(o.report_path.c_str());
    diet::autoschedule(Pipeline(d.y), diet::runnable_host_target(), 2, 0, o);
    // The heuristic ranks the kernels per shape (no model is found beside the test): a report of
    // that decision, with nothing measured.
    std::ifstream in(o.report_path);
    REQUIRE(in.good());
    const nlohmann::json j = nlohmann::json::parse(in);
    CHECK(j.at("measurements").get<int>() == 0);
    CHECK(j.at("seconds_running").get<double>() == 0.0);
    std::remove(o.report_path.c_str());
}

// Issue 4's model-quality bar. Hidden from the default run (the "[.slow]" tag: about 6 minutes on
// the 2-core VM). Run it with: build/test/test_tuner "[slow]"
// Kendall's tau between predicted and measured times of candidates the model was not trained on,
// two ways: the measurements of the second half of the run as predicted before the model saw them,
// and an 8-fold cross-validation over all the run's measurements.
TEST_CASE("tuning the BERT dense layer with 64 trials predicts held-out candidates (tau >= 0.5)", "[tuner][.slow]") {
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w");
    Param<int> T("T", 32, 1, 128);
    Func acc("acc"), y("y");
    Var n("n"), m("m");
    RDom k(0, 768, "k");
    acc(n, m) = 0.f;
    acc(n, m) += x(k, m) * w(k, n);
    y(n, m) = acc(n, m);
    x.dim(0).set_estimate(0, 768);
    x.dim(1).set_estimate(0, 16 * T);
    w.set_estimates({{0, 768}, {0, 2304}});
    y.set_estimates({{0, 2304}, {0, 16 * T}});
    const std::string report = "diet_test_tuner_dense.json";
    diet::Options o = diet::Options::from_map(
        {{"trials", "64"}, {"report", report}, {"seed", "1"}, {"training", "T=5,24,43,62,81,100,119,128"}});
    diet::autoschedule(Pipeline(y), diet::runnable_host_target(), 2, 0, o);
    nlohmann::json r = read_json(report);
    const auto &stage = r["stages"][0];
    CHECK(r["measurements"].get<int>() >= 64);
    INFO(stage.dump(2));
    const auto &cv = stage["model_quality_cross_validated"];
    const auto &late = stage["model_quality_held_out_late"];
    CHECK(cv["pairs"].get<int>() >= 60);
    CHECK(cv["kendall_tau_seconds"].get<double>() >= 0.5);
    CHECK(late["pairs"].get<int>() >= 24);
    CHECK(late["kendall_tau_seconds"].get<double>() >= 0.5);
    // Ranking the kernels within one shape is the harder task (8 candidates a shape, measurement
    // noise of a shared VM): printed, not checked; the README reports where it stands (0.00 to 0.60
    // across runs).
    std::cout << "model quality, cross-validated: " << cv.dump() << "\nmodel quality, held out (late): " << late.dump()
              << "\nmodel quality, held out (all): " << stage["model_quality_held_out"].dump() << "\n";
    std::remove(report.c_str());
}
