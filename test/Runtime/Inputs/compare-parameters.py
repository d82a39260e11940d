"""Compares two .npz of parameters (tc-run export) of the same model trained
on two devices: |a - b| / (1e-3 + |b|) <= TOLERANCE for every parameter but
the key projections' biases, whose gradient is zero but for rounding
(softmax does not see a bias added to every key), so that Adam follows each
device's rounding there.

    compare-parameters.py A.npz B.npz TOLERANCE [FRACTION MAX_ABSOLUTE]

With FRACTION (bf16 runs): that fraction of each parameter's elements
within TOLERANCE, and every element within MAX_ABSOLUTE of the other run's.
Where a bf16 rounding flips the sign of a near-zero gradient element (a ReLU
unit at the edge, a key bias), Adam's normalised update moves it by up to a
learning rate a step the other way, so a few elements differ by far more
than the rest, but never by more than twice the summed learning rates.
"""
import sys

import numpy as np

a, b = (np.load(path) for path in sys.argv[1:3])
tolerance = float(sys.argv[3])
fraction = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
max_absolute = float(sys.argv[5]) if len(sys.argv) > 5 else float("inf")
assert sorted(a.files) == sorted(b.files), (a.files, b.files)
compared = [name for name in b.files if not name.endswith("k.bias")]

def relative(n):
    return np.abs(a[n] - b[n]) / (1e-3 + np.abs(b[n]))


worst = max((float(np.quantile(relative(n), fraction)), n) for n in compared)
assert worst[0] <= tolerance, f"{worst[1]} differs by {worst[0]:.3g} (> {tolerance})"
largest = max((float(np.max(np.abs(a[n] - b[n]))), n) for n in compared)
assert largest[0] <= max_absolute, f"{largest[1]} differs by {largest[0]:.3g} (> {max_absolute} absolute)"
if fraction < 1:
    print(f"{len(compared)} of {len(b.files)} parameters agree: {fraction:.0%} of elements within {tolerance}, all within {max_absolute} (largest difference {largest[0]:.3g})")
else:
    print(f"{len(compared)} of {len(b.files)} parameters agree within {tolerance}")
