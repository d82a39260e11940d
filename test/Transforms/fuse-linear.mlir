// RUN: tc-opt %s --split-input-file --tc-fuse-linear | FileCheck %s

// The feed-forward network: bias + ReLU into the first GEMM, bias into the
// second.
// CHECK-LABEL: func.func @ffn(
// CHECK-NEXT:    %[[H:.*]] = tc.linear %arg0, %arg1, %arg2 {relu} : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
// CHECK-NEXT:    %[[Y:.*]] = tc.linear %[[H]], %arg3, %arg4 : tensor<2x5x32xf32>, tensor<8x32xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @ffn(%x: tensor<2x5x8xf32>, %w1: tensor<32x8xf32>, %b1: tensor<32xf32>, %w2: tensor<8x32xf32>, %b2: tensor<8xf32>) -> tensor<2x5x8xf32> {
  %0 = tc.matmul %x, %w1 {transpose_rhs} : tensor<2x5x8xf32>, tensor<32x8xf32> -> tensor<2x5x32xf32>
  %1 = tc.add %0, %b1 : tensor<2x5x32xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
  %2 = tc.relu %1 : tensor<2x5x32xf32>
  %3 = tc.matmul %2, %w2 {transpose_rhs} : tensor<2x5x32xf32>, tensor<8x32xf32> -> tensor<2x5x8xf32>
  %4 = tc.add %3, %b2 : tensor<2x5x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  return %4 : tensor<2x5x8xf32>
}

// -----

// Refused: a GEMM result used twice, a weight that is not transposed, an add
// that is not a bias, a relu whose input has other users.
// CHECK-LABEL: func.func @refused(
// CHECK-NOT:   tc.linear
// CHECK:       return
func.func @refused(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>, %m: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tc.matmul %x, %w {transpose_rhs} : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %1 = tc.add %0, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %2 = tc.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %3 = tc.add %2, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %4 = tc.matmul %x, %w {transpose_rhs} : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %5 = tc.add %4, %m : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1, %3, %5 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
