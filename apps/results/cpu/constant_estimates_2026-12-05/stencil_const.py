import halide as hl, numpy as np, sys
import os
PLUG = {"Diet": os.environ.get("DIET_PLUGIN", "/work/main/build/libautoschedule_diet.so"), "Adams2019": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so", "Mullapudi2016": "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_mullapudi2016.so"}
WHO = sys.argv[2]
hl.load_plugin(PLUG[WHO])
T = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
W = hl.Param(hl.Int(32), "W", 1024); H = hl.Param(hl.Int(32), "H", 768)
W.set_range(1, 1024); H.set_range(1, 768)
im = hl.ImageParam(hl.Float(32), 2, "im")
x, y = hl.Var("x"), hl.Var("y")
e = hl.Func("e"); e[x, y] = im[x + 1, y + 1]
bx = hl.Func("bx"); bx[x, y] = e[x-1, y] + e[x, y] + e[x+1, y]
by = hl.Func("by"); by[x, y] = (bx[x, y-1] + bx[x, y] + bx[x, y+1]) / 9
im.set_estimates([(0, 1026), (0, 770)])
mode = sys.argv[1]
if mode == "const":
    by.set_estimates([(0, 1024), (0, 768)])
else:
    by.set_estimates([(0, W), (0, H)])
p = hl.Pipeline(by)
p.auto_schedule(WHO, T, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(T)
for (w, h) in [(1024, 768), (100, 50), (10, 7), (1, 1)]:
    a = np.asfortranarray(np.random.rand(w + 2, h + 2).astype(np.float32))
    ib = hl.Buffer(a); im.set(ib); W.set(w); H.set(h)
    try:
        o = p.realize([w, h], T); r = np.array(o)
        pad = a
        ref = sum(pad[1+dx:1+dx+w, 1+dy:1+dy+h] for dy in (-1,0,1) for dx in (-1,0,1)) / 9
        print(w, h, "maxerr", np.abs(r - ref).max())
    except Exception as ex:
        print(w, h, "ERROR", ex)
