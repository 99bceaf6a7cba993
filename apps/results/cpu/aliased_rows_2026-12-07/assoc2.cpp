#include "Halide.h"
#include <cstdio>
using namespace Halide; using namespace Halide::Internal;
void tryit(const char *name, Type it, Type vt, bool lt, bool valfirst) {
    ImageParam L(vt, 2, "L");
    Var t("t"); RDom rv(0, 100, "rv");
    Func c(name);
    Expr v = L(rv, t), idx = cast(it, rv);
    if (valfirst) {
        c(t) = Tuple(cast(vt, 0), cast(it, 0));
        Expr b = lt ? v < c(t)[0] : v > c(t)[0];
        c(t) = Tuple(select(b, v, c(t)[0]), select(b, idx, c(t)[1]));
    } else {
        c(t) = Tuple(cast(it, 0), cast(vt, 0));
        Expr b = lt ? v < c(t)[1] : v > c(t)[1];
        c(t) = Tuple(select(b, idx, c(t)[0]), select(b, v, c(t)[1]));
    }
    AssociativeOp op = prove_associativity(name, c.function().updates()[0].args(), c.function().updates()[0].values());
    std::cout << name << " it=" << it << " vt=" << vt << " lt=" << lt << " valfirst=" << valfirst << " -> " << op.associative() << "\n";
}
int main() {
    tryit("c", Int(32), Float(32), false, false); tryit("c", Int(32), Float(32), false, false); tryit("c", Int(32), Float(32), true, true);
    for (Type it : {Int(32), Float(32)}) for (Type vt : {Float(32), Int(32)}) for (bool lt : {true, false}) for (bool vf : {true, false}) tryit("c", it, vt, lt, vf);
}
