// The family of shapes a pipeline is tuned for: the scalar parameters its estimates are written in
// (`16*T`), each with the integer values it may take, from Param ranges or HL_DIET_SHAPES.
#pragma once

#include "Halide.h"
#include "options/Options.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace diet {

using Shape = std::map<std::string, int64_t>;  // shape variable -> value

struct ShapeVar {
    std::string name;
    std::vector<int64_t> values;  // sorted, distinct
    int64_t representative = 0;   // the Param's estimate if it lies in the range, else the largest value
};

// Estimated extent of each dimension of an output, as written by the user (maybe symbolic).
struct OutputEstimate {
    std::string func;
    std::vector<std::string> vars;
    std::vector<Halide::Expr> min, extent;
};

class ShapeFamily {
public:
    std::vector<ShapeVar> vars;
    std::vector<OutputEstimate> outputs;

    uint64_t size() const;
    Shape representative() const;
    // `count` shapes spread over the family, both ends of every variable included when
    // count allows; deterministic for a given seed. All shapes when the family is small.
    std::vector<Shape> training_shapes(int count, uint64_t seed) const;
    // The training shapes the options ask for: HL_DIET_TRAINING's cartesian product (every variable
    // named, every value in the family, else a user error), else `samples` drawn from the family.
    std::vector<Shape> training_shapes(const Options &opts) const;
    // Smallest and largest value an Expr (in terms of shape variables) takes over `shapes`.
    std::pair<int64_t, int64_t> range_of(const Halide::Expr &e, const std::vector<Shape> &shapes) const;
    static int64_t evaluate(const Halide::Expr &e, const Shape &s);
    // `e` with each shape variable replaced by its value, as a constant of the variable's own type
    // (not simplified).
    static Halide::Expr bind(const Halide::Expr &e, const Shape &s);
    static std::string to_string(const Shape &s);
    // An Expr of the pipeline (an RDom's extent: a Param, an input buffer's `dim(d).extent()`) at a
    // shape: input buffers' extents and mins by the estimates the user wrote (original_estimate),
    // then the shape variables. Empty when it depends on anything else.
    static std::optional<int64_t> evaluate_pipeline_expr(const Halide::Expr &e, const Shape &s);
    // The same, bound but not folded to a constant (other Params may remain).
    static Halide::Expr bind_pipeline_expr(const Halide::Expr &e, const Shape &s);
};

// Reads the family and validates every estimate; user_error on anything malformed.
ShapeFamily read_shape_family(const std::vector<Halide::Internal::Function> &outputs, const Options &opts);

// Halide 14's AOT codegen embeds estimates in metadata and needs constants: rewrite every
// estimate (output Funcs and buffer parameters) at `shape`.
void concretize_estimates(const std::vector<Halide::Internal::Function> &outputs, const Shape &shape);

// An input buffer parameter is shared by every copy of a pipeline, so once one copy is compiled at
// one shape its estimates are constants. The estimates as the user wrote them are remembered (per
// Parameter, process-wide) the first time Diet reads or rewrites them; this returns them, min and
// extent of dimension `dim`, whatever was written into the Parameter since.
std::pair<Halide::Expr, Halide::Expr> original_estimate(const Halide::Internal::Parameter &p, int dim);

// Writes the remembered original estimates back into every input buffer Parameter of the pipeline
// (after copies compiled at some shape left constants there).
void restore_original_estimates(const std::vector<Halide::Internal::Function> &outputs);

// The extent estimate of every dimension of the input buffer `name` of `p`, as the user wrote them
// (see original_estimate); empty when `p` has no such buffer parameter.
std::vector<Halide::Expr> original_extent_estimates(const Halide::Pipeline &p, const std::string &name);

}  // namespace diet
