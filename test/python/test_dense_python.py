"""A dense layer written with Halide's Python bindings (Debian python3-halide, Halide 14), scheduled
by Diet for every T in [1, 128] (the plugin loaded with load_plugin, as a Python user would) and
checked against numpy at T inside and outside the range.

usage: test_dense_python.py <libautoschedule_diet.so> <target>   (target: build/diet_target's output)
Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import sys

try:
    import halide as hl
    import numpy as np
except ImportError as e:  # ctest: SKIP_RETURN_CODE 77
    print("skipped: Halide's Python bindings or numpy are missing (%s); Debian: apt-get install python3-halide python3-numpy" % e)
    sys.exit(77)

K, N = 96, 200  # neither is a multiple of a register tile


def dense_layer():
    x = hl.ImageParam(hl.Float(32), 2, "x")  # x[k, m]: k innermost (numpy: a Fortran-ordered K x M array)
    w = hl.ImageParam(hl.Float(32), 2, "w")  # w[k, n]
    bias = hl.ImageParam(hl.Float(32), 1, "bias")
    T = hl.Param(hl.Int(32), "T", 16)
    T.set_range(1, 128)
    n, m = hl.Var("n"), hl.Var("m")
    k = hl.RDom([hl.Range(0, K)], "k")
    y = hl.Func("y")
    # The most common way to write it: an inline sum(), a bias and a ReLU in the output.
    y[n, m] = hl.max(hl.sum(x[k, m] * w[k, n]) + bias[n], 0.0)
    x.dim(0).set_estimate(0, K)
    x.dim(1).set_estimate(0, 16 * T)
    w.dim(0).set_estimate(0, K)
    w.dim(1).set_estimate(0, N)
    bias.dim(0).set_estimate(0, N)
    y.set_estimate(n, 0, N)
    y.set_estimate(m, 0, 16 * T)
    return x, w, bias, T, y


def main():
    plugin, target_string = sys.argv[1], sys.argv[2]
    hl.load_plugin(plugin)
    target = hl.Target(target_string)
    x, w, bias, T, y = dense_layer()
    pipeline = hl.Pipeline(y)
    result = pipeline.auto_schedule("Diet", target, hl.MachineParams(2, 1 << 20, 40))
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAILED:", what)

    check("Micro-kernels" in result.schedule_source and "specialize" in result.schedule_source,
          "the schedule has Diet's micro-kernel with its specialize() chain:\n" + result.schedule_source[:2000])
    pipeline.compile_jit(target)
    rng = np.random.default_rng(1)
    wv = np.asfortranarray(rng.standard_normal((K, N), dtype=np.float32))
    bv = rng.standard_normal(N, dtype=np.float32)
    w.set(hl.Buffer(wv))
    bias.set(hl.Buffer(bv))
    for t in (1, 2, 3, 16, 77, 128, 150):
        xv = np.asfortranarray(rng.standard_normal((K, 16 * t), dtype=np.float32))
        x.set(hl.Buffer(xv))
        T.set(t)
        out = np.asarray(pipeline.realize([N, 16 * t], target))
        want = np.maximum(wv.T.astype(np.float64) @ xv.astype(np.float64) + bv[:, None], 0.0)
        err = float(np.max(np.abs(out - want)))
        check(out.shape == want.shape and err < 1e-3 * (1 + float(np.max(np.abs(want)))),
              "T=%d: shape %s vs %s, max error %g" % (t, out.shape, want.shape, err))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
