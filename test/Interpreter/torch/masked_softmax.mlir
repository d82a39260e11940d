// Attention-style masking: scores [2,4,5,5], a causal mask (tc.causal_mask)
// and a key-padding mask (tc.padding_mask of ids [2,5], pad 0, reshaped to
// [2,1,1,5]) applied with tc.select against a constant, then tc.softmax over
// the keys; against torch masked_fill + softmax. Once with -1e9 and once with
// -inf as the masked value (no row is fully masked: padding is at the end).
// RUN: %python %S/torch_check.py --case masked_softmax --mlir %s --work %t

func.func @masked_softmax_neg1e9(%scores: tensor<2x4x5x5xf32>, %ids: tensor<2x5xi32>)
    -> tensor<2x4x5x5xf32> {
  %neg = tc.constant dense<-1.0e9> : tensor<f32>
  %causal = tc.causal_mask : tensor<5x5xi1>
  %pad = tc.padding_mask %ids pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
  %pad4 = tc.reshape %pad : tensor<2x5xi1> -> tensor<2x1x1x5xi1>
  %s1 = tc.select %causal, %scores, %neg
      : tensor<5x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %s2 = tc.select %pad4, %s1, %neg
      : tensor<2x1x1x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %p = tc.softmax %s2 axis = 3 : tensor<2x4x5x5xf32>
  return %p : tensor<2x4x5x5xf32>
}

func.func @masked_softmax_neginf(%scores: tensor<2x4x5x5xf32>, %ids: tensor<2x5xi32>)
    -> tensor<2x4x5x5xf32> {
  %neg = tc.constant dense<0xFF800000> : tensor<f32>
  %causal = tc.causal_mask : tensor<5x5xi1>
  %pad = tc.padding_mask %ids pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
  %pad4 = tc.reshape %pad : tensor<2x5xi1> -> tensor<2x1x1x5xi1>
  %s1 = tc.select %causal, %scores, %neg
      : tensor<5x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %s2 = tc.select %pad4, %s1, %neg
      : tensor<2x1x1x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %p = tc.softmax %s2 axis = 3 : tensor<2x4x5x5xf32>
  return %p : tensor<2x4x5x5xf32>
}
