// The text `-e schedule` writes: a header comment that says what Diet decided and why, then the
// recorded directives (see schedule/ScheduleWriter.h).
#pragma once

#include "analysis/ShapeFamily.h"
#include "schedule/ApplySchedule.h"
#include "schedule/ScheduleWriter.h"

#include <string>
#include <vector>

namespace diet {

std::string schedule_source(const ShapeFamily &family, const std::vector<Shape> &training,
                            const std::vector<KernelChoice> &kernels, const std::vector<std::string> &notes,
                            const ScheduleWriter &w);

}  // namespace diet
