"""Diet's schedule source for every red-team pipeline of rounds 1, 3-8 on one target, no compile.
usage: schedall_any.py PLUGIN OUTDIR A|B   (A: the AVX-512 target, B: AVX2)
SCHEDALL_MORE=1 adds rounds 9-15 (r9_ to r15_) and the scan pipelines of ../scan_lanes_2026-12-01 (scan_);
SCHEDALL_ROUNDS=r16,r17 schedules only those rounds (16 to 21 are listed only so);
SCHEDALL_ONLY=name,name schedules only those pipelines.
Writes OUTDIR/<round>_<pipeline>.txt; diff two OUTDIRs to find the pipelines a change reschedules."""
import importlib.util
import os
import sys

import halide as hl

plugin, outdir, which = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(outdir, exist_ok=True)
hl.load_plugin(plugin)
R = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
print_names = bool(os.environ.get("SCHEDALL_NAMES"))
TARGET = hl.Target({"A": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
                    "B": "x86-64-linux-avx-avx2-f16c-fma-sse41"}[which])
ROUNDS = [("r1", "redteam_2026-11-30", "pipes"), ("r3", "redteam3_fixes_2026-11-30", "pipes"),
          ("r4", "redteam4_contractions_2026-11-30", "pipes"), ("r5", "redteam5_2026-11-30", "pipes"),
          ("r6", "redteam6_2026-11-30", "pipes6"), ("r7", "redteam7_2026-11-30", "pipes7"),
          ("r8", "redteam8_2026-12-01", "pipes8")]
if os.environ.get("SCHEDALL_MORE"):
    ROUNDS += [("r9", "redteam9_2026-12-01", "pipes9"), ("scan", "scan_lanes_2026-12-01", "pipes"),
               ("r10", "redteam10_2026-12-01", "pipes10"), ("r11", "redteam11_2026-12-02", "pipes11"),
               ("r12", "redteam12_2026-12-02", "pipes12"), ("r13", "redteam13_2026-12-03", "pipes13"), ("r14", "redteam14_2026-12-03", "pipes14"),
               ("r15", "redteam15_2026-12-05", "pipes15")]
if os.environ.get("SCHEDALL_ROUNDS"):
    ROUNDS += [("r16", "redteam16_2026-12-06", "pipes16"), ("r17", "redteam17_2026-12-06", "pipes17"),
               ("r18", "redteam18_2026-12-06", "pipes18"), ("r19", "redteam19_2026-12-07", "pipes19"),
               ("r20", "redteam20_2026-12-07", "pipes20"),
               ("r21", "redteam21_2026-12-07", "pipes21")]
    ROUNDS = [r for r in ROUNDS if r[0] in os.environ["SCHEDALL_ROUNDS"].split(",")]
ONLY = os.environ.get("SCHEDALL_ONLY")  # comma-separated pipeline names: schedule only these
for tag, d, mod in ROUNDS:
    sys.path.insert(0, os.path.join(R, d))
    spec_ = importlib.util.spec_from_file_location("pipes_" + tag, os.path.join(R, d, mod + ".py"))
    m = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(m)
    for name, spec in m.SPECS.items():
        if ONLY and name not in ONLY.split(","):
            continue
        if print_names: print("PIPELINE", tag, name, file=sys.stderr, flush=True)
        try:
            S = {}
            for n, (lo, hi) in spec['ranges'].items():
                p = hl.Param(hl.Int(32), n, hi)
                p.set_range(lo, hi)
                S[n] = p
            outs, ins = spec['build'](S, dict(S))
            txt = hl.Pipeline(outs).auto_schedule("Diet", TARGET, hl.MachineParams(2, 1 << 20, 40)).schedule_source
        except Exception as e:
            txt = "ERROR " + str(e)[-300:]
        with open(os.path.join(outdir, tag + "_" + name + ".txt"), "w") as f:
            f.write(txt)
