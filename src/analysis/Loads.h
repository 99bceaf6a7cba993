// The loads an expression makes: its calls to Funcs and to input buffers (Call::Halide and
// Call::Image), in visiting order (a call's own arguments first). The pointers live as long as
// the expression.
#pragma once

#include "Halide.h"

#include <vector>

namespace diet {

std::vector<const Halide::Internal::Call *> loads_in(const Halide::Expr &e);

}  // namespace diet
