// The Diet autoscheduler: pipeline -> analysis -> space -> schedule -> emitted source.
#pragma once

#include "Halide.h"
#include "options/Options.h"

#include <string>

namespace diet {

struct DietResult {
    std::string schedule_source;
    std::string featurization;  // JSON: the chosen micro-kernels' feature rows (-e featurization)
};

// Schedules `pipeline` for `target` in place. `parallelism` is the core count to plan for.
DietResult autoschedule(const Halide::Pipeline &pipeline, const Halide::Target &target, int parallelism,
                        int64_t last_level_cache_bytes, const Options &opts);

// Registers "Diet" with Halide in this process (the plugin does this when it is loaded).
void register_autoscheduler();

}  // namespace diet
