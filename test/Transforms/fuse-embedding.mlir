// RUN: tc-opt %s --split-input-file --tc-fuse-embedding | FileCheck %s

// The frontend's embedding: lookup * sqrt(d) + sinusoids, dropout -> one op,
// which keeps the lookup's padding_id.
// CHECK-LABEL: func.func @embed(
// CHECK-NEXT:    %[[PE:.*]] = tc.positional_encoding : tensor<5x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tc.embed %arg0, %arg1, %[[PE]], %arg2 scale = 2.8284270763397217 rate = 1.000000e-01 key = 0 {padding_id = 0 : i64} : tensor<20x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
// CHECK-NEXT:    return %[[E]]
func.func @embed(%table: tensor<20x8xf32>, %ids: tensor<2x5xi32>, %rng: tensor<2xi64>) -> tensor<2x5x8xf32> {
  %e = tc.embedding %table, %ids {padding_id = 0 : i64} : tensor<20x8xf32>, tensor<2x5xi32> -> tensor<2x5x8xf32>
  %c = tc.constant dense<2.82842708> : tensor<f32>
  %s = tc.mul %e, %c : tensor<2x5x8xf32>, tensor<f32> -> tensor<2x5x8xf32>
  %pe = tc.positional_encoding : tensor<5x8xf32>
  %x = tc.add %s, %pe : tensor<2x5x8xf32>, tensor<5x8xf32> -> tensor<2x5x8xf32>
  %d = tc.dropout %x, %rng rate = 1.0e-01 key = 0 : tensor<2x5x8xf32>, tensor<2xi64>
  return %d : tensor<2x5x8xf32>
}

// -----

// Refused: the lookup is used elsewhere; the added tensor is not [T, D].
// CHECK-LABEL: func.func @refused(
// CHECK-NOT:   tc.embed %
// CHECK:       return
func.func @refused(%table: tensor<20x8xf32>, %ids: tensor<2x5xi32>, %bias: tensor<8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>) {
  %e = tc.embedding %table, %ids : tensor<20x8xf32>, tensor<2x5xi32> -> tensor<2x5x8xf32>
  %c = tc.constant dense<2.0> : tensor<f32>
  %s = tc.mul %e, %c : tensor<2x5x8xf32>, tensor<f32> -> tensor<2x5x8xf32>
  %f = tc.embedding %table, %ids : tensor<20x8xf32>, tensor<2x5xi32> -> tensor<2x5x8xf32>
  %t = tc.mul %f, %c : tensor<2x5x8xf32>, tensor<f32> -> tensor<2x5x8xf32>
  %x = tc.add %t, %bias : tensor<2x5x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  return %s, %e, %x : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>
}
