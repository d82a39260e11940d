"""Reads `tc-inspect --steps` and says, for each function, how many of its
GEMMs take bf16 operands with f32 compute (an f32 result, or a bf16 one:
the f32 sums rounded): `NAME: all N GEMMs bf16 x bf16 with f32 compute`, or
`NAME: K of N GEMMs ...` when not all do.

    tc-inspect MODEL.tcx --steps | gemm-precision-per-function.py
"""
import re
import sys

counts = {}
function = None
for line in sys.stdin:
    header = re.match(r"  (\w+): arena ", line)
    if header:
        function = header.group(1)
        counts[function] = [0, 0]
    elif function and re.match(r"\s+\d+ gemm ", line):
        counts[function][0] += 1
        counts[function][1] += bool(
            re.search(r"bf16 x bf16 -> (f32|bf16) with f32 compute", line))
assert counts, "no functions in the input"
for name, (gemms, bf16) in counts.items():
    share = f"all {gemms}" if bf16 == gemms else f"{bf16} of {gemms}"
    print(f"{name}: {share} GEMMs bf16 x bf16 with f32 compute")
