// RUN: tc-opt %s --split-input-file --tc-fuse-residual-layer-norm | FileCheck %s

// LayerNorm(x + Dropout(sublayer)) -> one op with the row statistics.
// CHECK-LABEL: func.func @sublayer(
// CHECK-NEXT:    %[[Y:.*]], %{{.*}}, %{{.*}} = tc.residual_layer_norm %arg0, %arg1, %arg2, %arg3, %arg4 rate = 1.000000e-01 key = 3 epsilon = 1.000000e-05 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x5x1xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @sublayer(%x: tensor<2x5x8xf32>, %s: tensor<2x5x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %rng: tensor<2xi64>) -> tensor<2x5x8xf32> {
  %d = tc.dropout %s, %rng rate = 1.0e-01 key = 3 : tensor<2x5x8xf32>, tensor<2xi64>
  %r = tc.add %x, %d : tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x5x8xf32>
  %y = tc.layer_norm %r, %g, %b epsilon = 1.0e-05 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %y : tensor<2x5x8xf32>
}

// -----

// Without dropout (inference): rate 0 with a placeholder RNG state.
// CHECK-LABEL: func.func @no_dropout(
// CHECK-NEXT:    %[[RNG:.*]] = tc.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:    tc.residual_layer_norm %arg0, %arg1, %arg2, %arg3, %[[RNG]] rate = 0.000000e+00 key = 0
func.func @no_dropout(%x: tensor<4x8xf32>, %s: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = tc.add %x, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tc.layer_norm %r, %g, %b epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Refused: the sum is used elsewhere; the residual is broadcast.
// CHECK-LABEL: func.func @refused(
// CHECK-NOT:   tc.residual_layer_norm
// CHECK:       return
func.func @refused(%x: tensor<4x8xf32>, %s: tensor<4x8xf32>, %v: tensor<8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %r = tc.add %x, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tc.layer_norm %r, %g, %b epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  %q = tc.add %s, %v : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %z = tc.layer_norm %q, %g, %b epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %y, %r, %z : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
