// tc.layer_norm against torch.nn.functional.layer_norm on random f32
// [4,6,16] with random gamma and beta, epsilon 1e-5 and 1e-6. Some rows have a
// tiny spread (variance down to ~1e-7), so the two epsilons give clearly
// different results and a wrong epsilon (or an unbiased variance) fails.
// RUN: %python %S/torch_check.py --case layer_norm --mlir %s --work %t

func.func @layer_norm_eps1e5(%x: tensor<4x6x16xf32>, %g: tensor<16xf32>,
                             %b: tensor<16xf32>) -> tensor<4x6x16xf32> {
  %y = tc.layer_norm %x, %g, %b epsilon = 1.0e-05
      : tensor<4x6x16xf32>, tensor<16xf32>, tensor<16xf32>
  return %y : tensor<4x6x16xf32>
}

func.func @layer_norm_eps1e6(%x: tensor<4x6x16xf32>, %g: tensor<16xf32>,
                             %b: tensor<16xf32>) -> tensor<4x6x16xf32> {
  %y = tc.layer_norm %x, %g, %b epsilon = 1.0e-06
      : tensor<4x6x16xf32>, tensor<16xf32>, tensor<16xf32>
  return %y : tensor<4x6x16xf32>
}
