"""round-14 bisection variants of the curl/div pipeline (whose Diet-scheduled JIT hangs in bounds inference), registered into
pipes14's spec table; use with RT_PIPES=pipes14v. noens: without the 0-D enstrophy output; nodiv: without the divergence
output; sep: the curl as three separate Funcs instead of a 3-Tuple."""
import math
from pipes14 import *  # noqa: F401,F403
from pipes14 import SPECS, spec, CREATED, F, V, RD, BF, est_in, est_out, rimg, F32, sq


def _curl(S, E, ens=True, div=True, sep=False):
    fi = hl.ImageParam(F32, 4, "F")
    c, x, y, z = V("c", "x", "y", "z")
    fb = BF.constant_exterior(fi, 0.0, [(0, 3), (0, S['NX']), (0, S['NY']), (0, S['NZ'])])

    def d(comp, ax):
        def at(s):
            oo = [0, 0, 0]; oo[ax] = s
            return fb[comp, x + oo[0], y + oo[1], z + oo[2]]
        return (-at(2) + 8.0 * at(1) - 8.0 * at(-1) + at(-2)) * (1.0 / 12.0)
    ex = [d(2, 1) - d(1, 2), d(0, 2) - d(2, 0), d(1, 0) - d(0, 1)]
    if sep:
        fs = []
        for i in range(3):
            f = F("cv_curl%d" % i); f[x, y, z] = ex[i]; fs.append(f)
        comp = lambda a, b, cc, i: fs[i][a, b, cc]
    else:
        cu = F("cv_curl"); cu[x, y, z] = tuple(ex)
        comp = lambda a, b, cc, i: cu[a, b, cc][i]
    co = F("cv_curl_out"); co[c, x, y, z] = hl.mux(c, [comp(x, y, z, i) for i in range(3)])
    outs = [co]
    est_in(fi, 3, E['NX'], E['NY'], E['NZ']); est_out(co, [c, x, y, z], 3, E['NX'], E['NY'], E['NZ'])
    if div:
        dv = F("cv_div"); dv[x, y, z] = d(0, 0) + d(1, 1) + d(2, 2); outs.append(dv)
        est_out(dv, [x, y, z], E['NX'], E['NY'], E['NZ'])
    if ens:
        r = RD((0, S['NX']), (0, S['NY']), (0, S['NZ']), name="r")
        en = F("cv_ens"); en[()] = hl.sum(sum(sq(comp(r.x, r.y, r.z, i)) for i in range(3))); outs.append(en)
    return outs, [fi]


R3 = {'NX': (1, 64), 'NY': (1, 64), 'NZ': (1, 64)}
dat = lambda v, r: [rimg(r, (3, v['NX'], v['NY'], v['NZ']))]
o3 = lambda v: [(F32, [3, v['NX'], v['NY'], v['NZ']])]
od = lambda v: [(F32, [v['NX'], v['NY'], v['NZ']])]
spec("curlv_noens", "curl/div without the enstrophy", R3, outs=lambda v: o3(v) + od(v), data=dat, tol=1e-4, target='B')(lambda S, E: _curl(S, E, ens=False))
spec("curlv_nodiv", "curl + enstrophy, no div", R3, outs=lambda v: o3(v) + [(F32, [])], data=dat, tol=1e-4, target='B')(lambda S, E: _curl(S, E, div=False))
spec("curlv_sep", "curl as 3 Funcs + div + enstrophy", R3, outs=lambda v: o3(v) + od(v) + [(F32, [])], data=dat, tol=1e-4, target='B')(lambda S, E: _curl(S, E, sep=True))
spec("curlv_only", "curl only (Tuple)", R3, outs=o3, data=dat, tol=1e-4, target='B')(lambda S, E: _curl(S, E, ens=False, div=False))
