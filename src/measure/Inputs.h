// What a pipeline is called with at one shape, as ArgSpecs: input buffers with the extents of
// their estimates, output buffers with the extents of the outputs' estimates, scalar parameters
// at the shape's value (shape variables) or their estimate or default.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "measure/Arguments.h"

#include <vector>

namespace diet {

// user_error when an input buffer or an output has no estimate for some dimension.
std::vector<ArgSpec> argument_specs(Halide::Pipeline p, const Shape &shape);

// instantiate() and unscheduled_copy() make the input estimates constant at one shape in the
// Parameters the copies share with the original pipeline. This guard gives the caller its pipeline
// back as it was written (ShapeFamily's remembered original estimates) on restore() and on
// destruction.
class SavedEstimates {
public:
    explicit SavedEstimates(const std::vector<Halide::Internal::Function> &outputs);
    ~SavedEstimates() { restore(); }
    SavedEstimates(const SavedEstimates &) = delete;
    SavedEstimates &operator=(const SavedEstimates &) = delete;
    void restore() { restore_original_estimates(outputs_); }

private:
    std::vector<Halide::Internal::Function> outputs_;
};

}  // namespace diet
