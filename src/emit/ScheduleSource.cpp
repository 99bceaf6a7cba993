#include "emit/ScheduleSource.h"
#include "common/Errors.h"

#include <sstream>

namespace diet {

std::string schedule_source(const ShapeFamily &family, const std::vector<Shape> &training,
                            const std::vector<KernelChoice> &kernels, const std::vector<std::string> &notes,
                            const ScheduleWriter &w) {
    std::ostringstream o;
    o << "// Diet schedule.\n// Shape family:";
    if (family.vars.empty()) o << " one fixed shape";
    for (const ShapeVar &v : family.vars) {
        o << " " << v.name << " in {" << v.values.front() << ".." << v.values.back() << "} (" << v.values.size()
          << " values)";
    }
    o << "\n// Training shapes:";
    for (const Shape &s : training) o << " [" << ShapeFamily::to_string(s) << "]";
    o << "\n// Micro-kernels chosen by the register-tile intensity heuristic:\n";
    if (kernels.empty()) o << "//   (no matmul-like stage)\n";
    for (const KernelChoice &k : kernels) {
        o << "//   " << k.pattern.acc << " -> " << k.pattern.host << ": " << k.kernel.to_string() << "\n";
    }
    for (const std::string &n : notes) o << "// " << n << "\n";
    o << w.source();
    return o.str();
}

}  // namespace diet
