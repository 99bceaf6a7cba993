#!/usr/bin/env python3
"""Tables and plots of issue 14's pipeline benchmark (scripts/pipelines_bench.sh).

    pipelines_report.py RAW_CSV BUILD_CSV OUT_DIR

RAW_CSV: pipelines_runner rows (tag,pipeline,width,height,system,status,median_ms,...).
BUILD_CSV: pipeline,system,status,build_s (may be missing).
Writes OUT_DIR/<tag>.md and <tag>_ratio.csv (the plotted ratios) per tag (estimate, dynamic, smoke), build.md, summary.md,
and <tag>.png through gnuplot when it is installed.
"""
import csv
import math
import os
import shutil
import subprocess
import sys
from collections import OrderedDict, defaultdict


def geomean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def short(status):
    return status if len(status) <= 70 else status[:67] + "..."


def load(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    raw_path, build_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    rows = load(raw_path)
    builds = {(r["pipeline"], r["system"]): r for r in load(build_path)}
    os.makedirs(out, exist_ok=True)
    tags = list(OrderedDict.fromkeys(r["tag"] for r in rows))
    summary = ["# Issue 14: image pipelines, hand schedules vs Diet and Halide's autoschedulers", ""]
    summary.append("Time relative to the hand schedule (below 1: faster than hand), median of the "
                   "per-round times, pipelines run interleaved round-robin on this CPU. "
                   "Outputs checked against the hand schedule's (integers bit-exact unless the "
                   "pipeline's tolerance says otherwise, floats with a relative tolerance).")
    summary.append("")
    for tag in tags:
        trs = [r for r in rows if r["tag"] == tag]
        systems = list(OrderedDict.fromkeys(r["system"] for r in trs))
        others = [s for s in systems if s != "hand"]
        keys = list(OrderedDict.fromkeys((r["pipeline"], int(r["width"]), int(r["height"])) for r in trs))
        cell = {(r["pipeline"], int(r["width"]), int(r["height"]), r["system"]): r for r in trs}
        md = ["# %s: time relative to hand" % tag, ""]
        md.append("| pipeline | shape | hand (ms) | " + " | ".join(others) + " |")
        md.append("|---|---|---:|" + "---:|" * len(others))
        notes = []
        rel = defaultdict(dict)  # (pipeline, w, h) -> system -> ratio
        for (p, w, h) in keys:
            hand = cell.get((p, w, h, "hand"))
            hand_ms = float(hand["median_ms"]) if hand and hand["status"] == "ok" else float("nan")
            line = "| %s | %dx%d | %s |" % (p, w, h, "%.3f" % hand_ms if math.isfinite(hand_ms) else
                                             (short(hand["status"]) if hand else "-"))
            for s in others:
                r = cell.get((p, w, h, s))
                if r is None:
                    line += " - |"
                    continue
                st = r["status"]
                if st == "not built":
                    b = builds.get((p, s))
                    st = b["status"] if b and b["status"] != "ok" else "not built"
                if st in ("ok", "mismatch"):
                    ms = float(r["median_ms"])
                    ratio = ms / hand_ms if math.isfinite(hand_ms) else float("nan")
                    if st == "ok":
                        rel[(p, w, h)][s] = ratio
                    text = "%.2fx" % ratio if math.isfinite(ratio) else "%.3f ms" % ms
                    if st == "mismatch":
                        notes.append("%s %dx%d %s: %s (max error %s)" % (p, w, h, s, r["detail"], r["max_err"]))
                        text += " **wrong output**"
                    line += " " + text + " |"
                else:
                    notes.append("%s %dx%d %s: %s" % (p, w, h, s, st))
                    line += " failed [%d] |" % len(notes)
            md.append(line)
        # Geometric means: per shape over pipelines (dynamic) and overall.
        gm_line = "| **geomean** | all | |"
        for s in others:
            vals = [rel[k][s] for k in keys if s in rel[k]]
            gm_line += " %.2fx (%d/%d) |" % (geomean(vals), len(vals), len(keys)) if vals else " - |"
        md.append(gm_line)
        md.append("")
        md.append("Geomean over the cells that ran and matched (n/N: how many). "
                  "Failures:" if notes else "Geomean over the cells that ran and matched (n/N: how many).")
        md.append("")
        for i, n in enumerate(notes, 1):
            md.append("%d. %s" % (i, n))
        # Diet against Adams2019 scheduled at the largest shape and used everywhere (the dynamic
        # target): speedup geomean where both ran correctly, and where the Adams schedule failed.
        for d in [s for s in others if s.startswith("diet")]:
            if "adams2019_max" not in others:
                break
            both = [rel[k]["adams2019_max"] / rel[k][d] for k in keys if d in rel[k] and "adams2019_max" in rel[k]]
            only_diet = sum(1 for k in keys if d in rel[k] and "adams2019_max" not in rel[k])
            md.append("")
            md.append("**%s vs adams2019_max**: %.2fx faster in geomean over the %d cases both ran correctly; "
                      "%d cases ran correctly with %s only (adams2019_max failed or was not built there)."
                      % (d, geomean(both), len(both), only_diet, d))
        shapes = sorted({(w, h) for (_, w, h) in keys}, key=lambda t: t[0] * t[1])
        if len(shapes) > 1:
            md += ["", "## Geomean per shape (image pipelines at that shape)", "",
                   "| shape | " + " | ".join(others) + " |", "|---|" + "---:|" * len(others)]
            for (w, h) in shapes:
                line = "| %dx%d |" % (w, h)
                for s in others:
                    vals = [rel[k][s] for k in keys if k[1] == w and k[2] == h and s in rel[k]]
                    line += " %.2fx (%d) |" % (geomean(vals), len(vals)) if vals else " - |"
                md.append(line)
        with open(os.path.join(out, tag + ".md"), "w") as f:
            f.write("\n".join(md) + "\n")
        # Plot data: one row per (pipeline, shape), one column per system (ratio to hand).
        data = os.path.join(out, tag + "_ratio.csv")
        with open(data, "w") as f:
            f.write("case," + ",".join(others) + "\n")
            for k in keys:
                f.write("%s_%dx%d," % k + ",".join(
                    ("%.4f" % rel[k][s]) if s in rel[k] else "nan" for s in others) + "\n")
        plot(out, tag, data, others, len(keys))
        summary.append("- [%s](%s.md): %d pipeline/shape cases, systems %s" % (tag, tag, len(keys), ", ".join(systems)))
    if builds:
        md = ["# Build of every variant (seconds, status)", "",
              "| pipeline | system | seconds | status |", "|---|---|---:|---|"]
        for (p, s), b in sorted(builds.items()):
            md.append("| %s | %s | %s | %s |" % (p, s, b["build_s"], b["status"]))
        total = sum(float(b["build_s"]) for b in builds.values() if b["build_s"])
        md += ["", "Total over the variants: %.0f s (generators, plugin and runtime not counted)." % total]
        with open(os.path.join(out, "build.md"), "w") as f:
            f.write("\n".join(md) + "\n")
        summary.append("- [build](build.md): build time and status of every variant")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("report written to %s" % out)


def plot(out, tag, data, systems, ncases):
    if not shutil.which("gnuplot"):
        print("gnuplot not found: no %s.png (install gnuplot-nox)" % tag)
        return
    gp = os.path.join(out, tag + ".gp")
    png = os.path.join(out, tag + ".png")
    width = max(900, 40 * ncases * max(1, len(systems)) // 2)
    with open(gp, "w") as f:
        f.write("set terminal pngcairo noenhanced size %d,600 font 'sans,10'\n" % min(width, 4000))
        f.write("set output '%s'\n" % png)
        f.write("set datafile separator ','\nset datafile missing 'nan'\n")
        f.write("set title 'pipelines (%s): time relative to the hand schedule (log scale; missing: failed)'\n" % tag)
        f.write("set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n")
        f.write("set logscale y\nset yrange [0.05:*]\nset grid ytics\nset key outside right top\n")
        f.write("set xtics rotate by -45 scale 0\nset ylabel 'time / hand time'\n")
        cols = ", ".join("'%s' using %d:xtic(1) title '%s'" % (data, i + 2, s) for i, s in enumerate(systems))
        f.write("plot %s, 1 with lines lc 'black' notitle\n" % cols)
    r = subprocess.run(["gnuplot", gp], capture_output=True, text=True)
    if r.returncode != 0:
        print("gnuplot failed on %s: %s" % (gp, r.stderr.strip()[:500]))


if __name__ == "__main__":
    main()
