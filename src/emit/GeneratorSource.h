// HL_DIET_EMIT_GENERATOR: a standalone Halide generator .cpp that rebuilds the pipeline's algorithm
// from its Func definitions and applies the schedule Diet chose (the ScheduleWriter's source), so that
// GenGen builds the same library without the plugin.
#pragma once

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"

#include <string>

namespace diet {

// The generator source. `dag` is the DAG Diet scheduled (built before any schedule was applied: its
// pipeline indices are the ones the schedule source fetches with pipeline.get_func(i));
// `schedule_statements` is ScheduleWriter::source(). Call it before concretize_estimates(), so the
// estimates are still as the user wrote them. Anything the printer cannot spell exactly is a
// user_error that names the Func and the construct; it never emits approximate code.
std::string generator_source(const Halide::Pipeline &pipeline, const FunctionDAG &dag, const ShapeFamily &family,
                             const std::string &schedule_statements,
                             const std::string &registered_name = "diet_emitted");

}  // namespace diet
