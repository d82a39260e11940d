// RUN: tc-opt %s --split-input-file --tc-fuse-masked-softmax | FileCheck %s

// Scale, key-padding mask, softmax and attention dropout -> one op.
// CHECK-LABEL: func.func @attention(
// CHECK-NEXT:    %[[OUT:.*]], %{{.*}} = tc.masked_softmax %arg0, %arg1, %arg2 scale = 5.000000e-01 fill = -1.000000e+09 rate = 1.000000e-01 key = 5 : tensor<2x4x5x6xf32>, tensor<2x1x1x6xi1>, tensor<2xi64>
// CHECK-NEXT:    return %[[OUT]]
func.func @attention(%s: tensor<2x4x5x6xf32>, %m: tensor<2x1x1x6xi1>, %rng: tensor<2xi64>) -> tensor<2x4x5x6xf32> {
  %c = tc.constant dense<5.000000e-01> : tensor<f32>
  %0 = tc.mul %s, %c : tensor<2x4x5x6xf32>, tensor<f32> -> tensor<2x4x5x6xf32>
  %f = tc.constant dense<-1.000000e+09> : tensor<f32>
  %1 = tc.select %m, %0, %f : tensor<2x1x1x6xi1>, tensor<2x4x5x6xf32>, tensor<f32> -> tensor<2x4x5x6xf32>
  %2 = tc.softmax %1 axis = 3 : tensor<2x4x5x6xf32>
  %3 = tc.dropout %2, %rng rate = 1.0e-01 key = 5 : tensor<2x4x5x6xf32>, tensor<2xi64>
  return %3 : tensor<2x4x5x6xf32>
}

// -----

// A causal mask without dropout: rate 0.
// CHECK-LABEL: func.func @causal(
// CHECK:         tc.masked_softmax %arg0, %{{.*}}, %{{.*}} scale = 2.500000e-01 fill = -1.000000e+09 rate = 0.000000e+00 key = 0 : tensor<2x4x5x5xf32>, tensor<5x5xi1>
// CHECK-NOT:     tc.softmax
func.func @causal(%s: tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32> {
  %m = tc.causal_mask : tensor<5x5xi1>
  %c = tc.constant dense<2.500000e-01> : tensor<f32>
  %0 = tc.mul %s, %c : tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %f = tc.constant dense<-1.000000e+09> : tensor<f32>
  %1 = tc.select %m, %0, %f : tensor<5x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %2 = tc.softmax %1 axis = 3 : tensor<2x4x5x5xf32>
  return %2 : tensor<2x4x5x5xf32>
}

// -----

// Refused: softmax over another axis; a scale that is not a constant.
// CHECK-LABEL: func.func @refused(
// CHECK-NOT:   tc.masked_softmax
// CHECK:       return
func.func @refused(%s: tensor<4x6xf32>, %m: tensor<4x6xi1>, %k: tensor<f32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %f = tc.constant dense<-1.000000e+09> : tensor<f32>
  %c = tc.constant dense<5.000000e-01> : tensor<f32>
  %0 = tc.mul %s, %c : tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %1 = tc.select %m, %0, %f : tensor<4x6xi1>, tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %2 = tc.softmax %1 axis = 0 : tensor<4x6xf32>
  %3 = tc.mul %s, %k : tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %4 = tc.select %m, %3, %f : tensor<4x6xi1>, tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %5 = tc.softmax %4 axis = 1 : tensor<4x6xf32>
  return %2, %5 : tensor<4x6xf32>, tensor<4x6xf32>
}
