// tc.softmax against torch.softmax on random f32 [2,3,5,7]: over the last
// axis (with a +1000 offset in some rows, so that an implementation that does
// not subtract the row maximum overflows), and over two middle axes.
// RUN: %python %S/torch_check.py --case softmax --mlir %s --work %t
// The checker itself must fail when the reference is off by 1e-4 relative.
// RUN: not %python %S/torch_check.py --case softmax --mlir %s --work %t.neg --perturb 1e-4

func.func @softmax_axis3(%x: tensor<2x3x5x7xf32>) -> tensor<2x3x5x7xf32> {
  %p = tc.softmax %x axis = 3 : tensor<2x3x5x7xf32>
  return %p : tensor<2x3x5x7xf32>
}

func.func @softmax_axis2(%x: tensor<2x3x5x7xf32>) -> tensor<2x3x5x7xf32> {
  %p = tc.softmax %x axis = 2 : tensor<2x3x5x7xf32>
  return %p : tensor<2x3x5x7xf32>
}

func.func @softmax_axis1(%x: tensor<2x3x5x7xf32>) -> tensor<2x3x5x7xf32> {
  %p = tc.softmax %x axis = 1 : tensor<2x3x5x7xf32>
  return %p : tensor<2x3x5x7xf32>
}
