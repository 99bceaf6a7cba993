"""usage: run6.py <pipeline> <Diet|Adams2019|Adams2019@small|Mullapudi2016|Mullapudi2016@small|none> -> one line 'RESULT {...}'.
Round 3's harness (../redteam3_fixes_2026-11-30/run_one.py: build(), run_pipeline(), default_tests(),
default_times()) on pipes6.py, with: schedules written to ./sched/, exact comparison for integer outputs,
and a test where the reference itself raises (Halide's Param range assertion above a range) recorded as
'expected' when the scheduled pipeline raises too."""
import os, sys, json, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(here, "..", "redteam3_fixes_2026-11-30"))
import pipes6
sys.modules['pipes'] = pipes6
import numpy as np
import halide as hl
import run_one  # noqa: E402  (uses pipes6 through sys.modules['pipes'])

OUT_DIR = here  # where sched/ is written (run7.py points it at round 7's directory)
TARGET = hl.Target(os.environ.get("RT6_TARGET", "x86-64-linux-avx-avx2-f16c-fma-sse41"))
run_one.TARGET = TARGET
if os.environ.get("DIET_PLUGIN"):
    run_one.PLUGINS["Diet"] = os.environ["DIET_PLUGIN"]


def compare(got, want, tol):
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        return False, "shape %s vs %s" % (g.shape, w.shape)
    if np.issubdtype(w.dtype, np.integer):
        bad = g != w
        if not bad.any():
            return True, "exact"
        return False, "int: %d/%d elems differ, max abs err %g" % (int(bad.sum()), g.size,
                                                                   float(np.max(np.abs(g[bad].astype(np.float64) - w[bad].astype(np.float64)))))
    return run_one.compare(got, want, tol)


class CInt(int):
    """A Python int standing in for a Param (for 'Adams2019c': Adams2019 cannot read estimates of Params used in
    the algorithm, and Param.set_estimate is broken in Halide 14's Python bindings): the algorithm is built
    with the constant shape baked in, so that schedule is only meaningful at that one shape."""
    def set(self, v):
        pass


def realize(p, S, ins, spec, v):
    _, bufs = run_one.run_pipeline(p, S, ins, spec, v)
    p.realize(bufs, TARGET)
    return bufs


def main():
    name, sched = sys.argv[1], sys.argv[2]
    spec = pipes6.SPECS[name]
    res = dict(pipeline=name, sched=sched, target=str(TARGET), status="ok", checks=[], times={})
    try:
        algo = sched.split("@")[0].rstrip("c") if sched.startswith("Adams2019c") else sched.split("@")[0]
        if sched != "none":
            hl.load_plugin(run_one.PLUGINS[algo])
        if sched.startswith("Adams2019c"):
            consts = (run_one.default_times(spec)[0] if sched.endswith("@small") else
                      {n: hi for n, (lo, hi) in spec['ranges'].items()})
            res['constant_shape'] = consts
            keep = run_one.make_params
            run_one.make_params = lambda sp: {n: CInt(consts[n]) for n in sp['ranges']}
            S, outs, ins, p = run_one.build(spec, sched.replace("Adams2019c", "Adams2019"))
            run_one.make_params = keep
        else:
            S, outs, ins, p = run_one.build(spec, sched)
        t0 = time.time()
        if sched != "none":
            r = p.auto_schedule(algo, TARGET, hl.MachineParams(2, 1 << 20, 40))
            with open(os.path.join(OUT_DIR, "sched_avx512" if "avx512" in str(TARGET) else "sched", "%s.%s.txt" % (name, sched)), "w") as f:
                f.write(r.schedule_source)
        res['schedule_s'] = round(time.time() - t0, 2)
        t0 = time.time()
        p.compile_jit(TARGET)
        res['compile_s'] = round(time.time() - t0, 2)
    except Exception as e:
        res['status'] = "error: " + (str(e) or repr(e)).strip()[-800:]
        print("RESULT " + json.dumps(res)); sys.stdout.flush()
        return
    rS, routs, rins, rp = run_one.build(spec, "ref")
    rp.compile_jit(TARGET)
    bad = []
    for v in ([] if os.environ.get("RT6_TIME_ONLY") else run_one.default_tests(spec)):
        try:
            want = realize(rp, rS, rins, spec, v)
        except Exception as e:
            ref_exc = str(e).strip()[-200:]
            try:
                realize(p, S, ins, spec, v)
                res['checks'].append(dict(v=v, ok=False, msg="ref raised (%s) but scheduled ran" % ref_exc))
                bad.append(v)
            except Exception as e2:
                res['checks'].append(dict(v=v, ok=True, expected=True, msg="both raise: ref %s | sched %s" % (ref_exc, str(e2).strip()[-200:])))
            continue
        try:
            got = realize(p, S, ins, spec, v)
            oks = [compare(g, w, spec['tol']) for g, w in zip(got, want)]
            ok = all(o for o, _ in oks)
            res['checks'].append(dict(v=v, ok=ok, msg="; ".join(m for _, m in oks)))
            if not ok:
                bad.append(v)
        except Exception as e:
            res['checks'].append(dict(v=v, ok=False, msg="exception: " + str(e).strip()[-400:]))
            bad.append(v)
    if bad:
        res['status'] = "wrong/err at %s" % bad
    for v in run_one.default_times(spec):
        if res.get('constant_shape') and v != res['constant_shape']:
            continue
        key = ",".join("%s=%d" % kv for kv in v.items())
        try:
            got = realize(p, S, ins, spec, v)
            p.realize(got, TARGET)
            ts = []
            t_end = time.perf_counter() + 20
            for _ in range(10):
                t0 = time.perf_counter(); p.realize(got, TARGET); ts.append(time.perf_counter() - t0)
                if time.perf_counter() > t_end and len(ts) >= 3:
                    break
            res['times'][key] = float(np.median(ts)) * 1e3
        except Exception as e:
            res['times'][key] = "exception: " + str(e)[-200:]
    print("RESULT " + json.dumps(res)); sys.stdout.flush()


if __name__ == "__main__":
    main()
