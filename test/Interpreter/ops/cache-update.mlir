// tc.cache_update and tc.prefix_mask in the interpreter, against numpy:
// each row's prefix (positions before its own) comes from its origin row as
// that row was before the update, the new value lands at its position, and
// later positions keep their old values. Row 2 continues row 0, which is
// itself rewritten (from row 1) in the same update.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/cache.npy', np.arange(24, dtype=np.float32).reshape(3, 4, 2)); np.save('%t/value.npy', (100 + np.arange(6, dtype=np.float32)).reshape(3, 1, 2)); np.save('%t/origin.npy', np.array([1, 1, 0], dtype=np.int32)); np.save('%t/position.npy', np.array([2, 0, 3], dtype=np.int32))"
// RUN: tc-interpret %s --input=%t/cache.npy --input=%t/value.npy --input=%t/origin.npy --input=%t/position.npy --output-dir=%t/out
// RUN: %python %S/Inputs/cache_update_check.py %t
func.func @update(%cache: tensor<3x4x2xf32>, %value: tensor<3x1x2xf32>, %origin: tensor<3xi32>, %position: tensor<3xi32>) -> (tensor<3x4x2xf32>, tensor<3x4xi1>) {
  %0 = tc.cache_update %cache, %value, %origin, %position : tensor<3x4x2xf32>, tensor<3x1x2xf32>, tensor<3xi32>, tensor<3xi32>
  %1 = tc.prefix_mask %position : tensor<3xi32> -> tensor<3x4xi1>
  return %0, %1 : tensor<3x4x2xf32>, tensor<3x4xi1>
}
