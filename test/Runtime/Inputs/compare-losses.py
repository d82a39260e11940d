"""Compares the per-step losses of two tc-run --metrics files (relative
tolerance: the third argument, default 1e-3)."""
import json
import sys

tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-3

runs = [[json.loads(line) for line in open(path)] for path in sys.argv[1:3]]
assert len(runs[0]) == len(runs[1]), (len(runs[0]), len(runs[1]))
for a, b in zip(*runs):
    assert abs(a["loss"] - b["loss"]) <= tolerance * abs(b["loss"]), (a, b)
print(f"{len(runs[0])} steps, losses agree")
