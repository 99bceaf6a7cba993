// Applies scheduling directives to the live Funcs and records each one as the C++ statement that
// reproduces it inside `apply_schedule_<name>(Pipeline pipeline, Target target)`, so that the
// schedule Diet compiles and the source `-e schedule` writes cannot drift apart.
#pragma once

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "schedule/SizeExpr.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace diet {

// A condition for specialize(), with its C++ spelling.
struct Condition {
    Halide::Expr expr;
    std::string text;
};

class ScheduleWriter {
public:
    struct FuncRef {
        Halide::Func func;
        std::string ident;  // C++ variable holding it
    };
    struct StageRef {
        Halide::Stage stage;
        std::string ident;  // C++ expression or variable for the Stage
        std::set<std::string> rvars;
        // StageNode::vanishing_reads: Halide 14 can crash compiling a specialization of such a
        // stage, so it is not specialized.
        std::set<std::string> vanishing_reads;
        // A specialization left out for that reason: directives on it are neither applied nor
        // emitted, and the stage runs its unspecialized schedule for every shape.
        bool discarded = false;
    };

    explicit ScheduleWriter(bool echo) : echo_(echo) {}

    FuncRef func(const FuncNode &node);
    FuncRef wrapper(const FuncRef &producer, const FuncRef &consumer);  // producer.in(consumer)
    FuncRef wrapper(const FuncRef &producer);  // producer.in(): read by every consumer
    FuncRef clone_in(const FuncRef &producer, const FuncRef &consumer);  // a copy of producer's definition for consumer alone
    // update.rfactor({}): the whole reduction of an update moves into a new Func (pure init with
    // the reduction's identity, the same update); the update then adds that Func's value.
    FuncRef rfactor_all(const StageRef &update, const std::string &base);
    // update.rfactor(rvar, v): the reduction over `rvar` moves into a new Func with a pure
    // variable `v` in its place (one partial result per value of rvar).
    FuncRef rfactor(const StageRef &update, const std::string &rvar, const std::string &v, const std::string &base);
    // After rfactor_all of an output's only update `out(v) += e` (schedule/LiftedUpdate.h): the
    // output's pure definition becomes `init(v) + acc(v)` and its update `out(v) = out(v)`, which
    // Halide drops as a no-op store. The output is then computed like an accumulator's consumer:
    // no pass writing its initial values, none adding acc to them. Changes the definitions, as
    // rfactor does; the source spells it with Halide::Internal::Function.
    void lift_update(const FuncRef &out, const FuncRef &acc);
    StageRef stage(const FuncRef &f, int index, const StageNode &node);
    // While a scope is open, stage() of the Funcs named in it returns the stage's specialization
    // on the scope's condition (made once per stage and scope): the same directives then schedule
    // that branch (a group scheduled once per value of a small-range Param, schedule/ParamValues.cpp).
    void open_specialization_scope(const std::set<std::string> &funcs, const Condition &c);
    void close_specialization_scope();
    // A specialization of `s` on `c`; a discarded one (above) where `s` has vanishing reads.
    StageRef specialize(const StageRef &s, const Condition &c);
    // Whether `s` was specialized already on a condition equal to `c` once simplified: Halide
    // hands back that specialization, so scheduling a second one there reuses its loop names.
    bool specialized_on(const StageRef &s, const Condition &c) const;

    Condition all_of(const std::vector<Condition> &cs);
    // The disjunction; each term parenthesized in the printed text.
    Condition any_of(const std::vector<Condition> &cs);
    // An output Func's extent along `dim` at run time.
    SizeExpr output_extent(const FuncRef &output, int dim);
    SizeExpr output_min(const FuncRef &output, int dim);
    // A size known before the pipeline runs (analysis/SymbolicRegion.h: is_run_time_size), spelled
    // with the outputs' buffers (`output_ident` spells an output buffer, by its Parameter's name,
    // as C++: "y.output_buffer()"; empty for an input's) and, for scalar parameters and input
    // buffers' bounds, variables the source declares by finding them in the pipeline's definitions.
    SizeExpr run_time_size(const Halide::Expr &e, const std::function<std::string(const std::string &func)> &output_ident);
    Condition at_least(const SizeExpr &size, int64_t value);
    Condition at_most(const SizeExpr &size, int64_t value);
    Condition equal_to(const SizeExpr &size, int64_t value);
    Condition multiple_of(const SizeExpr &size, int64_t value);  // size % value == 0
    Condition not_multiple_of(const SizeExpr &size, int64_t value);  // size % value != 0

    void compute_root(const FuncRef &f);
    void compute_at(const FuncRef &f, const FuncRef &at, const std::string &var, bool var_is_rvar);
    void store_at(const FuncRef &f, const FuncRef &at, const std::string &var);
    void store_in(const FuncRef &f, Halide::MemoryType t);
    void reorder_storage(const FuncRef &f, const std::vector<std::string> &vars);

    void split(StageRef &s, const std::string &old, const std::string &outer, const std::string &inner, int factor,
               Halide::TailStrategy tail);
    // A split whose factor is computed at run time (Halide evaluates it once, before the loops).
    void split(StageRef &s, const std::string &old, const std::string &outer, const std::string &inner,
               const SizeExpr &factor, Halide::TailStrategy tail);
    void fuse(StageRef &s, const std::string &inner, const std::string &outer, const std::string &fused);
    void rename(StageRef &s, const std::string &old, const std::string &renamed);
    void reorder(StageRef &s, const std::vector<std::string> &innermost_first);
    void vectorize(StageRef &s, const std::string &v);
    // The update is an associative reduction Halide may vectorize across its RVars (the lanes
    // of a vector are then combined by a vector reduction).
    void atomic(StageRef &s);
    void unroll(StageRef &s, const std::string &v);
    void parallel(StageRef &s, const std::string &v);
    void gpu_blocks(StageRef &s, const std::vector<std::string> &vars);
    void gpu_threads(StageRef &s, const std::vector<std::string> &vars);
    void gpu_single_thread(StageRef &s);
    // One loop over the lanes of a warp (CUDA): a register allocation outside it is striped
    // across the lanes, so per-lane accumulators of a block-level Func stay in registers.
    void gpu_lanes(StageRef &s, const std::string &v);
    // Pads the storage extent of a Func's dimension up to a multiple of `alignment` elements
    // (shared-memory rows of odd length avoid bank conflicts).
    void align_storage(const FuncRef &f, const std::string &var, int alignment);
    // Bounds the storage extent of a Func's dimension to a constant (its compute unchanged): the
    // stride of the next dimension becomes a compile-time constant.
    void bound_storage(const FuncRef &f, const std::string &var, int extent);
    void unscheduled(StageRef &s);  // says a stage's default loops are intended
    void comment(const std::string &text);  // a `// text` line in the source (one per line of text)

    // Declarations first (every Func is fetched before any wrapper changes the pipeline's
    // topological order), then the directives in the order they were applied.
    std::string source() const;

private:
    bool echo_;
    std::vector<std::string> func_decls_, value_decls_, var_decls_, statements_;
    std::map<std::string, std::string> value_ident_;  // pipeline Variable name -> Expr identifier
    std::map<std::string, std::string> var_ident_, rvar_ident_;
    std::set<std::string> used_idents_;
    int stage_counter_ = 0;
    std::map<std::string, std::vector<Halide::Expr>> specialized_;  // simplified conditions, by the parent stage's ident
    std::set<std::string> with_specializations_;  // idents of stages specialize() was called on
    std::set<std::string> warned_unspecialized_;  // stages whose left-out specializations were reported
    // Halide 14 conflict guard (ScheduleWriter::specialize): each specialized stage's condition
    // with its parents' (by ident); each Func's pure-stage branch conditions (but those testing a
    // variable for equality) and its updates' (by Func name).
    std::map<std::string, Halide::Expr> branch_condition_;
    std::map<std::string, std::vector<Halide::Expr>> pure_branches_, update_branches_;
    struct SpecializationScope {
        std::set<std::string> funcs;
        Condition condition;
        std::map<std::string, StageRef> stages;  // by the unspecialized stage's ident
    };
    std::optional<SpecializationScope> scope_;

    std::string fresh_ident(const std::string &base);
    std::string var(const StageRef &s, const std::string &name);  // identifier, declaring it on first use
    Halide::VarOrRVar handle(const StageRef &s, const std::string &name) const;
    void emit(const std::string &stmt);
    void gpu_loops(StageRef &s, const std::vector<std::string> &vars, bool blocks);
};

std::string tail_name(Halide::TailStrategy t);

// Fuses `first` and the loops `rest` (innermost first, each outside the one before) into one loop
// named `name` (intermediate fusions `name_0`, ...); returns its name (`first` when rest is empty).
std::string fuse_loops(ScheduleWriter &w, ScheduleWriter::StageRef &st, const std::string &first,
                       const std::vector<std::string> &rest, const std::string &name);

}  // namespace diet
