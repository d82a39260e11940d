// Regressions of tc-lower-to-plan found in review.
// RUN: tc-opt %s --split-input-file --tc-lower-to-plan | FileCheck %s

// A linear's bias epilogue adds along rows, so its output is never written
// column-major into a transpose's place: the transpose stays a kernel
// (this used to fail with "a bias epilogue into a column-major output").
// CHECK-LABEL: func.func @linear_then_transpose()
// CHECK-NEXT: plan.gemm <inputs + 0 : 4x8xf32>, <inputs + 128 : 16x8xf32> -> <arena + {{[0-9]+}} : 4x16xf32> bias <inputs + 640 : 16xf32>
// CHECK-NEXT: plan.launch @{{.*}} ins [#plan.buf<arena + {{[0-9]+}} : 4x16xf32>] outs [#plan.buf<arena + {{[0-9]+}} : 16x4xf32>]
// CHECK-DAG: tc.transpose
func.func @linear_then_transpose(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<16x4xf32> {
  %y = tc.linear %x, %w, %b : tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %t = tc.transpose %y permutation = [1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
  %e = tc.exp %t : tensor<16x4xf32>
  return %e : tensor<16x4xf32>
}

// -----

// A gradient already in its grads slot is not copied onto itself, even when
// it is viewed through an extent-1 dimension.
// CHECK-LABEL: func.func @unit_dimension_gradient()
// CHECK-NEXT: plan.launch @{{.*}} outs [#plan.buf<grads + 0 : 16xf32>]
// CHECK-NEXT: plan.launch
// CHECK-NOT: plan.copy
func.func @unit_dimension_gradient(%p: tensor<1x16xf32> {tc.param = "p"},
    %m: tensor<1x16xf32> {tc.input = "adam_m.p"}, %v: tensor<1x16xf32> {tc.input = "adam_v.p"},
    %s: tensor<f32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>) {
  %flat = tc.reshape %p : tensor<1x16xf32> -> tensor<16xf32>
  %e = tc.exp %flat : tensor<16xf32>
  %g = tc.reshape %e : tensor<16xf32> -> tensor<1x16xf32>
  %np, %nm, %nv = tc.adam params(%p : tensor<1x16xf32>) grads(%g : tensor<1x16xf32>) m(%m : tensor<1x16xf32>) v(%v : tensor<1x16xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-9} -> (tensor<1x16xf32>), (tensor<1x16xf32>), (tensor<1x16xf32>)
  return %np, %nm, %nv : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>
}

// -----

// Kernel names never clash with the module's functions: @f's first kernel
// cannot be @f_k0, which is taken.
// CHECK-LABEL: func.func @f()
// CHECK-NEXT: plan.launch @f_k1
// CHECK-LABEL: func.func @f_k0()
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tc.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @f_k0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tc.neg %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
