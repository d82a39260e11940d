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

// A reduction joins the kernel that computes its input, as its last step;
// ops of the reduced shape start another kernel; a GEMM splits a chain.
// CHECK-LABEL: func.func @split(
// CHECK-NEXT:    %[[R:.*]] = tc.fused(%arg0) : (tensor<4x8xf32>) -> tensor<4xf32> {
// CHECK:           tc.exp
// CHECK-NEXT:      tc.reduce_sum {{.*}} axes = [1]
// CHECK-NEXT:      tc.yield
// CHECK:         %[[S:.*]] = tc.fused(%[[R]])
// CHECK:           tc.neg {{.*}} : tensor<4xf32>
// CHECK-NEXT:      tc.sqrt {{.*}} : tensor<4xf32>
// CHECK-NEXT:      tc.yield
// CHECK:         tc.matmul
// CHECK-NEXT:    tc.relu
// CHECK-NEXT:    return
func.func @split(%x: tensor<4x8xf32>, %w: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) {
  %0 = tc.exp %x : tensor<4x8xf32>
  %1 = tc.reduce_sum %0 axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = tc.neg %1 : tensor<4xf32>
  %3 = tc.sqrt %2 : tensor<4xf32>
  %4 = tc.matmul %w, %w : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %5 = tc.relu %4 : tensor<4x4xf32>
  return %3, %5 : tensor<4xf32>, tensor<4x4xf32>
}

// -----

// An operand made after the group started (by an op outside it) starts a new
// group, so that the fused op can be placed where its group begins; the
// value a reduction made cannot be used by the same kernel.
// CHECK-LABEL: func.func @late_operand(
// CHECK-NEXT:    %[[F:.*]]:2 = tc.fused(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
// CHECK:           tc.exp
// CHECK-NEXT:      tc.neg
// CHECK-NEXT:      tc.reduce_sum
// CHECK-NEXT:      tc.yield
// CHECK:         %[[M:.*]] = tc.matmul %arg1, %arg1
// CHECK-NEXT:    tc.add %[[F]]#0, %[[F]]#1
// CHECK-NEXT:    tc.mul %{{.*}}, %[[M]]
// CHECK-NOT:     tc.fused
func.func @late_operand(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tc.exp %x : tensor<4xf32>
  %1 = tc.neg %0 : tensor<4xf32>
  %s = tc.reduce_sum %1 axes = [0] : tensor<4xf32> -> tensor<f32>
  %m = tc.matmul %w, %w : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = tc.add %1, %s : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %3 = tc.mul %2, %m : tensor<4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}
