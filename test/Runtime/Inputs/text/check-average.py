"""Checks that an averaged checkpoint's parameters (exported to .npz) are the
element-wise mean of the averaged checkpoints' (each exported too), within
one float32 rounding: the mean is computed here in float64 with NumPy.

    check-average.py AVERAGE.npz CHECKPOINT.npz...
"""
import sys

import numpy as np

average = np.load(sys.argv[1])
parts = [np.load(path) for path in sys.argv[2:]]
assert len(parts) >= 2, "average at least two checkpoints"
worst = 0.0
for name in average.files:
    mean = np.mean([p[name].astype(np.float64) for p in parts], axis=0)
    expected = mean.astype(np.float32)
    got = average[name]
    assert got.dtype == np.float32 and got.shape == expected.shape, name
    # float32(mean) is what tc stores; allow one unit in the last place.
    spacing = np.spacing(np.abs(expected))
    error = np.abs(got.astype(np.float64) - expected) / spacing
    worst = max(worst, float(error.max()))
    assert (error <= 1).all(), (name, float(error.max()))
# A mean of equal checkpoints would prove nothing.
assert any(not np.array_equal(parts[0][n], parts[-1][n]) for n in average.files)
print(f"{len(average.files)} arrays are the mean of {len(parts)} checkpoints "
      f"(worst {worst:.0f} ulp)")
