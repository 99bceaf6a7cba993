"""writes pipelines_table.md from pipes21.SPECS"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pipes21
out = ["# Round 21 pipelines (pipes21.py)", "", "| # | pipeline | tgt | Params (lo..hi) | style |", "|---|---|---|---|---|"]
for k, (n, s) in enumerate(pipes21.SPECS.items(), 1):
    out.append("| %d | `%s` | %s | %s | %s |" % (k, n, s['target'], ", ".join("%s %d..%d" % (p, a, b) for p, (a, b) in s['ranges'].items()), s['style']))
open("pipelines_table.md", "w").write("\n".join(out) + "\n")
