#!/usr/bin/env python3
"""Summarizes diet_gpu_runner's CSV (apps/gpu/diet_gpu_runner.cpp) into Markdown and a plot.

    gpu_report.py <diet_vs_cublas.csv> <summary.md> [plot.png]
    gpu_report.py --forms <forms.csv> <forms_summary.md>     (apps/gpu/gpu_forms_runner.cpp's CSV)

Speed ratio = cuBLAS time / Diet time at the same T and L2 mode (> 1: Diet is faster). Per workload
and mode: geometric mean over T, the minimum and the T where it occurs, the maximum, and the
geomean over T <= 16 (the small shapes, where launch overhead dominates). The Markdown needs only
the standard library; the plot needs matplotlib and is skipped with a message without it.
"""
import csv
import math
import sys
from collections import defaultdict

# Issue 6's targets: dense >= 1.0x cuBLAS, batch_matmul >= 0.9x cuBLAS strided-batched.
TARGETS = {"dense": 1.0, "bmm_nt": 0.9, "bmm_nn": 0.9}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def load(path):
    # (workload, mode) -> T -> {impl: median_us}, plus the worst Diet error per workload.
    times = defaultdict(lambda: defaultdict(dict))
    errors = defaultdict(float)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["workload"], row["mode"])
            times[key][int(row["T"])][row["impl"]] = float(row["median_us"])
            if row["impl"] == "diet" and row["rel_err"]:
                errors[row["workload"]] = max(errors[row["workload"]], float(row["rel_err"]))
    return times, errors


def summarize(times):
    rows = []
    for (workload, mode), per_t in sorted(times.items()):
        ratios = {t: v["cublas"] / v["diet"] for t, v in sorted(per_t.items()) if "diet" in v and "cublas" in v}
        if not ratios:
            continue
        tmin = min(ratios, key=ratios.get)
        tmax = max(ratios, key=ratios.get)
        small = [r for t, r in ratios.items() if t <= 16]
        rows.append({
            "workload": workload, "mode": mode, "n": len(ratios), "ratios": ratios,
            "geomean": geomean(list(ratios.values())), "min": ratios[tmin], "t_min": tmin,
            "max": ratios[tmax], "t_max": tmax, "geomean_small": geomean(small),
            # a runner stopped by its time limit may lack one side at its last T: NaN, not a crash
            "diet_us_128": per_t[max(per_t)].get("diet", float("nan")),
            "cublas_us_128": per_t[max(per_t)].get("cublas", float("nan")),
        })
    return rows


def write_markdown(rows, errors, path, csv_path):
    with open(path, "w") as f:
        f.write("# Diet CUDA kernels vs cuBLAS (float32, TF32 off)\n\n")
        f.write(f"Source: `{csv_path}`. Ratio = cuBLAS time / Diet time at the same T (> 1: Diet faster); "
                "medians of interleaved samples (CUDA events).\n\n")
        f.write("| workload | L2 | T values | geomean ratio | min ratio (T) | max ratio (T) | geomean T<=16 "
                "| at largest T: Diet / cuBLAS us | target | met |\n|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            target = TARGETS.get(r["workload"], float("nan"))
            met = "yes" if r["geomean"] >= target else "no"
            f.write(f"| {r['workload']} | {r['mode']} | {r['n']} | {r['geomean']:.3f} | {r['min']:.3f} ({r['t_min']}) "
                    f"| {r['max']:.3f} ({r['t_max']}) | {r['geomean_small']:.3f} "
                    f"| {r['diet_us_128']:.1f} / {r['cublas_us_128']:.1f} | >= {target:g} | {met} |\n")
        f.write("\nWorst relative error of Diet vs cuBLAS (max |diff| / max |cuBLAS|): ")
        f.write(", ".join(f"{w} {e:.2e}" for w, e in sorted(errors.items())) + "\n")


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"gpu_report: no plot ({e}); the Markdown summary is complete")
        return
    workloads = sorted({r["workload"] for r in rows})
    fig, axes = plt.subplots(1, len(workloads), figsize=(5 * len(workloads), 4), squeeze=False)
    for ax, w in zip(axes[0], workloads):
        for r in rows:
            if r["workload"] != w:
                continue
            ts = sorted(r["ratios"])
            ax.plot(ts, [r["ratios"][t] for t in ts], label=f"{r['mode']} L2 (geomean {r['geomean']:.2f})")
        ax.axhline(1.0, color="gray", lw=0.8)
        if w in TARGETS:
            ax.axhline(TARGETS[w], color="red", lw=0.8, ls="--", label=f"target {TARGETS[w]:g}")
        ax.set_title(w)
        ax.set_xlabel("T")
        ax.set_ylabel("cuBLAS time / Diet time")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"gpu_report: wrote {path}")


def forms_report(csv_path, md_path):
    """Per contraction form: correct at every T, its speed against its family's canonical form
    (canonical time / form time at the same T) and against cuBLAS where the problem is one."""
    rows = defaultdict(dict)
    family_of = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            rows[row["form"]][int(row["T"])] = row
            family_of[row["form"]] = row["family"]
    canonical = {fam: f"{fam}/canonical" for fam in set(family_of.values())}
    canonical["layout"] = "dense/canonical"
    canonical["int"] = "int/f32"
    lines = [f"# Contraction forms on the GPU (Diet, default options, no tuning)", "",
             f"Source: `{csv_path}`. Every output checked against the same algorithm on the CPU "
             "(float: relative error <= 1e-4 of the largest magnitude; integers exact). Ratios: other time / "
             "this form's time at the same T (> 1: this form is faster), geomean and minimum over the T run.", "",
             "| form | T run | correct | worst error | vs its canonical: geomean | min (T) | vs cuBLAS: geomean | min (T) |",
             "|---|---|---|---|---|---|---|---|"]
    for form in sorted(rows):
        per_t = rows[form]
        ok = all(r["correct"] == "1" for r in per_t.values())
        # A failed call (the runner's FAILED row) has no time and no error.
        failed = any(not r["diet_us"] for r in per_t.values())
        timed = {t: r for t, r in per_t.items() if r["diet_us"]}
        err = max((float(r["rel_error"]) for r in timed.values()), default=float("nan"))
        base = {t: r for t, r in rows.get(canonical.get(family_of[form], ""), {}).items() if r["diet_us"]}
        vs_c = {t: float(base[t]["diet_us"]) / float(r["diet_us"]) for t, r in timed.items() if t in base}
        vs_b = {t: float(r["cublas_us"]) / float(r["diet_us"]) for t, r in timed.items() if r["cublas_us"]}

        def fmt(d):
            if not d:
                return "", ""
            t_min = min(d, key=d.get)
            return f"{geomean(list(d.values())):.3f}", f"{d[t_min]:.3f} ({t_min})"
        c_g, c_m = fmt(vs_c)
        b_g, b_m = fmt(vs_b)
        lines.append(f"| {form} | {len(per_t)} | {'yes' if ok else '**FAILED**' if failed else '**NO**'} | {err:.1e} | {c_g} | {c_m} | {b_g} | {b_m} |")
    with open(md_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--forms":
        forms_report(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    times, errors = load(sys.argv[1])
    rows = summarize(times)
    if not rows:
        sys.exit(f"gpu_report: no (diet, cublas) pairs in {sys.argv[1]}")
    write_markdown(rows, errors, sys.argv[2], sys.argv[1])
    print(open(sys.argv[2]).read())
    if len(sys.argv) == 4:
        plot(rows, sys.argv[3])


if __name__ == "__main__":
    main()
