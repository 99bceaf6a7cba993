import halide as hl, sys, re, os
import sys; hl.load_plugin(sys.argv[1])
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
for acc_t in ["u32", "i32"]:
  for layout in ["NN", "NT"]:
    A = hl.ImageParam(hl.UInt(8), 2, "A"); B = hl.ImageParam(hl.UInt(8), 2, "B")
    j, i = hl.Var("j"), hl.Var("i"); r = hl.RDom([hl.Range(0, 256)], "r")
    c = hl.Func("c")
    cast = hl.u32 if acc_t == "u32" else hl.i32
    c[j, i] = cast(0)
    bv = B[j, r.x] if layout == "NN" else B[r.x, j]
    c[j, i] += cast(A[r.x, i]) * cast(bv)
    A.set_estimates([(0, 256), (0, 256)]); B.set_estimates([(0, 256), (0, 256)]); c.set_estimates([(0, 256), (0, 256)])
    p = hl.Pipeline([c])
    p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    f = "/tmp/u8/%s_%s.s" % (acc_t, layout)
    p.compile_to_assembly(f, [A, B], "c", T)
    s = open(f).read()
    print(acc_t, layout, "vpmaddwd:", len(re.findall("vpmaddwd", s)), "vpmulld:", len(re.findall("vpmulld", s)), "vpshufb:", len(re.findall("vpshufb|vpermb|vpermt2", s)))
