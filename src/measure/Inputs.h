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

// The estimates of every buffer parameter of a pipeline, saved so they can be put back.
// instantiate() and unscheduled_copy() make them constant at one shape in the Parameters the
// copies share with the original pipeline; measuring at the next shape needs the original
// (symbolic) ones again, and the caller gets its pipeline back as it was. Restores on destruction.
class SavedEstimates {
public:
    explicit SavedEstimates(const std::vector<Halide::Internal::Function> &outputs);
    ~SavedEstimates() { restore(); }
    SavedEstimates(const SavedEstimates &) = delete;
    SavedEstimates &operator=(const SavedEstimates &) = delete;
    void restore();

private:
    struct Saved {
        Halide::Internal::Parameter param;
        std::vector<Halide::Expr> min, extent;
    };
    std::vector<Saved> saved_;
};

}  // namespace diet
