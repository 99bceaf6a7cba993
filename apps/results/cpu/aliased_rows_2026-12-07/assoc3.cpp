#include "Halide.h"
#include <cstdio>
using namespace Halide; using namespace Halide::Internal;
int main(int argc, char **argv) {
    int which = atoi(argv[1]);
    ImageParam logits(Float(32), 2, "logits");
    Var t("t"); RDom rv(0, 100, "rv");
    Func b("b");
    if (which == 0) b(t) = Tuple(0, logits(0, t)); else b(t) = Tuple(0, 0.0f);
    Expr better = logits(rv, t) > b(t)[1];
    b(t) = Tuple(select(better, rv, b(t)[0]), select(better, logits(rv, t), b(t)[1]));
    for (auto &v : b.function().updates()[0].values()) std::cout << v << "\n";
    for (int i = 0; i < 3; i++) {
    std::vector<Expr> vals; for (auto &v : b.function().updates()[0].values()) vals.push_back(i == 1 ? substitute_in_all_lets(v) : v); AssociativeOp op = prove_associativity("b", b.function().updates()[0].args(), vals);
    printf("b associative %d\n", (int)op.associative()); }
}
