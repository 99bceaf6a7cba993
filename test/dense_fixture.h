// The small dense pipeline the unit tests share: y(n, m) = sum_k x(k, m) * w(k, n) with K = 64,
// N columns and 16*T rows, T a ranged parameter used in the symbolic estimates.
#pragma once

#include "Halide.h"

#include <vector>

struct DenseFixture {
    Halide::ImageParam x{Halide::Float(32), 2, "x"}, w{Halide::Float(32), 2, "w"};
    Halide::Param<int> T;
    Halide::Func acc{"acc"}, y{"y"};
    Halide::Var n{"n"}, m{"m"};

    explicit DenseFixture(int columns = 96, int t_max = 128, int t_default = 32)
        : T("T", t_default, 1, t_max) {
        Halide::RDom k(0, 64, "k");
        acc(n, m) = 0.f;
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);
        x.dim(0).set_estimate(0, 64);
        x.dim(1).set_estimate(0, 16 * T);
        w.set_estimates({{0, 64}, {0, columns}});
        y.set_estimates({{0, columns}, {0, 16 * T}});
    }
    std::vector<Halide::Internal::Function> outputs() const { return {y.function()}; }
};
