#include "analysis/DefinitionNodes.h"
#include "analysis/Loads.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {
constexpr int kInlinedDepth = 4;  // inlined Funcs expanded this many levels deep
}  // namespace

DefinitionNodes definition_nodes(const Definition &def, const std::function<bool(const std::string &)> &inlined) {
    struct Count : IRMutator {
        const std::function<bool(const std::string &)> &inlined;
        explicit Count(const std::function<bool(const std::string &)> &i) : inlined(i) {}
        DefinitionNodes size;
        int depth = 0;
        using IRMutator::mutate;
        Expr mutate(const Expr &e) override {
            if (!e.defined()) return e;
            size.nodes++;
            const Call *c = e.as<Call>();
            size.calls_math = size.calls_math || (c && c->call_type == Call::PureExtern);
            if (c && (c->call_type == Call::Halide || c->call_type == Call::Image) && !size.gathers) {
                for (const Expr &a : c->args) size.gathers = size.gathers || !loads_in(a).empty();
            }
            if (c && c->call_type == Call::Halide && c->func.defined() && depth < kInlinedDepth && inlined(c->name)) {
                const Function f(c->func);
                if (f.has_pure_definition() && !f.has_update_definition()) {
                    depth++;
                    for (const Expr &v : f.values()) mutate(v);
                    depth--;
                }
            }
            return IRMutator::mutate(e);
        }
    } count(inlined);
    for (const Expr &e : def.values()) count.mutate(e);
    for (const Expr &e : def.args()) count.mutate(e);
    for (const Expr &e : def.split_predicate()) count.mutate(e);
    return count.size;
}

}  // namespace diet
