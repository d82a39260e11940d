"""The expected results of cache-update.mlir, computed with numpy."""
import sys

import numpy as np

out = sys.argv[1]
cache = np.load(f"{out}/cache.npy")
value = np.load(f"{out}/value.npy")
history = np.load(f"{out}/history.npy")
origin = np.load(f"{out}/origin.npy")
position = np.load(f"{out}/position.npy")
want = cache.copy()
want_history = history.copy()
for r in range(3):
    want[r, position[r]] = value[r, 0]
    want_history[r, :position[r]] = history[origin[r], :position[r]]
    want_history[r, position[r]] = r
got = np.load(f"{out}/out/result0.npy")
assert (got == want).all(), (got, want)
got_history = np.load(f"{out}/out/result1.npy")
assert (got_history == want_history).all(), (got_history, want_history)
mask = np.load(f"{out}/out/result2.npy")
assert (mask == (np.arange(4)[None, :] <= position[:, None])).all(), mask
