"""usage: rt12.py r11 ../redteam12_2026-12-02/probe12.py NAME ROUNDS 'LABEL::CODE' ...   (or: python3 probe12.py ...); $PROBE_ORDER=a,b: only these variants, in this order
Hand-modified-schedule probe. Builds NAME (pipes12) with Diet's schedule (auto_schedule on the spec's target), the
unscheduled serial reference 'ref', and one variant per 'LABEL::CODE' argument: Diet's schedule, then CODE exec'd with
fn = {name: Func} of the spec's named Funcs, outs / ins (the output Funcs and input ImageParams), hl, and Vars made on demand by V('x'). A variant whose CODE starts
with 'HAND:' is built WITHOUT Diet (CODE is the whole hand schedule). All are JIT-compiled, checked against ref at the
timing shape ($PROBE_SHAPE small|large, default large), then timed interleaved: ROUNDS rounds x median of 10 realizes.
Prints one 'PROBE {...}' JSON line per (round, variant) and a summary line per variant (median over rounds)."""
import json, os, sys, time
import numpy as np
import halide as hl
import run11
ro, run6 = run11.run_one, run11.run9.run6
pipes = run11.pipes11
name, rounds = sys.argv[1], int(sys.argv[2])
variants = [("Diet", "")] + [tuple(a.split("::", 1)) for a in sys.argv[3:]] + [("ref", None)]
if os.environ.get("PROBE_ORDER"):  # e.g. "ref,Diet": time only these, in this order (ref is still built for the check)
    variants = [t for k in os.environ["PROBE_ORDER"].split(",") for t in variants if t[0] == k]
spec = pipes.SPECS[name]
T = run11.TARGET
hl.load_plugin(ro.PLUGINS["Diet"])
v = ro.default_times(spec)[0 if os.environ.get("PROBE_SHAPE") == "small" else 1]
built = {}
for label, code in variants:
    hand = code is not None and code.startswith("HAND:")
    S, outs, ins, p = ro.build(spec, "ref" if code is None else ("none" if hand else "Diet"))
    if code is not None and not hand:
        p.auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40))
    if code:
        fn = {f.name().split("$")[0]: f for f in pipes.CREATED}
        print("FUNCS", sorted(fn), flush=True)
        exec(code[5:] if hand else code, dict(fn=fn, hl=hl, V=hl.Var, outs=outs, ins=ins))
    t0 = time.time(); p.compile_jit(T); ct = time.time() - t0
    built[label] = (S, ins, p, ct)
    print("BUILT %s JIT %.2f s" % (label, ct), flush=True)
want = [np.asarray(b).copy() for b in run6.realize(built["ref"][2], built["ref"][0], built["ref"][1], spec, v)] if "ref" in built else None
bufs, res = {}, {}
for label, (S, ins, p, ct) in built.items():
    got = run6.realize(p, S, ins, spec, v)
    ok = want is None or all(run6.compare(g, w, spec['tol'])[0] for g, w in zip(got, want))
    bufs[label] = got
    print("CHECK %s %s" % (label, "ok" if ok else "MISMATCH"), flush=True)
for rnd in range(1, rounds + 1):
    for label, (S, ins, p, ct) in built.items():
        ro.run_pipeline(p, S, ins, spec, v)
        p.realize(bufs[label], T)
        ts = []
        for _ in range(10):
            t0 = time.perf_counter(); p.realize(bufs[label], T); ts.append(time.perf_counter() - t0)
        ms = float(np.median(ts)) * 1e3
        res.setdefault(label, []).append(ms)
        print("PROBE " + json.dumps(dict(round=rnd, pipeline=name, variant=label, shape=v, ms=ms, load=open("/proc/loadavg").read().split()[0])), flush=True)
for label, code in variants:
    print("%-28s %s  median %.4f ms over %d rounds %s  (JIT %.1f s)  %s" % (label, v, float(np.median(res[label])), rounds,
          ["%.4f" % t for t in res[label]], built[label][3], "" if not code else code[:300]), flush=True)
