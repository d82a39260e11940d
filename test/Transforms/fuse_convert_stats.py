"""Prints, per training step, its generated kernels and tc.convert ops with
tc-fuse-convert (the first --stats file) and how many fewer than without
(the second), for test/Transforms/fuse-convert-stats.test."""
import json
import sys

with_pass, without = (json.load(open(path))["functions"] for path in sys.argv[1:3])
for name, stats in sorted(with_pass.items()):
    if not name.startswith("train_step_"):
        continue
    other = without[name]
    kernels = stats["kernels"]["generated"]
    converts = stats["ops"].get("tc.convert", 0)
    print(f"{name}: generated {kernels} "
          f"({other['kernels']['generated'] - kernels} fewer), "
          f"tc.convert {converts} "
          f"({other['ops'].get('tc.convert', 0) - converts} fewer)")
