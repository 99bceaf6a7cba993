#include "analysis/RuntimeDivisors.h"

#include <map>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// A divisor computed from one scalar Param and constants (FAC, 2 * R + 1, L - 1): the Param, when
// its declared range holds at most kDivisorRangeValues values, since under each value's
// specialization Halide folds the whole divisor to a constant. A divisor reading two Params, or
// anything else, stays a run-time division.
std::optional<SmallRangeParam> divisor_param(const Expr &b) {
    struct Reads : IRVisitor {
        std::map<std::string, Expr> params;
        bool other = false;
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            if (op->param.defined() && !op->param.is_buffer()) {
                params.emplace(op->name, op);
            } else {
                other = true;
            }
        }
        void visit(const Call *op) override {
            if (op->call_type != Call::PureIntrinsic) other = true;
            IRVisitor::visit(op);
        }
    } reads;
    b.accept(&reads);
    if (reads.other || reads.params.size() != 1) return std::nullopt;
    return small_range_param(reads.params.begin()->second, kDivisorRangeValues);
}

class FindDivisor : public IRVisitor {
public:
    explicit FindDivisor(const std::function<bool(const std::string &)> &inlined) : inlined_(inlined) {}
    std::optional<SmallRangeParam> found;
    void definitions(const Function &f) {
        if (!visited_.insert(f.name()).second) return;
        if (f.has_pure_definition()) f.definition().accept(this);
        for (const Definition &u : f.updates()) u.accept(this);
    }

private:
    using IRVisitor::visit;
    const std::function<bool(const std::string &)> &inlined_;
    std::set<std::string> visited_;
    // A loop-varying numerator: it reads some variable that is no scalar parameter (a loop's or
    // a reduction variable).
    static bool varies(const Expr &a) {
        struct LoopVariables : IRVisitor {
            bool found = false;
            using IRVisitor::visit;
            void visit(const Variable *op) override {
                if (!op->param.defined()) found = true;
            }
        } v;
        a.accept(&v);
        return v.found;
    }
    template<typename Op>
    void divides(const Op *op) {
        IRVisitor::visit(op);
        if (found) return;
        if (!op->type.is_int_or_uint()) return;  // a float division is a vector instruction
        if (std::optional<SmallRangeParam> d = divisor_param(op->b); d && varies(op->a)) found = d;
    }
    void visit(const Div *op) override { divides(op); }
    void visit(const Mod *op) override { divides(op); }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide && op->func.defined() && inlined_(op->name)) definitions(Function(op->func));
    }
};

}  // namespace

std::optional<SmallRangeParam> runtime_divisor(const Function &f, const std::function<bool(const std::string &)> &inlined) {
    FindDivisor finder(inlined);
    finder.definitions(f);
    return finder.found;
}

}  // namespace diet
