"""usage: probe_shapes.py PIPELINE SCHED 'K=v,K=v' ['K=v,...' ...]: build + schedule once, then realize the given shapes
in order with SCHED (Diet/none/ref) and with the compute_root reference, printing ok / the exception per shape."""
import sys
import numpy as np, halide as hl
import run9
ro = run9.run_one
name, sched = sys.argv[1], sys.argv[2]
spec = run9.run6.pipes6.SPECS[name]
if sched not in ("ref", "none"):
    hl.load_plugin(ro.PLUGINS[sched])
S, outs, ins, p = ro.build(spec, sched)
if sched not in ("ref", "none"):
    p.auto_schedule(sched, run9.TARGET, hl.MachineParams(2, 1 << 20, 40))
p.compile_jit(run9.TARGET)
rS, _, rins, rp = ro.build(spec, "ref"); rp.compile_jit(run9.TARGET)
for arg in sys.argv[3:]:
    v = {k: int(x) for k, x in (kv.split("=") for kv in arg.split(","))}
    for who, (pp, SS, ii) in (("ref", (rp, rS, rins)), (sched, (p, S, ins))):
        try:
            got = run9.realize(pp, SS, ii, spec, v)
            print(v, who, "ok", flush=True)
            if who == "ref":
                want = got
            else:
                print("   compare:", [run9.compare(g, w, spec['tol']) for g, w in zip(got, want)])
        except Exception as e:
            print(v, who, "EXC", str(e).strip()[:300], flush=True)
