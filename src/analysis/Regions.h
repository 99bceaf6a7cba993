// How much of each Func a computation needs: the box of every producer required to compute a
// given box of some consumers (Halide's own bounds inference, boxes_required, applied along the
// DAG), with every shape variable bound to one shape so that extents are numbers. The grouping
// rules use it twice: over the whole pipeline (how big is each Func) and per tile of a group (how
// much of each member a tile recomputes).
#pragma once

#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace diet {

// A box with constant bounds per dimension; `bounded` false when some bound is unknown (a
// data-dependent index such as lut(f(x)) of a float, or a shape the binding cannot fold).
struct ConstBox {
    std::vector<int64_t> min, extent;
    bool bounded = true;
    int64_t size() const;  // product of the extents (0 when unbounded)
};

// The boxes of every Func in `within` that computing `sinks` (Func -> box) requires. Funcs are
// visited consumers first; a Func's own box is the union of what its consumers in `sinks` or
// `within` need. Updates count with their reduction domains (constant or bound by `shape`).
// With `one_step_of`, that Func's reduction variables are bound to their first value: the
// region one step of its reduction loops needs (producers computed inside those loops).
std::map<std::string, ConstBox> regions_required(const FunctionDAG &dag, const std::map<std::string, ConstBox> &sinks,
                                                 const std::set<std::string> &within, const Shape &shape,
                                                 const std::string &one_step_of = "");

// The trip count of a Func's last update's reduction loops at `shape` (1 without updates; 0 when
// unknown).
int64_t last_update_trips(const FuncNode &n, const Shape &shape);

// The box of each output at `shape` from its estimates (1024 per dimension where none is given).
std::map<std::string, ConstBox> output_boxes(const FunctionDAG &dag, const ShapeFamily &family, const Shape &shape);

// The outputs' boxes at the family's smallest shape `smallest`, each extent lowered to the least
// its estimate takes over the family's ranges (interval arithmetic over every shape variable's
// values and the other Params' ranges): an extent that shrinks as a variable grows (N - K + 1)
// is smallest at no single corner of the family. What guard-free splits may rely on.
std::map<std::string, ConstBox> smallest_output_boxes(const FunctionDAG &dag, const ShapeFamily &family, const Shape &smallest);

// Arithmetic operations of one point of a Func, all stages (update bodies times their reduction
// extent when constant). A coarse measure of how much recomputing a point costs.
double ops_per_point(const FuncNode &n);

// The work of computing `required` of a Func (ops of its pure definition over the region it
// computes, plus each update's ops per iteration times its iterations: a scan's reduction domain
// runs whole whatever region is required). `computed` receives the region computed (required
// grown by the updates' writes); unbounded when some update bound is unknown.
double work_for_region(const FuncNode &n, const ConstBox &required, const Shape &shape, ConstBox *computed);

// Bytes of one point (all Tuple elements).
int bytes_per_point(const FuncNode &n);

}  // namespace diet
