// Reads that a definition names but its simplified form does not (`select(t < t, t, t - t)`, a
// `select(false, ...)` left by a generator parameter): Halide 14 simplifies each specialization's
// definition (SimplifySpecializations), and a specialized branch that no longer reads a producer
// computed elsewhere can crash its bounds inference (a segfault compiling; test_fuzz seed 20269208,
// a minimal case in test/test_fuzz's seed test). The schedule writer leaves such stages unspecialized.
#pragma once

#include "Halide.h"

#include <set>
#include <string>

namespace diet {

// The Funcs (and input buffers) `def` reads in its values and arguments that the simplified values
// and arguments no longer read. Empty for an undefined definition.
std::set<std::string> reads_vanishing_when_simplified(const Halide::Internal::Definition &def);

}  // namespace diet
