"""The expected results of top-k.mlir: a stable sort of each row by
decreasing value (equal values keep index order), cut to k."""
import sys

import numpy as np

out, k = sys.argv[1], int(sys.argv[2])
x = np.load(f"{out}/x.npy")
order = np.argsort(-x, axis=-1, kind="stable")[:, :k]
values = np.take_along_axis(x, order, axis=-1)
got_values = np.load(f"{out}/out/result0.npy")
got_indices = np.load(f"{out}/out/result1.npy")
assert got_indices.dtype == np.int32, got_indices.dtype
assert (got_indices == order).all(), (got_indices, order)
assert (got_values == values).all(), (got_values, values)
