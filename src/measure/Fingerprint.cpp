#include "measure/Fingerprint.h"

#include <cstdio>
#include <regex>
#include <sstream>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

void print_definition(std::ostringstream &o, const Definition &d) {
    o << "  (";
    for (const Expr &a : d.args()) o << a << ",";
    o << ") = (";
    for (const Expr &v : d.values()) o << v << ",";
    o << ")";
    for (const ReductionVariable &rv : d.schedule().rvars())
        o << " " << rv.var << "[" << rv.min << "," << rv.extent << "]";
    if (d.predicate().defined()) o << " where " << d.predicate();
    o << "\n";
}

}  // namespace

std::string fingerprint_text(const std::vector<Function> &outputs, const Target &t) {
    std::ostringstream o;
    o << "target " << t.to_string() << "\n";
    o << "outputs";
    for (const Function &f : outputs) o << " " << f.name();
    o << "\n";
    for (const auto &[name, f] : build_environment(outputs)) {  // a std::map: sorted by name
        o << "func " << name << "(";
        for (const std::string &a : f.args()) o << a << ",";
        o << ") ->";
        for (const Type &ty : f.output_types()) o << " " << ty;
        o << "\n";
        if (f.has_extern_definition()) {
            o << "  extern " << f.extern_function_name() << "(";
            for (const ExternFuncArgument &a : f.extern_arguments()) {
                if (a.is_func()) o << "func " << Function(a.func).name();
                if (a.is_expr()) o << a.expr;
                if (a.is_buffer()) o << "buffer " << a.buffer.name();
                if (a.is_image_param()) o << "param " << a.image_param.name();
                o << ",";
            }
            o << ")\n";
            continue;
        }
        print_definition(o, f.definition());
        for (const Definition &u : f.updates()) print_definition(o, u);
    }
    std::vector<Func> funcs(outputs.begin(), outputs.end());
    for (const Argument &a : Pipeline(funcs).infer_arguments()) {
        o << "arg " << a.name << " " << (a.is_buffer() ? "buffer" : "scalar") << " " << a.type << " " << a.dimensions
          << "\n";
    }
    return std::regex_replace(o.str(), std::regex("\\$[0-9]+"), "");
}

std::string pipeline_fingerprint(const std::vector<Function> &outputs, const Target &t) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : fingerprint_text(outputs, t)) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
    return hex;
}

std::string pipeline_fingerprint(const Pipeline &p, const Target &t) {
    std::vector<Function> outs;
    for (const Func &f : p.outputs()) outs.push_back(f.function());
    return pipeline_fingerprint(outs, t);
}

}  // namespace diet
