#include "analysis/MathCalls.h"

namespace diet {

using namespace Halide;

int64_t math_calls_per_point(const FunctionDAG &dag, const Internal::Function &f, int depth) {
    struct Counter : Internal::IRVisitor {
        const FunctionDAG *dag = nullptr;
        int depth = 0;
        int64_t calls = 0;
        using IRVisitor::visit;
        void visit(const Internal::Call *c) override {
            if (c->call_type == Internal::Call::PureExtern) calls++;
            if (c->call_type == Internal::Call::Halide && depth < 4 && dag->has(c->name)) {
                const FuncNode &callee = dag->node(c->name);
                if (!callee.has_updates() && !callee.is_extern && callee.func.has_pure_definition()) {
                    calls += math_calls_per_point(*dag, callee.func, depth + 1);
                }
            }
            IRVisitor::visit(c);
        }
    } counter;
    counter.dag = &dag;
    counter.depth = depth;
    if (f.has_pure_definition()) {
        for (const Expr &e : f.definition().values()) e.accept(&counter);
    }
    return counter.calls;
}

}  // namespace diet
