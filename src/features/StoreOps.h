// What Features.cpp reads of one stored value and of the Stmt around it: operation counts per
// lane (Ansor's MathOpCounter on Halide IR), the loads of a value, likely() stripped, the loops
// that contain GPU block loops, and a loop's name as the schedule spells it.
#pragma once

#include "features/FeatureLayout.h"

#include "Halide.h"

#include <set>
#include <string>
#include <vector>

namespace diet {
namespace feature_detail {

using namespace Halide;
using namespace Halide::Internal;

// ---------------------------------------------------------------------------------------------
// Counting the operations of a stored value.
// ---------------------------------------------------------------------------------------------

// Ansor's MathOpCounter, on Halide IR. Every operation counts once per lane, so a vector store
// counts what the scalar stores it replaces would. As in Ansor, mad is never detected (a*b + c
// counts as a mul and an add); index arithmetic inside loads counts as int ops.
class OpCounter : public IRVisitor {
public:
    double count[kOpKinds] = {};
    double predicated_loads = 0, shuffles = 0, strided_loads = 0;

private:
    using IRVisitor::visit;

    void arith(const Type &operand, int float_kind, int int_kind) {
        count[operand.is_float() ? float_kind : int_kind] += operand.lanes();
    }
    void visit(const Add *op) override { arith(op->a.type(), kFloatAddSub, kIntAddSub); IRVisitor::visit(op); }
    void visit(const Sub *op) override { arith(op->a.type(), kFloatAddSub, kIntAddSub); IRVisitor::visit(op); }
    void visit(const Mul *op) override { arith(op->a.type(), kFloatMul, kIntMul); IRVisitor::visit(op); }
    void visit(const Div *op) override { arith(op->a.type(), kFloatDivMod, kIntDivMod); IRVisitor::visit(op); }
    void visit(const Mod *op) override { arith(op->a.type(), kFloatDivMod, kIntDivMod); IRVisitor::visit(op); }
    void visit(const Min *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const Max *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const EQ *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const NE *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const LT *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const LE *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const GT *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const GE *op) override { arith(op->a.type(), kFloatCmp, kIntCmp); IRVisitor::visit(op); }
    void visit(const And *op) override { count[kBoolOp] += op->type.lanes(); IRVisitor::visit(op); }
    void visit(const Or *op) override { count[kBoolOp] += op->type.lanes(); IRVisitor::visit(op); }
    void visit(const Not *op) override { count[kBoolOp] += op->type.lanes(); IRVisitor::visit(op); }
    void visit(const Select *op) override { count[kSelectOp] += op->type.lanes(); IRVisitor::visit(op); }

    void visit(const Call *op) override {
        // Annotations compute nothing (Ansor would count them as pure calls; skipped here).
        const bool annotation = op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
                                op->is_intrinsic(Call::promise_clamped) ||
                                op->is_intrinsic(Call::unsafe_promise_clamped) ||
                                op->is_intrinsic(Call::strict_float);
        const bool func_call = op->call_type == Call::Halide || op->call_type == Call::Image;
        if (op->is_intrinsic(Call::if_then_else)) {
            count[kSelectOp] += op->type.lanes();
        } else if (!annotation && !func_call) {
            const bool pure = op->call_type == Call::PureExtern || op->call_type == Call::PureIntrinsic;
            const bool f = op->type.is_float();
            count[pure ? (f ? kFloatMath : kIntMath) : (f ? kFloatOther : kIntOther)] += op->type.lanes();
        }
        IRVisitor::visit(op);
    }

    void visit(const VectorReduce *op) override {
        const Type &t = op->value.type();
        const int lanes = t.lanes();
        switch (op->op) {
        case VectorReduce::Add:
        case VectorReduce::SaturatingAdd: count[t.is_float() ? kFloatAddSub : kIntAddSub] += lanes; break;
        case VectorReduce::Mul: count[t.is_float() ? kFloatMul : kIntMul] += lanes; break;
        case VectorReduce::Min:
        case VectorReduce::Max: count[t.is_float() ? kFloatCmp : kIntCmp] += lanes; break;
        case VectorReduce::And:
        case VectorReduce::Or: count[kBoolOp] += lanes; break;
        }
        IRVisitor::visit(op);
    }

    void visit(const Load *op) override {
        if (!is_const_one(op->predicate)) predicated_loads++;
        if (op->type.is_vector() && !op->index.as<Broadcast>()) {
            const Ramp *r = op->index.as<Ramp>();
            if (!r || !is_const_one(r->stride)) strided_loads++;
        }
        IRVisitor::visit(op);
    }

    void visit(const Shuffle *op) override {
        shuffles++;
        IRVisitor::visit(op);
    }
};

// Every load of a value, in the order Ansor's BufferAccessExtractor meets them (pre-order).
class LoadCollector : public IRVisitor {
public:
    std::vector<const Load *> loads;
    using IRVisitor::visit;
    void visit(const Load *op) override {
        loads.push_back(op);
        IRVisitor::visit(op);
    }
};

class StripLikely : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost)) return mutate(op->args[0]);
        return IRMutator::visit(op);
    }
};

// The loops that enclose a GPU block loop or a CPU parallel loop.
class GridContainers : public IRVisitor {
public:
    std::set<const For *> containers;
    using IRVisitor::visit;
    void visit(const For *op) override {
        if (op->for_type == ForType::GPUBlock || op->for_type == ForType::Parallel) {
            containers.insert(stack_.begin(), stack_.end());
        }
        stack_.push_back(op);
        IRVisitor::visit(op);
        stack_.pop_back();
    }

private:
    std::vector<const For *> stack_;
};

// The loop's name as the schedule spells it: lowering renames a loop that does not start at 0
// to <name>.rebased.
inline std::string scheduled_name(const std::string &loop) {
    const std::string suffix = ".rebased";
    if (loop.size() > suffix.size() && loop.compare(loop.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return loop.substr(0, loop.size() - suffix.size());
    }
    return loop;
}

}  // namespace feature_detail
}  // namespace diet
