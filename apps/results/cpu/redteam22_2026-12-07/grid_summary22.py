#!/usr/bin/python3
"""Summarizes grid.jsonl, grid40.jsonl, grid_xtarget.jsonl, grid_variants.jsonl -> grid_summary.md"""
import json, os
R = os.path.dirname(os.path.abspath(__file__))
out = []
for f in ("grid.jsonl", "grid40.jsonl", "grid_xtarget.jsonl", "grid_variants.jsonl", "grid_breakers.jsonl"):
    if not os.path.exists(f"{R}/{f}"): continue
    recs = [json.loads(l) for l in open(f"{R}/{f}")]
    gens = []
    for r in recs:
        if r["gen"] not in gens: gens.append(r["gen"])
    out.append(f"## {f}\n")
    out.append("| generator | in-range shapes | Diet ok / WRONG (max abs err) / error | Mull ok/WRONG/err | Adams ok/WRONG/err | Adams@small ok/WRONG/err | out of range: ref / Diet |")
    out.append("|---|---|---|---|---|---|---|")
    for g in gens:
        rr = [r for r in recs if r["gen"] == g and r["in_range"]]
        def cnt(lib):
            ok = wr = er = 0; me = 0
            for r in rr:
                x = {l["lib"]: l for l in r["libs"]}.get(lib)
                if x is None: continue
                if x["status"] == "ok": ok += 1
                elif x["status"] == "WRONG": wr += 1; me = max(me, x["maxerr"])
                else: er += 1
            return ok, wr, er, me
        d = cnt("diet")
        cols = []
        for lib in ("mull", "adams", "adamss"):
            c = cnt(lib); cols.append("-" if c[:3] == (0, 0, 0) else f"{c[0]}/{c[1]}/{c[2]}")
        oo = [r for r in recs if r["gen"] == g and not r["in_range"]]
        ot = "-"
        if oo:
            x = {l["lib"]: l for l in oo[-1]["libs"]}
            ot = f"{x.get('ref', {}).get('status')} / {x.get('diet', {}).get('status')}"
            if x.get('diet', {}).get('err'): ot += f" ({x['diet']['err'][:50]})"
            ot += f" at {oo[-1]['shape']}"
        out.append(f"| {g} | {len(rr)} | {d[0]} / {d[1]} ({d[3]:g}) / {d[2]} | {cols[0]} | {cols[1]} | {cols[2]} | {ot} |")
    out.append("")
open(f"{R}/grid_summary.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
