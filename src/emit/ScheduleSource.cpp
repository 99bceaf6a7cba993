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
    o << "\n// Micro-kernels:\n";
    if (kernels.empty()) o << "//   (no matmul-like stage)\n";
    for (const KernelChoice &k : kernels) {
        o << "//   " << k.pattern.acc << " -> " << k.pattern.host << ", chosen by " << k.chosen_by << ": ";
        if (k.dispatch.empty()) {
            o << k.kernel.to_string() << "\n";
            continue;
        }
        o << "dispatch over the extents of " << k.pattern.host << ", " << k.dispatch.leaves.size() << " leaves, "
          << k.dispatch.kernel_count() << " kernel(s), first match wins:\n";
        for (const DispatchLeaf &l : k.dispatch.leaves) {
            o << "//     ";
            bool any = false;
            for (size_t d = 0; d < l.lo.size(); d++) {
                if (l.lo[d] > 1) o << (any ? " && " : "") << "extent(" << d << ") >= " << l.lo[d], any = true;
                if (l.hi[d] < kNoUpperBound) o << (any ? " && " : "") << "extent(" << d << ") <= " << l.hi[d], any = true;
            }
            o << (any ? "" : "otherwise") << ": " << l.kernel.to_string() << " (" << l.covers << ")\n";
        }
    }
    for (const std::string &n : notes) o << "// " << n << "\n";
    o << w.source();
    return o.str();
}

}  // namespace diet
