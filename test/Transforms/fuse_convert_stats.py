"""Prints, per training step (or per function whose name starts with one of
the comma-separated prefixes of the third argument), its generated kernels
and tc.convert ops with a pass (the first --stats file) and how many fewer
than without it (the second), for test/Transforms/fuse-convert-stats.test
and use-param-copies-stats.test."""
import json
import sys

with_pass, without = (json.load(open(path))["functions"] for path in sys.argv[1:3])
prefixes = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else ("train_step_",)
for name, stats in sorted(with_pass.items()):
    if not name.startswith(prefixes):
        continue
    other = without[name]
    kernels = stats["kernels"]["generated"]
    converts = stats["ops"].get("tc.convert", 0)
    print(f"{name}: generated {kernels} "
          f"({other['kernels']['generated'] - kernels} fewer), "
          f"tc.convert {converts} "
          f"({other['ops'].get('tc.convert', 0) - converts} fewer)")
