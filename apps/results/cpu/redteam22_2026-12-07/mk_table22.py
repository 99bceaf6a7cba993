#!/usr/bin/python3
"""Builds tables.md from logs/builds.jsonl, grid.jsonl and times.jsonl (the last record per gen/label wins)."""
import json, os
R = os.path.dirname(os.path.abspath(__file__))
gens = [l.split() for l in open(f"{R}/gens_table.txt") if l.strip()]
builds = {}
for l in open(f"{R}/logs/builds.jsonl"):
    d = json.loads(l); builds[(d["gen"], d["sys"])] = d
grid = {}
for l in open(f"{R}/grid.jsonl"):
    d = json.loads(l); grid.setdefault(d["gen"], []).append(d)
import sys
TF = sys.argv[1] if len(sys.argv) > 1 else "times.jsonl"
OUTF = sys.argv[2] if len(sys.argv) > 2 else "tables.md"
TF2 = sys.argv[3] if len(sys.argv) > 3 else None  # a second pass: its Diet / best-other ratio is shown after the first's
times2 = {}
if TF2:
    for l in open(f"{R}/{TF2}"):
        d = json.loads(l); times2[(d["gen"], d["label"])] = d
times = {}
if os.path.exists(f"{R}/{TF}"):
    for l in open(f"{R}/{TF}"):
        d = json.loads(l); times[(d["gen"], d["label"])] = d

out = []
out.append("| # | generator (tgt) | build s: Diet / Mull / Adams / ref / Adams@small | grid in range: shapes; Diet wrong / err; Mull ok/wrong/err; Adams ok/wrong/err | out of range (Diet) | shape | Diet ms | Mull ms | Adams ms | ref ms | Diet / best other (pass 1" + (" / pass 2" if TF2 else "") + ") |")
out.append("|---|---|---|---|---|---|---|---|---|---|---|")
summary = []
for idx, (g, t) in enumerate(gens, 1):
    b = []
    for s in ("diet", "mull", "adams", "ref", "adamss"):
        d = builds.get((g, s))
        b.append("-" if d is None else (f"{d['secs']:.1f}" if d["lib"] else f"FAIL(rc {d['rc']})"))
    recs = grid.get(g, [])
    inr = [r for r in recs if r["in_range"]]
    def cnt(lib):
        ok = wr = er = 0
        for r in inr:
            st = {x["lib"]: x["status"] for x in r["libs"]}.get(lib)
            if st == "ok": ok += 1
            elif st == "WRONG": wr += 1
            else: er += 1
        return ok, wr, er
    dok, dwr, der = cnt("diet")
    mo = cnt("mull"); ao = cnt("adams")
    gtxt = f"{len(inr)}; {dwr} / {der}; {mo[0]}/{mo[1]}/{mo[2]}; {ao[0]}/{ao[1]}/{ao[2]}"
    oor = [r for r in recs if not r["in_range"]]
    otxt = "-"
    if oor:
        st = {x["lib"]: x["status"] for x in oor[-1]["libs"]}
        otxt = f"{st.get('diet')} (ref {st.get('ref')})"
    for label in ("small", "large"):
        tr = times.get((g, label))
        if not tr:
            out.append(f"| {idx} | `{g}` ({t}) | {' / '.join(b)} | {gtxt} | {otxt} | {label} | - | - | - | - | - |")
            continue
        tm = tr["times_ms"]
        sh = ",".join(f"{k}={v}" for k, v in tr["shape"].items())
        vals = {s: tm.get(s) for s in ("diet", "mull", "adams", "ref")}
        if label == "small":
            vals["adams"] = tm.get("adamss")  # Adams2019 built at the small constant shape
        others = {s: v for s, v in vals.items() if s != "diet" and v}
        best = min(others, key=others.get) if others else None
        ratio = vals["diet"] / others[best] if best and vals["diet"] else None
        f = lambda v: "err" if v is None else f"{v:.4g}"
        def ratio_of(tr_):
            tm_ = tr_["times_ms"]
            v = {s_: tm_.get(s_) for s_ in ("diet", "mull", "adams", "ref")}
            if label == "small": v["adams"] = tm_.get("adamss")
            o_ = {s_: x for s_, x in v.items() if s_ != "diet" and x}
            if not o_ or not v["diet"]: return None, None
            b_ = min(o_, key=o_.get)
            return v["diet"] / o_[b_], b_
        fmt = lambda r_: "-" if r_ is None else (f"**{r_:.2f}**" if r_ >= 1.25 else f"{r_:.2f}")
        rt = fmt(ratio)
        if TF2 and (g, label) in times2:
            r2, b2 = ratio_of(times2[(g, label)])
            rt += " / " + fmt(r2)
        rt += f" ({best})"
        out.append(f"| {idx} | `{g}` ({t}) | {' / '.join(b)} | {gtxt} | {otxt} | {label} {sh} | {f(vals['diet'])} | {f(vals['mull'])} | {f(vals['adams'])} | {f(vals['ref'])} | {rt} |")
        summary.append((g, label, ratio, best))
open(f"{R}/{OUTF}", "w").write("\n".join(out) + "\n")
print("\n".join(out))
