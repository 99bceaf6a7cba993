// The harness of the style tests (test_styles, test_image_styles): a pipeline built twice, one copy
// scheduled by Diet with default options, the other unscheduled, compared at each shape.
#pragma once

#include <optional>

#include <catch2/catch.hpp>

#include "test_support.h"

#include "Halide.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"

#include <functional>
#include <sstream>

namespace diet_test {

using namespace Halide;

using Sizes = std::vector<std::vector<int>>;

// One copy of a pipeline: its output, inputs and shape variables, and the buffer sizes at a shape.
struct Built {
    Func out;
    std::vector<ImageParam> inputs;
    std::vector<Param<int>> vars;
    std::function<Sizes(const std::vector<int> &)> in_sizes;
    std::function<std::vector<int>(const std::vector<int> &)> out_sizes;
};

// Builds the pipeline twice (Diet's copy, the reference), schedules the first, compares at each
// shape. Returns Diet's log.
// `lowered_text`: if given, receives Diet's lowered Stmt; `schedule_source`, Diet's schedule source.
// `target`: scheduled and run for this one (default: the host's, runnable_host_target()).
inline std::string check_style(const std::function<Built()> &build, const std::vector<std::vector<int>> &shapes,
                        std::string *lowered_text = nullptr, std::string *schedule_source = nullptr,
                        std::optional<Target> for_target = std::nullopt) {
    Built d = build(), r = build();
    // The reference runs unscheduled: Halide 14's codegen takes constant estimates only.
    Region one_out(r.out.dimensions(), Range(0, 1));
    r.out.set_estimates(one_out);
    for (ImageParam &p : r.inputs) p.set_estimates(Region(p.dimensions(), Range(0, 1)));
    const Target target = for_target.value_or(diet::runnable_host_target());
    diet_test::StderrCapture cap(false);
    try {
        const diet::DietResult result = diet::autoschedule(Pipeline(d.out), target, 2, 0, diet::Options{});
        if (schedule_source) *schedule_source = result.schedule_source;
    } catch (const Halide::Error &e) {
        FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    Pipeline dp(d.out), rp(r.out);
    if (lowered_text) {
        std::ostringstream text;
        text << dp.compile_to_module(dp.infer_arguments(), "diet_style", target);
        *lowered_text = text.str();
    }
    dp.compile_jit(target);
    for (const std::vector<int> &s : shapes) {
        std::string label;
        for (int v : s) label += std::to_string(v) + " ";
        INFO("shape " << label);
        for (size_t i = 0; i < s.size(); i++) {
            d.vars[i].set(s[i]);
            r.vars[i].set(s[i]);
        }
        const Sizes in = d.in_sizes(s);
        for (size_t i = 0; i < d.inputs.size(); i++) {
            Buffer<> b = random_input(d.inputs[i].type(), in[i], 11 + (uint32_t)i, -1, 1);
            d.inputs[i].set(b);
            r.inputs[i].set(b);
        }
        CHECK(compare(dp.realize(d.out_sizes(s), target), rp.realize(r.out_sizes(s), target)) == "");
    }
    return log;
}

inline Param<int> shape_var(const char *name, int lo, int hi, int estimate) {
    Param<int> p(name);
    p.set_range(lo, hi);
    p.set_estimate(estimate);
    return p;
}

}  // namespace diet_test
