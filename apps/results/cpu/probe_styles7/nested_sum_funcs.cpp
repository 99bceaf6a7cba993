#include "Halide.h"
using namespace Halide;
int main() {
    ImageParam A(Float(32), 3, "A"), B(Float(32), 3, "B");
    Var i("i"), j("j"); RDom r1(0, 8, "r1"), r2(0, 16, "r2");
    Func o("o"); o(j, i) = sum(r1, sum(r2, A(r2, r1, i) * B(r2, r1, j)));
    for (auto &[n, f] : Internal::find_transitive_calls(o.function())) {
        std::cout << n << "(";
        for (auto &a : f.args()) std::cout << a << ",";
        std::cout << ") = " << f.values()[0] << "\n";
        for (auto &u : f.updates()) { std::cout << "   update("; for (auto &a : u.args()) std::cout << a << ","; std::cout << ") = " << u.values()[0] << "\n"; }
    }
}
