"""Compares the per-step losses of two tc-run --metrics files (1e-3 relative)."""
import json
import sys

runs = [[json.loads(line) for line in open(path)] for path in sys.argv[1:3]]
assert len(runs[0]) == len(runs[1]), (len(runs[0]), len(runs[1]))
for a, b in zip(*runs):
    assert abs(a["loss"] - b["loss"]) <= 1e-3 * abs(b["loss"]), (a, b)
print(f"{len(runs[0])} steps, losses agree")
