// RUN: tc-opt %s --split-input-file --tc-fuse-elementwise | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-fuse-elementwise | tc-opt --split-input-file --verify-each > /dev/null

// A chain of same-shape elementwise ops (with a broadcast bias and a splat
// constant) becomes one kernel; only the value used outside is written.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %[[F:.*]] = tc.fused(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>):
// CHECK-NEXT:      %[[S:.*]] = tc.add %[[X]], %[[B]]
// CHECK-NEXT:      %[[C:.*]] = tc.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[M:.*]] = tc.mul %[[S]], %[[C]]
// CHECK-NEXT:      %[[R:.*]] = tc.relu %[[M]]
// CHECK-NEXT:      tc.yield %[[R]] : tensor<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[F]]
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = tc.add %x, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %c = tc.constant dense<2.0> : tensor<f32>
  %1 = tc.mul %0, %c : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %2 = tc.relu %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Different shapes are different kernels; a GEMM or a reduction in between
// splits the chain; a single op stays as it is.
// CHECK-LABEL: func.func @split(
// CHECK-NEXT:    tc.exp %arg0 : tensor<4x8xf32>
// CHECK-NEXT:    tc.reduce_sum
// CHECK-NEXT:    tc.fused
// CHECK:         tc.neg {{.*}} : tensor<4xf32>
// CHECK-NEXT:    tc.sqrt {{.*}} : tensor<4xf32>
// CHECK-NEXT:    tc.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @split(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = tc.exp %x : tensor<4x8xf32>
  %1 = tc.reduce_sum %0 axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = tc.neg %1 : tensor<4xf32>
  %3 = tc.sqrt %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// An operand made after the group started (by an op outside it) starts a new
// group, so the fused op can be placed where its group begins.
// CHECK-LABEL: func.func @late_operand(
// CHECK:         tc.fused(%arg0)
// CHECK:         tc.reduce_sum
// CHECK:         tc.add
// CHECK-NOT:     tc.fused
func.func @late_operand(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tc.exp %x : tensor<4xf32>
  %1 = tc.neg %0 : tensor<4xf32>
  %s = tc.reduce_sum %1 axes = [0] : tensor<4xf32> -> tensor<f32>
  %2 = tc.add %1, %s : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %2, %0 : tensor<4xf32>, tensor<4xf32>
}
