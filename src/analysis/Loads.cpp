#include "analysis/Loads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

std::vector<const Call *> loads_in(const Expr &e) {
    struct Calls : IRVisitor {
        std::vector<const Call *> calls;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            IRVisitor::visit(c);
            if (c->call_type == Call::Image || c->call_type == Call::Halide) calls.push_back(c);
        }
    } v;
    if (e.defined()) e.accept(&v);
    return v.calls;
}

}  // namespace diet
