#include "analysis/Summand.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Counts the Func calls and the other factors (constants, parameters) of a product of calls and
// casts; false when `e` is anything else.
bool product_factors(const Expr &e, int *calls, int *others) {
    if (const Mul *m = e.as<Mul>()) return product_factors(m->a, calls, others) && product_factors(m->b, calls, others);
    if (const Cast *c = e.as<Cast>()) return product_factors(c->value, calls, others);
    if (const Call *c = e.as<Call>()) {
        ++*calls;
        return c->call_type == Call::Halide;
    }
    ++*others;
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>() || e.as<Variable>();
}

// Whether an index is arithmetic on variables and constants only: no clamp, select or load (a
// boundary condition's min/max make an operand's reads gathers).
bool plain_index(const Expr &e) {
    class Check : public IRVisitor {
    public:
        bool plain = true;
        using IRVisitor::visit;
        void visit(const Min *) override { plain = false; }
        void visit(const Max *) override { plain = false; }
        void visit(const Select *) override { plain = false; }
        void visit(const Call *) override { plain = false; }
        void visit(const Load *) override { plain = false; }
    } check;
    e.accept(&check);
    return check.plain;
}

}  // namespace

bool is_transparent_value(const Expr &e) {
    int calls = 0, others = 0;
    if (!product_factors(e, &calls, &others)) return false;
    if (calls >= 2) return true;
    if (const Cast *cast = e.as<Cast>()) return is_transparent_value(cast->value);
    const Call *c = e.as<Call>();
    return c && others == 0 && std::all_of(c->args.begin(), c->args.end(), plain_index);
}

namespace {

using Inlinable = std::function<const Function *(const std::string &, const std::string &)>;

// Pairs each call node of the final Expr with its caller. The kept calls are returned as they
// are, so their addresses in the substitution's log are the nodes of the result.
class CallerRecorder : public IRVisitor {
public:
    explicit CallerRecorder(Summand &s) : s_(s) {}
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            auto it = pending.find(op);
            if (it != pending.end()) s_.via[op] = it->second;
            if (plain.count(op)) s_.via_plain_copies.insert(op);
        }
        IRVisitor::visit(op);
    }
    std::map<const Call *, std::vector<std::string>> pending;
    std::set<const Call *> plain;

private:
    Summand &s_;
};

}  // namespace

bool is_plain_copy(const Function &f) {
    if (f.has_update_definition() || f.outputs() != 1 || !f.has_pure_definition()) return false;
    const Call *c = f.values()[0].as<Call>();
    if (!c || (c->call_type != Call::Halide && c->call_type != Call::Image) || c->args.size() != f.args().size()) {
        return false;
    }
    for (size_t i = 0; i < c->args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        if (!v || v->name != f.args()[i]) return false;
    }
    return true;
}

Summand inline_transparent_calls(const Expr &summand, const std::string &acc, const Inlinable &inlinable) {
    Summand s;
    // Replaces calls to inlinable Funcs by their values at the call's arguments (recursively, with
    // the inlined Func as the caller); logs every call it keeps with its caller.
    struct Logged : public IRMutator {
        Logged(std::string acc, std::vector<std::string> via, bool plain, const Inlinable &inl, Summand &out,
               std::map<const Call *, std::vector<std::string>> &log, std::set<const Call *> &plain_log)
            : acc(std::move(acc)), via(std::move(via)), plain(plain), inl(inl), out(out), log(log), plain_log(plain_log) {}
        std::string acc;
        std::vector<std::string> via;  // the Funcs substituted on the way here, outermost first
        bool plain;                    // each of them a plain copy
        const Inlinable &inl;
        Summand &out;
        std::map<const Call *, std::vector<std::string>> &log;
        std::set<const Call *> &plain_log;
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            if (op->call_type == Call::Halide && via.size() < 4) {
                if (const Function *f = inl(op->name, via.empty() ? acc : via.back())) {
                    // All arguments at once: one by one, f(a, b) = g(b, a) called as f(b, a)
                    // would substitute into what it just substituted.
                    std::map<std::string, Expr> at_call;
                    for (size_t i = 0; i < op->args.size(); i++) at_call[f->args()[i]] = op->args[i];
                    const Expr body = substitute(at_call, substitute_in_all_lets(f->values()[0]));
                    out.inlined.push_back(op->name);
                    std::vector<std::string> deeper = via;
                    deeper.push_back(op->name);
                    Logged inner(acc, deeper, plain && is_plain_copy(*f), inl, out, log, plain_log);
                    return inner.mutate(body);
                }
            }
            if (op->call_type == Call::Halide || op->call_type == Call::Image) {
                log[op] = via;
                if (plain && !via.empty()) plain_log.insert(op);
                return op;
            }
            return IRMutator::visit(op);
        }
    };
    std::map<const Call *, std::vector<std::string>> log;
    std::set<const Call *> plain_log;
    Logged top(acc, {}, true, inlinable, s, log, plain_log);
    s.value = top.mutate(summand);
    CallerRecorder rec(s);
    rec.pending = log;
    rec.plain = plain_log;
    s.value.accept(&rec);
    return s;
}

}  // namespace diet
