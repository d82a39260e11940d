// tc.cache_update, tc.beam_history and tc.prefix_mask in the interpreter,
// against numpy: the cache update writes each row's new value at its
// position and keeps every other position; the parent table gives each row
// its origin's prefix (as that row was before the update) and itself at its
// position, later positions kept. Row 2 continues row 0, which itself
// continues row 1 in the same update.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/cache.npy', np.arange(24, dtype=np.float32).reshape(3, 4, 2)); np.save('%t/value.npy', (100 + np.arange(6, dtype=np.float32)).reshape(3, 1, 2)); np.save('%t/history.npy', (10 + np.arange(12, dtype=np.int32)).reshape(3, 4)); np.save('%t/origin.npy', np.array([1, 1, 0], dtype=np.int32)); np.save('%t/position.npy', np.array([2, 0, 3], dtype=np.int32))"
// RUN: tc-interpret %s --input=%t/cache.npy --input=%t/value.npy --input=%t/history.npy --input=%t/origin.npy --input=%t/position.npy --output-dir=%t/out
// RUN: %python %S/Inputs/cache_update_check.py %t
func.func @update(%cache: tensor<3x4x2xf32>, %value: tensor<3x1x2xf32>, %history: tensor<3x4xi32>, %origin: tensor<3xi32>, %position: tensor<3xi32>) -> (tensor<3x4x2xf32>, tensor<3x4xi32>, tensor<3x4xi1>) {
  %0 = tc.cache_update %cache, %value, %position : tensor<3x4x2xf32>, tensor<3x1x2xf32>, tensor<3xi32>
  %1 = tc.beam_history %history, %origin, %position : tensor<3x4xi32>, tensor<3xi32>, tensor<3xi32>
  %2 = tc.prefix_mask %position : tensor<3xi32> -> tensor<3x4xi1>
  return %0, %1, %2 : tensor<3x4x2xf32>, tensor<3x4xi32>, tensor<3x4xi1>
}
