#include "analysis/ContractionOperands.h"
#include "analysis/Loads.h"

#include <algorithm>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

bool is_var_named(const Expr &e, const std::string &name) {
    const Variable *v = e.as<Variable>();
    return v && v->name == name;
}

namespace {

bool call_uses_var(const Call *c, const std::string &var) {
    for (const Expr &a : c->args) {
        if (expr_uses_var(a, var)) return true;
    }
    return false;
}

}  // namespace

std::optional<int64_t> grouped_period(const Call *c, const std::string &var) {
    std::optional<int64_t> period;
    for (const Expr &a : c->args) {
        if (!expr_uses_var(a, var)) continue;
        const Div *d = a.as<Div>();
        const int64_t *k = d ? as_const_int(d->b) : nullptr;
        if (period || !k || *k < 2 || !is_var_named(d->a, var)) return std::nullopt;
        period = *k;
    }
    return period;
}

// One operand of a contraction term: how the call `c` (made in `summand`, over `rvars`) moves with
// the output's vector variable and with the reduction.
ContractionOperand describe_operand(const Call *c, const Summand &summand, const std::vector<LoopVar> &rvars,
                                    const std::string &vector_var, const std::vector<std::string> &acc_args,
                                    const std::vector<int> &mapping, bool grouped) {
    ContractionOperand o;
    o.func = c->name;
    auto via = summand.via.find(c);
    if (via != summand.via.end()) o.via = via->second;
    o.via_plain_copy = summand.via_plain_copies.count(c) > 0;
    o.type = c->type;
    o.dims = (int)c->args.size();
    o.computed = c->call_type == Call::Halide && c->func.defined() && !is_plain_copy(Function(c->func));
    o.data_dependent = std::any_of(c->args.begin(), c->args.end(), [](const Expr &a) { return !loads_in(a).empty(); });
    if (grouped) o.vector_period = grouped_period(c, vector_var).value_or(0);
    for (size_t a = 0; a < c->args.size() && o.vector_period == 0; a++) {
        if (expr_uses_var(c->args[a], vector_var)) {
            o.vector_arg = (int)a;
            // The vectors step this argument by one element, or they gather.
            const Expr v = Variable::make(Int(32), vector_var);
            const Expr step = simplify(substitute(vector_var, v + 1, c->args[a]) - c->args[a]);
            o.vector_gather = !is_const_one(step);
            o.vector_reversed = is_const(step, -1);
            o.vector_stride_uniform = !expr_uses_var(step, vector_var);
            break;
        }
    }
    if (!rvars.empty() && !c->args.empty()) {
        const std::string &rv = rvars[0].name;
        Expr rest = simplify(c->args[0] - Variable::make(c->args[0].type(), rv));
        o.unit_stride_reduction = expr_uses_var(c->args[0], rv) && !expr_uses_var(rest, rv);
    }
    if (rvars.size() == 1 && !c->args.empty()) {
        const std::string &rv = rvars[0].name;
        for (size_t a = 0; a < c->args.size() && o.reduction_arg < 0; a++) {
            const Expr free = simplify(c->args[a] - Variable::make(c->args[a].type(), rv));
            if (expr_uses_var(c->args[a], rv) && !expr_uses_var(free, rv)) o.reduction_arg = (int)a;
        }
    }
    o.reduction_invariant = std::none_of(c->args.begin(), c->args.end(), [&](const Expr &arg) {
        return std::any_of(rvars.begin(), rvars.end(), [&](const LoopVar &r) { return expr_uses_var(arg, r.name); });
    });
    for (const Expr &arg : c->args) {
        int loop_vars = 0;
        for (const std::string &v : acc_args) loop_vars += expr_uses_var(arg, v);
        // The reduction variables count once: the schedule fuses several into one loop when they
        // read contiguously (x(r.x + 8 * r.y, m)), and tiles them together.
        loop_vars += std::any_of(rvars.begin(), rvars.end(), [&](const LoopVar &r) { return expr_uses_var(arg, r.name); });
        o.separable &= loop_vars <= 1;
    }
    for (const std::string &v : acc_args) o.uses_acc_arg.push_back(call_uses_var(c, v));
    for (const std::string &v : acc_args) {
        bool unit = !c->args.empty() && expr_uses_var(c->args[0], v);
        if (unit) {
            const Expr x = Variable::make(Int(32), v);
            unit = is_const_one(simplify(substitute(v, x + 1, c->args[0]) - c->args[0]));
        }
        o.unit_stride_acc_arg.push_back(unit);
    }
    for (const std::string &v : acc_args) {
        o.window_acc_arg.push_back(std::any_of(c->args.begin(), c->args.end(), [&](const Expr &arg) {
            return expr_uses_var(arg, v) && std::any_of(rvars.begin(), rvars.end(), [&](const LoopVar &r) {
                       return expr_uses_var(arg, r.name);
                   });
        }));
    }
    for (int d = 0; d < (int)mapping.size() && !o.reused; d++) o.reused = !o.uses_acc_arg[mapping[d]];
    return o;
}

bool reduction_fuses(const std::vector<const Call *> &calls, const std::vector<LoopVar> &rvars,
                     std::vector<int> &reduction_arg) {
    if (rvars.size() != 2) return false;
    const std::optional<int64_t> e0 = constant_value(rvars[0].extent), e1 = constant_value(rvars[1].extent);
    if (!e0 || !e1 || *e0 < 1 || *e1 < 1) return false;
    const std::string &r0 = rvars[0].name, &r1 = rvars[1].name;
    const auto uses = [&](const Expr &e) { return expr_uses_var(e, r0) || expr_uses_var(e, r1); };
    reduction_arg.clear();
    for (const Call *c : calls) {
        int at = -1;
        for (size_t a = 0; a < c->args.size(); a++) {
            if (!uses(c->args[a])) continue;
            if (at >= 0 && (int)a != at + 1) return false;  // r0 and r1 somewhere else
            if (at < 0) at = (int)a;
        }
        if (at < 0) return false;  // an operand that does not move with the reduction
        const Expr v0 = Variable::make(Int(32), r0), v1 = Variable::make(Int(32), r1);
        const Expr &first = c->args[at];
        if (uses(simplify(first - (v0 + (int)*e0 * v1)))) return false;
        if ((size_t)at + 1 < c->args.size() && uses(c->args[at + 1])) return false;
        reduction_arg.push_back(at);
    }
    return !calls.empty();
}

// MatmulPattern::row_dim: the first host dimension d >= 1 whose accumulator variable is read by an
// operand that does not move with the vectors, and by no operand that does (so each vector loaded
// is reused across the rows, each broadcast across the vectors). -1 when none qualifies.
int reusing_row_dim(const std::vector<const Call *> &calls, const std::vector<std::string> &acc_args,
                    const std::vector<int> &acc_arg_of_host_dim, bool grouped) {
    const std::string &vector_var = acc_args[acc_arg_of_host_dim[0]];
    const auto moves_with_vectors = [&](const Call *c) {
        return call_uses_var(c, vector_var) && !(grouped && grouped_period(c, vector_var));
    };
    for (size_t d = 1; d < acc_arg_of_host_dim.size(); d++) {
        const std::string &v = acc_args[acc_arg_of_host_dim[d]];
        bool broadcast_side = false, vector_side = false;
        for (const Call *c : calls) {
            if (!call_uses_var(c, v)) continue;
            if (moves_with_vectors(c)) vector_side = true;
            else broadcast_side = true;
        }
        if (broadcast_side && !vector_side) return (int)d;
    }
    return -1;
}

int windowed_row_dim(const std::vector<ContractionOperand> &operands, const std::vector<int> &acc_arg_of_host_dim) {
    for (int d = 1; d < (int)acc_arg_of_host_dim.size(); d++) {
        const int a = acc_arg_of_host_dim[d];
        for (const ContractionOperand &o : operands) {
            if (!o.data_dependent && a >= 0 && a < (int)o.window_acc_arg.size() && o.window_acc_arg[a]) return d;
        }
    }
    return 1;
}

std::pair<int, int> reusing_dim_pair(const std::vector<const Call *> &calls, const std::vector<std::string> &acc_args,
                                     const std::vector<int> &acc_arg_of_host_dim) {
    const int dims = (int)acc_arg_of_host_dim.size();
    for (int d1 = 1; d1 < dims; d1++) {
        for (int d2 = d1 + 1; d2 < dims; d2++) {
            const std::string &v1 = acc_args[acc_arg_of_host_dim[d1]], &v2 = acc_args[acc_arg_of_host_dim[d2]];
            bool both = false, skips1 = false, skips2 = false;
            for (const Call *c : calls) {
                const bool u1 = call_uses_var(c, v1), u2 = call_uses_var(c, v2);
                both |= u1 && u2;
                skips1 |= !u1;
                skips2 |= !u2;
            }
            if (!both && skips1 && skips2) return {d1, d2};
        }
    }
    return {-1, -1};
}

std::pair<int, int> reads_per_step(const std::vector<const Call *> &calls, const std::string &vector_var, bool grouped) {
    std::vector<Expr> vector_reads, broadcast_reads;
    for (const Call *c : calls) {
        bool moves = false;
        for (const Expr &a : c->args) moves |= expr_uses_var(a, vector_var);
        moves &= !(grouped && grouped_period(c, vector_var));  // a broadcast per group
        std::vector<Expr> &reads = moves ? vector_reads : broadcast_reads;
        if (std::none_of(reads.begin(), reads.end(), [&](const Expr &e) { return equal(e, Expr(c)); })) {
            reads.push_back(Expr(c));
        }
    }
    return {(int)vector_reads.size(), (int)broadcast_reads.size()};
}

std::vector<std::string> read_in_place(std::vector<ContractionOperand> &operands,
                                       const std::function<bool(const std::string &)> &cheap_input_wrapper) {
    std::set<std::string> staged_plainly;
    for (const ContractionOperand &o : operands) {
        if (o.computed && !o.data_dependent) staged_plainly.insert(o.func);
    }
    std::vector<std::string> in_place;
    for (ContractionOperand &o : operands) {
        if (!o.data_dependent || !o.computed || !o.reused || staged_plainly.count(o.func) || !cheap_input_wrapper(o.func)) {
            continue;
        }
        o.computed = false;
        if (std::find(in_place.begin(), in_place.end(), o.func) == in_place.end()) in_place.push_back(o.func);
    }
    return in_place;
}

}  // namespace diet
