"""Round 21 step 5: isolate what makes Diet slow on the Sobel-with-wrappers pipeline. Variants of the same algorithm
(u8 [x, y, n], repeat_edge, u16 absd gradients, u8_sat magnitude, threshold TH a Param), each timed for Diet, Adams2019
(constant shape) and the compute_root ref (repro_util21.time_all: median of 10 realizes, outputs checked against ref):
  full        the spec: copy Func + global .in_() wrapper + per-consumer wrappers pad.in_(gx), pad.in_(gy), two outputs (image, count)
  no_count    the same, only the image output
  count_only  the same, only the per-image count output (hl.sum over a 2-D RDom of a select on the magnitude)
  no_wrap     no wrappers at all (gx, gy read pad directly), two outputs
  no_wrap_img no wrappers, image output only
  global_wrap_only_img          only the global wrapper of the copy Func, image output only
  per_consumer_wraps_only_img   only pad.in_(gx), pad.in_(gy) (input read directly), image output only
  one_per_consumer_wrap_img     only pad.in_(gx) (gy reads pad directly), image output only
usage: rt21.py r11 ../redteam21_2026-12-07/repro_sobel21.py [W H NB TH]"""
import sys
import numpy as np, halide as hl
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import repro_util21 as ru

a = [int(s) for s in sys.argv[1:]] or [640, 480, 4, 100]
v = dict(W=a[0], H=a[1], NB=a[2], TH=a[3])
ranges = {'W': (1, 640), 'H': (1, 480), 'NB': (1, 4), 'TH': (0, 254)}


def make(wrap, outs_kind):
    def build(S, sched):
        img = hl.ImageParam(hl.UInt(8), 3, "img")
        x, y, n = hl.Var("x"), hl.Var("y"), hl.Var("n")
        funcs = []
        F = lambda nm: funcs.append(hl.Func(nm)) or funcs[-1]
        if wrap in (True, "global"):
            src = F("sb_src"); src[x, y, n] = img[x, y, n]
            iw = src.in_()
            pe = hl.BoundaryConditions.repeat_edge(iw, [(0, S['W']), (0, S['H'])])
        else:
            pe = hl.BoundaryConditions.repeat_edge(img, [(0, S['W']), (0, S['H'])])
        pad = F("sb_pad"); pad[x, y, n] = hl.u16(pe[x, y, n])
        gx = F("sb_gx"); gy = F("sb_gy")
        px, py = (pad.in_(gx), pad.in_(gy)) if wrap in (True, "per_consumer") else ((pad.in_(gx), pad) if wrap == "one_pc" else (pad, pad))
        gx[x, y, n] = hl.absd(px[x + 1, y - 1, n] + 2 * px[x + 1, y, n] + px[x + 1, y + 1, n], px[x - 1, y - 1, n] + 2 * px[x - 1, y, n] + px[x - 1, y + 1, n])
        gy[x, y, n] = hl.absd(py[x - 1, y + 1, n] + 2 * py[x, y + 1, n] + py[x + 1, y + 1, n], py[x - 1, y - 1, n] + 2 * py[x, y - 1, n] + py[x + 1, y - 1, n])
        mag = F("sb_mag"); mag[x, y, n] = hl.u8_sat(gx[x, y, n] + gy[x, y, n])
        out = F("sb_out"); out[x, y, n] = hl.select(mag[x, y, n] > hl.u8(S['TH']), mag[x, y, n], hl.u8(0))
        r = hl.RDom([hl.Range(0, S['W']), hl.Range(0, S['H'])], "rcnt")
        cnt = F("sb_count"); cnt[n] = hl.sum(hl.select(mag[r.x, r.y, n] > hl.u8(S['TH']), hl.u32(1), hl.u32(0)))
        img.dim(0).set_estimate(0, S['W']); img.dim(1).set_estimate(0, S['H']); img.dim(2).set_estimate(0, S['NB'])
        out.set_estimate(x, 0, S['W']).set_estimate(y, 0, S['H']).set_estimate(n, 0, S['NB'])
        cnt.set_estimate(n, 0, S['NB'])
        o = {"both": [out, cnt], "img": [out], "count": [cnt]}[outs_kind]
        return o, [img], funcs
    return build


rng = np.random.default_rng(7)
data = [ru.fa(rng.integers(0, 256, size=(v['W'], v['H'], v['NB'])).astype(np.uint8))]
shp = {"both": [(hl.UInt(8), [v['W'], v['H'], v['NB']]), (hl.UInt(32), [v['NB']])], "img": [(hl.UInt(8), [v['W'], v['H'], v['NB']])],
       "count": [(hl.UInt(32), [v['NB']])]}
print("shape", v, flush=True)
for label, wrap, kind in (("full", True, "both"), ("no_count", True, "img"), ("count_only", True, "count"),
                          ("no_wrap", False, "both"), ("no_wrap_img", False, "img"),
                          ("global_wrap_only_img", "global", "img"), ("per_consumer_wraps_only_img", "per_consumer", "img"),
                          ("one_per_consumer_wrap_img", "one_pc", "img")):
    ru.time_all(label, make(wrap, kind), ranges, v, data, shp[kind], ru.TB)
