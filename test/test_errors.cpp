// Bad input gets a clear user error that names what is wrong; nothing crashes.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "options/Options.h"
#include "plugin/Diet.h"

using namespace Halide;

namespace {

std::string error_of(const Pipeline &p, const Target &t = get_host_target(), diet::Options o = {}) {
    try {
        diet::autoschedule(p, t, 2, 0, o);
    } catch (const CompileError &e) {
        return e.what();
    } catch (const Halide::Error &e) {
        return std::string("non-user error: ") + e.what();
    }
    return "no error";
}

struct Matmul {
    ImageParam a{Float(32), 2, "a"}, b{Float(32), 2, "b"};
    Var i{"i"}, j{"j"};
    Func acc{"acc"}, y{"y"};
    Matmul() {
        RDom r(0, 16, "r");
        acc(j, i) = 0.f;
        acc(j, i) += a(r, i) * b(r, j);
        y(j, i) = acc(j, i);
    }
};

}  // namespace

TEST_CASE("a symbolic estimate over a parameter without a range", "[errors]") {
    Matmul m;
    Param<int> T("T");
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    std::string e = error_of(m.y);
    CHECK_THAT(e, Catch::Contains("uses the scalar parameter T") && Catch::Contains("has no range") &&
                      Catch::Contains("HL_DIET_SHAPES"));
}

TEST_CASE("a parameter with only a lower bound is unbounded", "[errors]") {
    Matmul m;
    Param<int> T("T");
    T.set_min_value(1);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    CHECK_THAT(error_of(m.y), Catch::Contains("has no range"));
}

TEST_CASE("an output without estimates", "[errors]") {
    Matmul m;
    std::string e = error_of(m.y);
    CHECK_THAT(e, Catch::Contains("output Func " + m.y.name() + " has no estimate for dimension j") &&
                      Catch::Contains("set_estimates"));
}

TEST_CASE("HL_DIET_SHAPES naming a parameter no estimate uses", "[errors]") {
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    diet::Options o;
    o.shapes = diet::parse_shape_specs("U=1:4");
    CHECK_THAT(error_of(m.y, get_host_target(), o), Catch::Contains("names U") && Catch::Contains("use: T"));
}

TEST_CASE("an estimate that is not positive somewhere in the family", "[errors]") {
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    m.y.set_estimates({{0, 64}, {0, 16 * T - 32}});
    CHECK_THAT(error_of(m.y), Catch::Contains("estimated extent of " + m.y.name() + ".i is -16 at T=1"));
}

TEST_CASE("absurd sizes: an empty extent and a range too large to tune", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 0}});
    CHECK_THAT(error_of(m.y), Catch::Contains("is 0") && Catch::Contains("must lie in [1, 2^31)"));
    Matmul m2;
    Param<int> T("T", 4, 1, 1 << 30);
    m2.y.set_estimates({{0, 64}, {0, T}});
    CHECK_THAT(error_of(m2.y), Catch::Contains("too large to tune"));
}

TEST_CASE("a target Diet does not support is named", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 64}});
    std::string e = error_of(m.y, Target("host-opencl"));
    CHECK_THAT(e, Catch::Contains("opencl") && Catch::Contains("Diet does not support"));
}

TEST_CASE("a float parameter in an estimate", "[errors]") {
    Matmul m;
    Param<float> s("s", 1.f, 0.f, 2.f);
    m.y.set_estimates({{0, 64}, {0, cast<int>(16 * s)}});
    CHECK_THAT(error_of(m.y), Catch::Contains("shape parameters must be integers"));
}

TEST_CASE("constant estimates are a one-shape family and schedule fine", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 48}});
    CHECK(error_of(m.y) == "no error");
}
