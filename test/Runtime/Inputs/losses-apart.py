"""How far the per-step losses of a run with GEMMs in a reduced precision
(tc-run --metrics) lie from an f32 run's: the largest relative difference
must lie in [LOW, HIGH]. LOW > 0 says the GEMMs did run in the other
precision (an f32 GEMM would give the f32 losses); HIGH is what that
precision's operand rounding predicts.

    losses-apart.py REDUCED.jsonl F32.jsonl LOW HIGH
"""
import json
import sys

runs = [[json.loads(line) for line in open(path)] for path in sys.argv[1:3]]
low, high = float(sys.argv[3]), float(sys.argv[4])
assert len(runs[0]) == len(runs[1]), (len(runs[0]), len(runs[1]))
apart = [abs(a["loss"] - b["loss"]) / abs(b["loss"]) for a, b in zip(*runs)]
worst = max(apart)
assert low <= worst <= high, f"losses {worst:.3g} apart, not in [{low}, {high}]"
print(f"{len(apart)} steps, losses apart by at most {worst:.2g}, "
      f"in [{low}, {high}]")
