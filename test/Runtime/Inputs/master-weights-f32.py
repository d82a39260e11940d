"""Checks that a bf16 run's exported parameters (tc-run export) are f32
master weights: every array float32, with the names and shapes of an f32
run's export, and most elements not representable in bf16 (their low 16
bits not zero), so they were not rounded to bf16 on the way.

    master-weights-f32.py BF16-RUN.npz F32-RUN.npz
"""
import sys

import numpy as np

bf16_run, f32_run = (np.load(path) for path in sys.argv[1:3])
assert sorted(bf16_run.files) == sorted(f32_run.files)
elements = not_bf16 = 0
for name in bf16_run.files:
    array = bf16_run[name]
    assert array.dtype == np.float32, (name, array.dtype)
    assert array.shape == f32_run[name].shape, (name, array.shape)
    not_bf16 += int(np.count_nonzero(array.view(np.uint32) & 0xFFFF))
    elements += array.size
share = 100.0 * not_bf16 / elements
assert share > 90.0, f"only {share:.1f}% of the elements are not bf16 values"
print(f"{len(bf16_run.files)} arrays, all float32 with the f32 run's shapes; "
      f"{share:.1f}% of the elements not bf16 values")
