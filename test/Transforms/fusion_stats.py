#!/usr/bin/env python3
"""Prints tc-compile --stats with --fusion=none and --fusion=all for a model
and checks the issue's bounds: at least 50% fewer generated (non-GEMM)
kernels and at least 40% fewer non-GEMM bytes in one training step."""
import json
import subprocess
import sys

path = sys.argv[1]
stats = {}
for fusion in ("none", "all"):
    out = subprocess.run(["tc-compile", path, "--stats", f"--fusion={fusion}"],
                         check=True, capture_output=True, text=True).stdout
    s = json.loads(out)
    stats[fusion] = s
    print(f"--fusion={fusion}: " + json.dumps({"kernels": s["kernels"],
                                              "non_gemm_bytes": s["non_gemm_bytes"]}))
kernels = 1 - stats["all"]["kernels"]["generated"] / stats["none"]["kernels"]["generated"]
traffic = 1 - stats["all"]["non_gemm_bytes"] / stats["none"]["non_gemm_bytes"]
print(f"generated kernels -{kernels:.1%}, non-GEMM bytes -{traffic:.1%}")
if kernels < 0.5 or traffic < 0.4:
    sys.exit("error: below the bounds (50% fewer kernels, 40% fewer bytes)")
