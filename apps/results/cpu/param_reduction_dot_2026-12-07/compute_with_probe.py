"""Issue 13's update on an output: can Halide 14 fuse the output's zero init with the pass that
adds the per-tile sums? Two tries with compute_with; each prints Halide's answer."""
import halide as hl
j, i, b = hl.Var('j'), hl.Var('i'), hl.Var('b')
q = hl.ImageParam(hl.Float(32), 3, 'q'); k = hl.ImageParam(hl.Float(32), 3, 'k')
r = hl.RDom([(0, 64)], 'r')
tgt = hl.Target('x86-64-linux-avx-avx2-f16c-fma-sse41')

def attempt(name, build):
    try:
        out = build()
        out.compile_jit(tgt)
        print(name, ': accepted')
    except Exception as e:
        print(name, ':', str(e).strip().splitlines()[-1])

def same_func():
    s = hl.Func('s'); s[j, i, b] = 0.0; s[j, i, b] += q[r.x, i, b] * k[r.x, j, b]
    s.update(0).compute_with(hl.LoopLevel(s, b))  # the update fused with its own pure stage
    return s

def producer_consumer():
    W = hl.Func('W'); W[j, i, b] = 0.0; W[j, i, b] += q[r.x, i, b] * k[r.x, j, b]
    s = hl.Func('s'); s[j, i, b] = 0.0; s[j, i, b] += W[j, i, b]
    W.compute_root()
    s.compute_with(W.update(0), b)
    s.update(0).compute_with(W.update(0), b)  # the output's passes fused with the sums they read
    return s

attempt('update with its own pure stage', same_func)
attempt('output passes with their producer', producer_consumer)
