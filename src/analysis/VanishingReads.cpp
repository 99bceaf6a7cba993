#include "analysis/VanishingReads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Names of the Funcs and images an expression calls.
class ReadNames : public IRVisitor {
public:
    std::set<std::string> names;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide || op->call_type == Call::Image) names.insert(op->name);
    }
};

std::set<std::string> reads_of(const std::vector<Expr> &exprs, bool simplified) {
    ReadNames r;
    for (const Expr &e : exprs) {
        if (!e.defined()) continue;
        (simplified ? simplify(e) : e).accept(&r);
    }
    return r.names;
}

}  // namespace

std::set<std::string> reads_vanishing_when_simplified(const Definition &def) {
    if (!def.defined()) return {};
    std::vector<Expr> exprs = def.values();
    exprs.insert(exprs.end(), def.args().begin(), def.args().end());
    const std::set<std::string> before = reads_of(exprs, false), after = reads_of(exprs, true);
    std::set<std::string> gone;
    for (const std::string &n : before) {
        if (!after.count(n)) gone.insert(n);
    }
    return gone;
}

}  // namespace diet
