// The definitions and schedules of a pipeline's Funcs as they were before Diet scheduled them,
// restored when applying Diet's schedule fails part-way (Halide refuses a directive it was given:
// red-team round 19's bignum product threw from auto_schedule). The pipeline is then left as its
// author wrote it, correct, and the plugin says so once instead of failing the generator.
#pragma once

#include "Halide.h"

#include <vector>

namespace diet {

class ScheduleSnapshot {
public:
    // Copies every Func's pure definition, updates (with their specializations and stage
    // schedules) and Func schedule. rfactor() rewrites an update's definition, so definitions are
    // part of what is kept.
    explicit ScheduleSnapshot(const std::vector<Halide::Internal::Function> &funcs);
    // Puts them back. Funcs Diet created (wrappers, rfactor intermediates) are then unreachable.
    void restore() const;

private:
    struct Saved {
        Halide::Internal::Function func;
        Halide::Internal::Definition pure;
        std::vector<Halide::Internal::Definition> updates;
        Halide::Internal::FuncSchedule schedule;
    };
    std::vector<Saved> saved_;
};

}  // namespace diet
