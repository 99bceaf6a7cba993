#include "schedule/ScheduleSnapshot.h"

#include <map>

namespace diet {

using namespace Halide::Internal;

namespace {

// A copy of the schedule's own fields. Its wrappers (a user's `f.in()`, or one Diet made) are kept
// as the same Funcs: deep_copy copies only the wrappers its map names, and asserts on any other
// (red-team round 20: a pipeline reading a Func through `in()` made auto_schedule abort).
FuncSchedule copy_of(const FuncSchedule &s) {
    std::map<FunctionPtr, FunctionPtr> copied;
    for (const auto &w : s.wrappers()) copied[w.second] = w.second;
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
