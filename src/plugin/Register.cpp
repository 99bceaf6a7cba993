// The plugin's only own code: when GenGen dlopen()s libautoschedule_diet.so (-p), this object's
// constructor registers "Diet" with Halide.
#include "plugin/Diet.h"

namespace {
struct RegisterDiet {
    RegisterDiet() { diet::register_autoscheduler(); }
} register_diet;
}  // namespace
