#include "emit/GeneratorSource.h"
#include "common/CppText.h"
#include "common/Errors.h"

#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

[[noreturn]] void refuse(const std::string &where, const std::string &what) {
    user_error << "Diet: HL_DIET_EMIT_GENERATOR cannot print " << what << " (in " << where
               << "); no generator source was written.\n";
    throw;  // unreachable: user_error throws
}

std::string sanitize(const std::string &name) {
    std::string s;
    for (char c : name) s += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    if (s.empty() || std::isdigit((unsigned char)s[0])) s = "_" + s;
    return s;
}

std::string type_expr(const Type &t, const std::string &where) {
    if (t.is_handle()) refuse(where, "a handle type");
    std::string lanes = t.lanes() == 1 ? "" : ", " + std::to_string(t.lanes());
    if (t.is_bool()) return t.lanes() == 1 ? "Halide::Bool()" : "Halide::Bool(" + std::to_string(t.lanes()) + ")";
    if (t.is_float()) return "Halide::Float(" + std::to_string(t.bits()) + lanes + ")";
    if (t.is_int()) return "Halide::Int(" + std::to_string(t.bits()) + lanes + ")";
    if (t.is_uint()) return "Halide::UInt(" + std::to_string(t.bits()) + lanes + ")";
    refuse(where, "the type " + type_to_c_type(t, false));
}

// The C++ scalar type of a buffer element / scalar input.
std::string c_type(const Type &t, const std::string &where) {
    if (t.lanes() == 1) {
        if (t.is_bool()) return "bool";
        if (t.is_float() && t.bits() == 32) return "float";
        if (t.is_float() && t.bits() == 64) return "double";
        if ((t.is_int() || t.is_uint()) && (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64)) {
            return std::string(t.is_int() ? "int" : "uint") + std::to_string(t.bits()) + "_t";
        }
    }
    refuse(where, "the buffer/parameter type " + type_to_c_type(t, false));
}

std::string hex_double(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);
    return buf;
}

std::string int_literal(int64_t v) {
    if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
    return "(int64_t)" + std::to_string(v) + "LL";
}

// Collects the reduction domains an Expr uses, in order of first appearance.
class FindDomains : public IRVisitor {
public:
    std::vector<ReductionDomain> domains;

protected:
    using IRVisitor::visit;
    void visit(const Variable *v) override {
        if (!v->reduction_domain.defined()) return;
        for (const auto &d : domains) {
            if (d.same_as(v->reduction_domain)) return;
        }
        domains.push_back(v->reduction_domain);
    }
};

class Printer {
public:
    std::string where;                                 // the Func (or estimate) being printed, for messages
    std::map<std::string, std::string> funcs;          // Func name -> identifier (input wrappers -> the Input)
    std::map<std::string, std::string> vars;           // pure Var name -> identifier
    std::map<std::string, std::string> params;         // Parameter name -> identifier
    std::map<std::string, std::string> rvars;          // RVar name -> `rdom[i]` (when the name is unique)
    std::vector<std::pair<ReductionDomain, std::string>> domains;  // declared RDoms

    std::string print(const Expr &e) {
        if (!e.defined()) refuse(where, "an undefined Expr");
        if (const IntImm *op = e.as<IntImm>()) {
            if (op->type == Int(32)) return "Halide::Expr(" + std::to_string(op->value) + ")";
            return "Halide::Internal::IntImm::make(" + type_expr(op->type, where) + ", " + int_literal(op->value) + ")";
        }
        if (const UIntImm *op = e.as<UIntImm>()) {
            return "Halide::Internal::UIntImm::make(" + type_expr(op->type, where) + ", (uint64_t)" +
                   std::to_string(op->value) + "ULL)";
        }
        if (const FloatImm *op = e.as<FloatImm>()) {
            if (std::isnan(op->value)) refuse(where, "a NaN constant");
            std::string v = std::isinf(op->value)
                                ? std::string(op->value > 0 ? "" : "-") + "std::numeric_limits<double>::infinity()"
                                : hex_double(op->value);
            if (op->type == Float(32) && !std::isinf(op->value)) return "Halide::Expr(" + v + "f)";
            if (op->type == Float(64) && !std::isinf(op->value)) return "Halide::Expr(" + v + ")";
            return "Halide::Internal::FloatImm::make(" + type_expr(op->type, where) + ", " + v + ")";
        }
        if (const Variable *op = e.as<Variable>()) return variable(op);
        if (const Cast *op = e.as<Cast>()) {
            return "Halide::Internal::Cast::make(" + type_expr(op->type, where) + ", " + print(op->value) + ")";
        }
#define DIET_BINARY(N, OP)                                                          \
    if (const N *op = e.as<N>()) {                                                  \
        type_expr(op->type, where);                                                 \
        return "(" + print(op->a) + " " OP " " + print(op->b) + ")";               \
    }
        DIET_BINARY(Add, "+")
        DIET_BINARY(Sub, "-")
        DIET_BINARY(Mul, "*")
        DIET_BINARY(Div, "/")
        DIET_BINARY(Mod, "%")
        DIET_BINARY(EQ, "==")
        DIET_BINARY(NE, "!=")
        DIET_BINARY(LT, "<")
        DIET_BINARY(LE, "<=")
        DIET_BINARY(GT, ">")
        DIET_BINARY(GE, ">=")
        DIET_BINARY(And, "&&")
        DIET_BINARY(Or, "||")
#undef DIET_BINARY
        if (const Min *op = e.as<Min>()) return "Halide::min(" + print(op->a) + ", " + print(op->b) + ")";
        if (const Max *op = e.as<Max>()) return "Halide::max(" + print(op->a) + ", " + print(op->b) + ")";
        if (const Not *op = e.as<Not>()) return "(!" + print(op->a) + ")";
        if (const Select *op = e.as<Select>()) {
            return "Halide::select(" + print(op->condition) + ", " + print(op->true_value) + ", " +
                   print(op->false_value) + ")";
        }
        if (const Let *op = e.as<Let>()) {
            // Front-end Lets are rare; substituting the value is the same computation.
            return print(substitute(op->name, op->value, op->body));
        }
        if (const Call *op = e.as<Call>()) return call(op);
        std::ostringstream o;
        o << "the expression `" << e << "` (an IR node the generator printer does not support)";
        refuse(where, o.str());
    }

private:
    std::string args(const std::vector<Expr> &as) {
        std::string s;
        for (size_t i = 0; i < as.size(); i++) s += (i ? ", " : "") + print(as[i]);
        return s;
    }

    std::string variable(const Variable *op) {
        if (op->reduction_domain.defined()) {
            for (const auto &[d, ident] : domains) {
                if (!d.same_as(op->reduction_domain)) continue;
                for (size_t i = 0; i < d.domain().size(); i++) {
                    if (d.domain()[i].var == op->name) return "Halide::Expr(" + ident + "[" + std::to_string(i) + "])";
                }
            }
            auto it = rvars.find(op->name);
            if (it == rvars.end() || it->second.empty()) {
                refuse(where, "the reduction variable " + op->name + " (its RDom is not one the printer declared)");
            }
            return "Halide::Expr(" + it->second + ")";
        }
        if (op->param.defined()) {
            const Parameter &p = op->param;
            auto it = params.find(p.name());
            if (it == params.end()) refuse(where, "the parameter " + p.name() + " (not an input or output of the pipeline)");
            if (!p.is_buffer()) {
                if (op->name != p.name()) refuse(where, "the parameter variable " + op->name);
                return "Halide::Expr(" + it->second + ")";
            }
            const std::string prefix = p.name() + ".";
            if (op->name.compare(0, prefix.size(), prefix) == 0) {
                std::string rest = op->name.substr(prefix.size());
                for (const char *field : {"min", "extent", "stride"}) {
                    std::string f = std::string(field) + ".";
                    if (rest.compare(0, f.size(), f) == 0) {
                        const std::string d = rest.substr(f.size());
                        if (!d.empty() && d.find_first_not_of("0123456789") == std::string::npos) {
                            return it->second + ".dim(" + d + ")." + field + "()";
                        }
                    }
                }
            }
            refuse(where, "the buffer field " + op->name);
        }
        auto it = vars.find(op->name);
        if (it == vars.end()) refuse(where, "the free variable " + op->name);
        return "Halide::Expr(" + it->second + ")";
    }

    std::string call(const Call *op) {
        if (op->call_type == Call::Halide) {
            auto it = funcs.find(op->name);
            if (it == funcs.end()) refuse(where, "the call to Func " + op->name + " (not in the pipeline)");
            std::string s = it->second + "(" + args(op->args) + ")";
            if (op->func.defined() && Function(op->func).outputs() > 1) s += "[" + std::to_string(op->value_index) + "]";
            return "Halide::Expr(" + s + ")";
        }
        if (op->call_type == Call::Image) {
            refuse(where, "the direct read of image " + op->name +
                              (op->image.defined() ? " (an embedded Buffer)" : " (outside an input's own Func)"));
        }
        if (op->call_type == Call::PureExtern || op->call_type == Call::PureIntrinsic) {
            for (const Expr &a : op->args) {
                if (a.as<StringImm>()) refuse(where, "the string argument of " + op->name);
            }
            return std::string("Halide::Internal::Call::make(") + type_expr(op->type, where) + ", " + cpp_string_literal(op->name) +
                   ", std::vector<Halide::Expr>{" + args(op->args) + "}, Halide::Internal::Call::" +
                   (op->call_type == Call::PureExtern ? "PureExtern" : "PureIntrinsic") + ")";
        }
        refuse(where, "the impure call " + op->name + " (extern or intrinsic with side effects)");
    }
};

// A Func that is only an Input buffer's own Func: `x_im(args) = x(args)` (the Func Halide makes for
// an ImageParam / Input<Buffer>). Returns the Parameter, or an undefined one.
Parameter input_of_wrapper(const Function &f) {
    if (!f.has_pure_definition() || f.has_update_definition() || f.outputs() != 1) return {};
    const Call *c = f.definition().values()[0].as<Call>();
    if (!c || c->call_type != Call::Image || !c->param.defined() || c->image.defined()) return {};
    if (f.name() != c->param.name() + "_im" || c->args.size() != f.args().size()) return {};
    for (size_t i = 0; i < c->args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        if (!v || v->name != f.args()[i]) return {};
    }
    return c->param;
}

std::string scalar_literal(const Expr &e, const Type &t, const std::string &where) {
    Expr v = simplify(cast(t, e));
    if (auto i = as_const_int(v)) {
        if (t == Int(32)) return std::to_string(*i);
        return "(" + c_type(t, where) + ")" + int_literal(*i);
    }
    if (auto u = as_const_uint(v)) {
        if (t.is_bool()) return *u ? "true" : "false";
        return "(" + c_type(t, where) + ")" + std::to_string(*u) + "ULL";
    }
    if (auto f = as_const_float(v)) {
        if (std::isnan(*f) || std::isinf(*f)) refuse(where, "a non-finite parameter value");
        return t.bits() == 32 ? hex_double(*f) + "f" : hex_double(*f);
    }
    std::ostringstream o;
    o << "the non-constant parameter value " << e;
    refuse(where, o.str());
}

class FindVariables : public IRVisitor {
public:
    bool found = false;
    std::map<std::string, Parameter> params;

protected:
    using IRVisitor::visit;
    void visit(const Variable *v) override {
        found = true;
        if (v->param.defined()) params.emplace(v->param.name(), v->param);
    }
    void visit(const Call *c) override {
        if (c->param.defined()) params.emplace(c->param.name(), c->param);
        IRVisitor::visit(c);
    }
};

bool uses_variables(const Expr &e) {
    FindVariables fv;
    e.accept(&fv);
    return fv.found;
}

}  // namespace

std::string generator_source(const Pipeline &pipeline, const FunctionDAG &dag, const ShapeFamily &family,
                             const std::string &schedule_statements, const std::string &registered_name) {
    std::vector<Function> outputs;
    for (const Func &f : pipeline.outputs()) outputs.push_back(f.function());
    user_assert(!outputs.empty()) << "Diet: HL_DIET_EMIT_GENERATOR: the pipeline has no outputs.\n";
    const Shape representative = family.representative();

    Printer pr;
    std::set<std::string> used = {"pipeline", "target", "auto_schedule"};
    auto fresh = [&](const std::string &base) {
        std::string s = sanitize(base);
        std::string c = s;
        for (int i = 2; used.count(c); i++) c = s + "_" + std::to_string(i);
        used.insert(c);
        return c;
    };

    // Inputs, in the pipeline's argument order.
    std::ostringstream members, gen, est;
    std::vector<Argument> arguments = const_cast<Pipeline &>(pipeline).infer_arguments();
    std::map<std::string, Parameter> input_params;
    {
        // infer_arguments gives names; the Parameters come from the Funcs' expressions.
        FindVariables fv;
        std::map<std::string, Parameter> &found = fv.params;
        auto collect = [&](const Expr &e) {
            if (e.defined()) e.accept(&fv);
        };
        for (const FuncNode &n : dag.nodes()) {
            if (n.func.has_extern_definition()) continue;
            if (!n.func.has_pure_definition()) continue;
            std::vector<Definition> defs = {n.func.definition()};
            for (const Definition &d : n.func.updates()) defs.push_back(d);
            for (const Definition &d : defs) {
                for (const Expr &e : d.args()) collect(e);
                for (const Expr &e : d.values()) collect(e);
                FindDomains fd;
                for (const Expr &e : d.args()) e.accept(&fd);
                for (const Expr &e : d.values()) e.accept(&fd);
                for (const ReductionDomain &rd : fd.domains) {
                    for (const ReductionVariable &rv : rd.domain()) {
                        collect(rv.min);
                        collect(rv.extent);
                    }
                }
            }
        }
        // Parameters used only by estimates or constraints (T in `16*T`).
        for (const OutputEstimate &oe : family.outputs) {
            for (const Expr &e : oe.min) collect(e);
            for (const Expr &e : oe.extent) collect(e);
        }
        for (const Function &f : outputs) {
            for (const Parameter &p : f.output_buffers()) found.emplace(p.name(), p);
        }
        for (int round = 0; round < 2; round++) {
            std::map<std::string, Parameter> now = found;
            for (const auto &[name, p] : now) {
                if (!p.is_buffer()) continue;
                for (int d = 0; d < p.dimensions(); d++) {
                    auto [mn, ex] = original_estimate(p, d);
                    for (const Expr &e : {mn, ex, p.min_constraint(d), p.extent_constraint(d), p.stride_constraint(d)}) {
                        if (e.defined()) e.accept(&fv);
                    }
                }
            }
        }
        for (const Argument &a : arguments) {
            auto it = found.find(a.name);
            if (it == found.end()) {
                refuse("inputs", "the argument " + a.name + " (its Parameter is not referenced by any Func definition)");
            }
            input_params[a.name] = it->second;
        }
    }
    for (const Argument &a : arguments) {
        const Parameter &p = input_params.at(a.name);
        const std::string where = "input " + a.name;
        const std::string ident = fresh("in_" + a.name);
        pr.params[a.name] = ident;
        if (p.is_buffer()) {
            members << "    Input<Buffer<" << c_type(p.type(), where) << ">> " << ident << "{" << cpp_string_literal(a.name) << ", "
                    << p.dimensions() << "};\n";
        } else {
            const std::string ct = c_type(p.type(), where);
            members << "    Input<" << ct << "> " << ident << "{" << cpp_string_literal(a.name);
            Expr def = p.default_value().defined() ? p.default_value() : p.scalar_expr();
            if (p.estimate().defined() && !def.defined()) def = p.estimate();
            if (def.defined() || p.min_value().defined() || p.max_value().defined()) {
                members << ", " << (def.defined() ? scalar_literal(def, p.type(), where) : ct + "()");
                if (p.min_value().defined() || p.max_value().defined()) {
                    members << ", "
                            << (p.min_value().defined() ? scalar_literal(p.min_value(), p.type(), where)
                                                        : "std::numeric_limits<" + ct + ">::lowest()")
                            << ", "
                            << (p.max_value().defined() ? scalar_literal(p.max_value(), p.type(), where)
                                                        : "std::numeric_limits<" + ct + ">::max()");
                }
            }
            members << "};\n";
        }
    }

    // Outputs.
    std::map<std::string, std::string> output_ident;
    for (const Function &f : outputs) {
        const std::string where = "output " + f.name();
        if (f.outputs() != 1) refuse(where, "an output Func with a Tuple value");
        const std::string ident = fresh("out_" + f.name());
        output_ident[f.name()] = ident;
        pr.params[f.name()] = ident;  // its output buffer's fields
        members << "    Output<Buffer<" << c_type(f.output_types()[0], where) << ">> " << ident << "{" << cpp_string_literal(f.name())
                << ", " << f.dimensions() << "};\n";
    }

    // Func identifiers; input wrappers are the Inputs themselves.
    std::vector<const FuncNode *> defined;
    for (const FuncNode &n : dag.nodes()) {
        Parameter p = input_of_wrapper(n.func);
        if (p.defined() && pr.params.count(p.name())) {
            pr.funcs[n.name] = pr.params.at(p.name());
            continue;
        }
        if (n.func.has_extern_definition()) refuse("Func " + n.name, "extern stage " + n.name);
        if (!n.func.has_pure_definition()) refuse("Func " + n.name, "the Func " + n.name + " without a definition");
        if (output_ident.count(n.name)) {
            pr.funcs[n.name] = output_ident.at(n.name);
        } else {
            pr.funcs[n.name] = fresh("f_" + n.name);
            gen << "        Func " << pr.funcs[n.name] << "(" << cpp_string_literal(n.name) << ");\n";
        }
        defined.push_back(&n);
    }
    // Pure Vars of every Func, by name.
    for (const FuncNode *n : defined) {
        for (const std::string &v : n->func.args()) {
            if (pr.vars.count(v)) continue;
            pr.vars[v] = fresh("v_" + v);
            gen << "        Var " << pr.vars[v] << "(" << cpp_string_literal(v) << ");\n";
        }
    }

    // Definitions, producers first.
    std::vector<ReductionDomain> declared;
    int rdom_count = 0;
    for (const FuncNode *n : defined) {
        const Function &f = n->func;
        pr.where = "Func " + n->name;
        const std::string &fi = pr.funcs.at(n->name);
        auto rhs = [&](const Definition &d) {
            const auto &vs = d.values();
            if (vs.size() == 1) return pr.print(vs[0]);
            std::string s = "Halide::Tuple({";
            for (size_t i = 0; i < vs.size(); i++) s += (i ? ", " : "") + pr.print(vs[i]);
            return s + "})";
        };
        gen << "        " << fi << "(";
        for (size_t i = 0; i < f.args().size(); i++) gen << (i ? ", " : "") << pr.vars.at(f.args()[i]);
        gen << ") = " << rhs(f.definition()) << ";\n";
        for (size_t u = 0; u < f.updates().size(); u++) {
            const Definition &d = f.updates()[u];
            pr.where = "Func " + n->name + ", update " + std::to_string(u);
            FindDomains fd;
            for (const Expr &e : d.args()) e.accept(&fd);
            for (const Expr &e : d.values()) e.accept(&fd);
            bool any_predicate = false;
            for (const ReductionDomain &rd : fd.domains) {
                any_predicate |= rd.predicate().defined() && !is_const_one(rd.predicate());
                bool known = false;
                for (const auto &k : declared) known |= k.same_as(rd);
                if (known) continue;
                const std::string ri = fresh("r" + std::to_string(rdom_count++));
                std::string decl = "        RDom " + ri + "(Halide::Internal::ReductionDomain({";
                for (size_t i = 0; i < rd.domain().size(); i++) {
                    const ReductionVariable &rv = rd.domain()[i];
                    decl += std::string(i ? ", " : "") + "Halide::Internal::ReductionVariable{" + cpp_string_literal(rv.var) + ", " +
                            pr.print(rv.min) + ", " + pr.print(rv.extent) + "}";
                }
                gen << decl << "}));\n";
                pr.domains.emplace_back(rd, ri);
                for (size_t i = 0; i < rd.domain().size(); i++) {
                    const std::string &v = rd.domain()[i].var;
                    // A name two RDoms share is only found through its domain.
                    if (pr.rvars.count(v)) {
                        pr.rvars[v] = "";
                    } else {
                        pr.rvars[v] = ri + "[" + std::to_string(i) + "]";
                    }
                }
                if (rd.predicate().defined() && !is_const_one(rd.predicate())) {
                    gen << "        " << ri << ".where(" << pr.print(rd.predicate()) << ");\n";
                }
                declared.push_back(rd);
            }
            if (d.predicate().defined() && !is_const_one(d.predicate()) && !any_predicate) {
                refuse(pr.where, "an update predicate that does not come from an RDom");
            }
            gen << "        " << fi << "(";
            for (size_t i = 0; i < d.args().size(); i++) gen << (i ? ", " : "") << pr.print(d.args()[i]);
            gen << ") = " << rhs(d) << ";\n";
        }
    }

    // Estimates (as written, symbolic in the shape parameters where they were) and constraints.
    auto estimate_expr = [&](const Expr &e, const std::string &where) {
        pr.where = where;
        if (!uses_variables(e)) return pr.print(e);
        Expr c = simplify(ShapeFamily::bind(e, representative));
        if (!as_const_int(c)) {
            std::ostringstream o;
            o << "the estimate " << e << " (not constant at the family's representative shape)";
            refuse(where, o.str());
        }
        return "(auto_schedule ? " + pr.print(e) + " : " + pr.print(c) + ")";
    };
    auto constraints = [&](const Parameter &p, const std::string &ident) {
        const std::string where = "constraints of " + p.name();
        pr.where = where;
        for (int d = 0; d < p.dimensions(); d++) {
            const std::string dim = "        " + ident + ".dim(" + std::to_string(d) + ")";
            if (p.min_constraint(d).defined()) est << dim << ".set_min(" << pr.print(p.min_constraint(d)) << ");\n";
            if (p.extent_constraint(d).defined()) est << dim << ".set_extent(" << pr.print(p.extent_constraint(d)) << ");\n";
            if (p.stride_constraint(d).defined()) {
                est << dim << ".set_stride(" << pr.print(p.stride_constraint(d)) << ");\n";
            } else if (d == 0) {
                est << dim << ".set_stride(Halide::Expr());\n";
            }
        }
        if (p.host_alignment() != p.type().bytes()) {
            est << "        " << ident << ".set_host_alignment(" << p.host_alignment() << ");\n";
        }
    };
    for (const Argument &a : arguments) {
        const Parameter &p = input_params.at(a.name);
        const std::string &ident = pr.params.at(a.name);
        if (p.is_buffer()) {
            for (int d = 0; d < p.dimensions(); d++) {
                auto [mn, ex] = original_estimate(p, d);
                if (!mn.defined() || !ex.defined()) continue;
                const std::string where = "estimate of " + a.name + ".dim(" + std::to_string(d) + ")";
                est << "        " << ident << ".dim(" << d << ").set_estimate(" << estimate_expr(mn, where) << ", "
                    << estimate_expr(ex, where) << ");\n";
            }
            constraints(p, ident);
        } else if (p.estimate().defined()) {
            est << "        " << ident << ".set_estimate(" << scalar_literal(p.estimate(), p.type(), "input " + a.name)
                << ");\n";
        }
    }
    for (const Function &f : outputs) {
        const OutputEstimate *oe = nullptr;
        for (const OutputEstimate &o : family.outputs) {
            if (o.func == f.name()) oe = &o;
        }
        const std::string &ident = output_ident.at(f.name());
        if (oe) {
            est << "        " << ident << ".set_estimates({";
            for (size_t d = 0; d < oe->extent.size(); d++) {
                const std::string where = "estimate of output " + f.name();
                est << (d ? ", " : "") << "{" << estimate_expr(oe->min[d], where) << ", "
                    << estimate_expr(oe->extent[d], where) << "}";
            }
            est << "});\n";
        }
        constraints(f.output_buffers()[0], ident);
    }

    // The order the schedule's pipeline.get_func(i) relies on, checked when the generator runs.
    std::ostringstream order;
    order << "        static const char *const diet_expected_funcs[] = {";
    for (size_t i = 0; i < dag.nodes().size(); i++) {
        if (dag.nodes()[i].pipeline_index != (int)i) refuse("the pipeline", "a DAG whose nodes are not in pipeline order");
        order << (i ? ", " : "") << cpp_string_literal(dag.nodes()[i].name);
    }
    order << "};\n";

    const std::string cls = "DietEmitted_" + sanitize(outputs[0].name());
    std::ostringstream o;
    o << "// MACHINE GENERATED by Diet (HL_DIET_EMIT_GENERATOR): the pipeline's algorithm, rebuilt from its Func\n"
         "// definitions, with the schedule Diet chose. Build it with GenGen.cpp and run it without the plugin:\n"
         "//   <gen> -g " << registered_name << " -o <dir> -e static_library,h target=<target>\n"
         "// The Inputs are in Pipeline::infer_arguments() order (buffers by name, then scalars by name): the\n"
         "// plugin cannot see the original generator's declaration order, so reorder them to match its signature.\n"
         "#include \"Halide.h\"\n\n#include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n#include <limits>\n#include <vector>\n\n"
         "namespace {\n\nusing namespace Halide;\n\n"
      << "class " << cls << " : public Halide::Generator<" << cls << "> {\npublic:\n"
      << members.str() << "\n    void generate() {\n"
      << gen.str() << "\n        // Estimates and buffer constraints.\n"
      << est.str() << "    }\n\n    void schedule() {\n        if (auto_schedule) return;\n"
      << "        Halide::Pipeline pipeline = get_pipeline();\n        Halide::Target target = get_target();\n"
      << "        (void)target;\n"
      << order.str()
      << "        const int diet_func_count = (int)(sizeof(diet_expected_funcs) / sizeof(diet_expected_funcs[0]));\n"
         "        for (int i = 0; i < diet_func_count; i++) {\n"
         "            if (pipeline.get_func(i).name() != diet_expected_funcs[i]) {\n"
         "                std::fprintf(stderr, \"Diet emitted generator: Func %d is %s, the schedule expects %s\\n\", i,\n"
         "                             pipeline.get_func(i).name().c_str(), diet_expected_funcs[i]);\n"
         "                std::exit(1);\n"
         "            }\n"
         "        }\n";
    std::istringstream lines(schedule_statements);
    for (std::string line; std::getline(lines, line);) o << (line.empty() ? "" : "        ") << line << "\n";
    o << "    }\n};\n\n}  // namespace\n\nHALIDE_REGISTER_GENERATOR(" << cls << ", " << registered_name << ")\n";
    return o.str();
}

}  // namespace diet
