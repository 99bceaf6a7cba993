"""Round 19 repro (slow): fBm value noise, inline hl.sum over RDom(0, OCT) of hashed-lattice bilinear noise with shifts
by the RVar. Diet: fb_sum computed at root in 32-row tiles, the octave sum unrolled per OCT value (specializations),
16-lane u32 hash vectors; then separate passes for the f16 output and the 0-D maximum. Variants: as specified (f16 +
0-D max); the f32 sum as the only output; OCT a constant 6. Diet vs Adams2019 (at the constant shape) vs the serial
reference, 1024x768 and 129x97, AVX-512 target. Standalone:
DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_fbm19.py"""
import halide as hl
from repro_util19 import time_all, TA
F16 = hl.Float(16)


def builder(variant):
    def build(S, sched):
        x, y = hl.Var("x"), hl.Var("y")
        OCT = 6 if variant == "oct_const6" else S['OCT']
        ro = hl.RDom([hl.Range(0, OCT)], "ro"); o = ro.x
        px = x << o; py = y << o; ix = px >> 6; iy = py >> 6
        fx = hl.f32(px & 63) * (1.0 / 64); fy = hl.f32(py & 63) * (1.0 / 64)

        def val(a, b):
            h = (hl.u32(a) * hl.u32(0x2da6b343)) ^ (hl.u32(b) * hl.u32(0x58163841)) ^ (hl.u32(o + 1) * hl.u32(0x4b1ab31f)) ^ hl.u32(S['SEED'])
            h = h ^ (h >> 13); h = h * hl.u32(0x5bd1e995); h = h ^ (h >> 15)
            return hl.f32(h >> 8) * (1.0 / 16777216)
        sx = fx * fx * (3.0 - 2.0 * fx); sy = fy * fy * (3.0 - 2.0 * fy)
        n = hl.lerp(hl.lerp(val(ix, iy), val(ix + 1, iy), sx), hl.lerp(val(ix, iy + 1), val(ix + 1, iy + 1), sx), sy)
        tot = hl.Func("fb_sum"); tot[x, y] = hl.sum(n / hl.f32(hl.Expr(1) << o))
        if variant == "f32_sum_only":
            tot.set_estimate(x, 0, S['W']).set_estimate(y, 0, S['H'])
            return [tot], [], [tot]
        out = hl.Func("fb_f16"); out[x, y] = hl.cast(F16, tot[x, y])
        rr = hl.RDom([hl.Range(0, S['W']), hl.Range(0, S['H'])], "rm")
        mx = hl.Func("fb_max"); mx[()] = hl.maximum(tot[rr.x, rr.y])
        out.set_estimate(x, 0, S['W']).set_estimate(y, 0, S['H'])
        return [out, mx], [], [tot, out, mx]
    return build


R = dict(W=(1, 1024), H=(1, 768), OCT=(1, 6), SEED=(0, 1000))
for variant in ["as_specified", "f32_sum_only", "oct_const6"]:
    for v in (dict(W=129, H=97, OCT=1, SEED=126), dict(W=1024, H=768, OCT=6, SEED=1000)):
        if variant == "oct_const6":
            v = dict(v, OCT=6)
        outs = [(hl.Float(32), [v['W'], v['H']])] if variant == "f32_sum_only" else [(F16, [v['W'], v['H']]), (hl.Float(32), [])]
        time_all("%s %dx%d OCT=%d" % (variant, v['W'], v['H'], v['OCT']), builder(variant), R, v, [], outs, TA)
