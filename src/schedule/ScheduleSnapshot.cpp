#include "schedule/ScheduleSnapshot.h"

#include <map>

namespace diet {

using namespace Halide::Internal;

namespace {

FuncSchedule copy_of(const FuncSchedule &s) {
    std::map<FunctionPtr, FunctionPtr> copied;
    return s.deep_copy(copied);
}

}  // namespace

ScheduleSnapshot::ScheduleSnapshot(const std::vector<Function> &funcs) {
    for (const Function &f : funcs) {
        if (!f.has_pure_definition() || f.has_extern_definition()) continue;
        Saved s{f, f.definition().get_copy(), {}, copy_of(f.schedule())};
        for (const Definition &u : f.updates()) s.updates.push_back(u.get_copy());
        saved_.push_back(std::move(s));
    }
}

void ScheduleSnapshot::restore() const {
    for (const Saved &s : saved_) {
        Function f = s.func;
        f.definition() = s.pure.get_copy();
        for (size_t i = 0; i < s.updates.size() && i < f.updates().size(); i++) f.update((int)i) = s.updates[i].get_copy();
        f.schedule() = copy_of(s.schedule);
    }
}

}  // namespace diet
