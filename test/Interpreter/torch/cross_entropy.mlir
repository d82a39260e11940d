// tc.cross_entropy against torch.nn.functional.cross_entropy(reduction='sum',
// label_smoothing=eps, ignore_index=0) on random f32 logits [3,7,11] and i32
// targets in [0,11) with some 0s (padding): the summed loss, and the token
// count against the number of targets != 0 (exactly).
// RUN: %python %S/torch_check.py --case cross_entropy --mlir %s --work %t

func.func @cross_entropy_ls0(%logits: tensor<3x7x11xf32>, %targets: tensor<3x7xi32>)
    -> (tensor<f32>, tensor<i32>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.0
      ignore_index = 0 : tensor<3x7x11xf32>, tensor<3x7xi32> -> tensor<f32>, tensor<i32>
  return %loss, %tokens : tensor<f32>, tensor<i32>
}

func.func @cross_entropy_ls01(%logits: tensor<3x7x11xf32>, %targets: tensor<3x7xi32>)
    -> (tensor<f32>, tensor<i32>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 1.0e-01
      ignore_index = 0 : tensor<3x7x11xf32>, tensor<3x7xi32> -> tensor<f32>, tensor<i32>
  return %loss, %tokens : tensor<f32>, tensor<i32>
}
