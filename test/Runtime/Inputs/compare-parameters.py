"""Compares two .npz of parameters (tc-run export) of the same model trained
on two devices: |a - b| / (1e-3 + |b|) <= TOLERANCE for every parameter but
the key projections' biases, whose gradient is zero but for rounding
(softmax does not see a bias added to every key), so that Adam follows each
device's rounding there.

    compare-parameters.py A.npz B.npz TOLERANCE
"""
import sys

import numpy as np

a, b = (np.load(path) for path in sys.argv[1:3])
tolerance = float(sys.argv[3])
assert sorted(a.files) == sorted(b.files), (a.files, b.files)
compared = [name for name in b.files if not name.endswith("k.bias")]
worst = max((float(np.max(np.abs(a[n] - b[n]) / (1e-3 + np.abs(b[n])))), n) for n in compared)
assert worst[0] <= tolerance, f"{worst[1]} differs by {worst[0]:.3g} (> {tolerance})"
print(f"{len(compared)} of {len(b.files)} parameters agree within {tolerance}")
