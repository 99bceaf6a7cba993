"""usage: run9.py <pipeline> <Diet|Adams2019c|Adams2019c@small|Mullapudi2016|none|ref> -> one line 'RESULT {...}'.
Round 6's runner (../redteam6_2026-11-30/run6.py) on this round's pipes9.py, wrapped like round 8's run8.py: run6 imports
`pipes6`, which is pipes9 here; schedules go to ./sched/ (AVX2) or ./sched_avx512/. The target is the spec's `target`
('A' AVX-512, 'B' AVX2) unless RT9_TARGET is set; RT9_TIME_ONLY -> RT6_TIME_ONLY. New here: sched 'ref' = the
unscheduled compute_root reference itself (run as run6's 'none' with build(spec, 'none') mapped to the 'ref' build),
so that it can take part in the alternating timing rounds; its RESULT line says sched 'ref'."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(here, "..", "redteam6_2026-11-30"))
import pipes9
if os.environ.get("RT9_TIME_ONLY"):
    os.environ["RT6_TIME_ONLY"] = os.environ["RT9_TIME_ONLY"]
_name = next((a for a in sys.argv[1:] if a in pipes9.SPECS), None)
if os.environ.get("RT9_TARGET"):
    os.environ["RT6_TARGET"] = os.environ["RT9_TARGET"]
elif _name:
    os.environ["RT6_TARGET"] = pipes9.TARGETS[pipes9.SPECS[_name].get('target', 'B')]
sys.modules['pipes6'] = pipes9
import run6  # noqa: E402
run6.OUT_DIR = here
run_one, TARGET, realize, compare = run6.run_one, run6.TARGET, run6.realize, run6.compare

def main():
    """run6's main, with sched 'ref' = the unscheduled reference (round 10's run10.py calls this too)."""
    if len(sys.argv) > 2 and sys.argv[2] == "ref":
        sys.argv[2] = "none"
        _build = run_one.build
        run_one.build = lambda spec, sched: _build(spec, "ref" if sched == "none" else sched)
        import builtins, json
        _print = builtins.print
        builtins.print = lambda *a, **k: _print(*[x.replace('"sched": "none"', '"sched": "ref"') if isinstance(x, str) else x for x in a], **k)
    run6.main()


if __name__ == "__main__":
    main()
