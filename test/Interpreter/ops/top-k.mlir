// tc.top_k in the interpreter against numpy's stable sort: each row's k
// largest, largest first, equal values in index order (row 0 has a tie
// across the cut at k, row 1 is all equal, row 2 holds -inf).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[1, 3, 2, 3, 0, 3], [5, 5, 5, 5, 5, 5], [-np.inf, 1, -2, 7, -np.inf, 0.5]], dtype=np.float32))"
// RUN: tc-interpret %s --input=%t/x.npy --output-dir=%t/out
// RUN: %python %S/Inputs/top_k_check.py %t 4
func.func @top(%x: tensor<3x6xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %v, %i = tc.top_k %x k = 4 : tensor<3x6xf32> -> tensor<3x4xf32>, tensor<3x4xi32>
  return %v, %i : tensor<3x4xf32>, tensor<3x4xi32>
}
