// RUN: tc-opt %s --split-input-file --tc-autodiff | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-autodiff | tc-opt --split-input-file --verify-each > /dev/null

// A linear map: d/dW sum(x W^T) = 1^T x, one GEMM with a transposed lhs.
// CHECK-LABEL: func.func @linear_grad(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[W:.*]]: tensor<4x3xf32> {tc.param = "w"})
// CHECK-SAME:    -> (tensor<f32>, tensor<4x3xf32> {tc.grad_of = "w"})
// CHECK:         %[[LOSS:.*]] = tc.reduce_sum
// CHECK:         %[[ONE:.*]] = tc.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = tc.reshape %[[ONE]] : tensor<f32> -> tensor<1x1xf32>
// CHECK-NEXT:    %[[DY:.*]] = tc.broadcast_to %[[R]] : tensor<1x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[DW:.*]] = tc.matmul %[[DY]], %[[X]] {transpose_lhs} : tensor<2x4xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[LOSS]], %[[DW]]
func.func @linear(%x: tensor<2x3xf32>, %w: tensor<4x3xf32> {tc.param = "w"}) -> tensor<f32> {
  %y = tc.matmul %x, %w {transpose_rhs} : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<2x4xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Softmax's gradient is one op over its output; the non-parameter %t gets none.
// CHECK-LABEL: func.func @softmax_grad(
// CHECK:         %[[P:.*]] = tc.softmax %arg0 axis = 1
// CHECK:         tc.broadcast_to
// CHECK-NEXT:    %[[DP:.*]] = tc.mul %{{.*}}, %arg1
// CHECK-NEXT:    %[[DX:.*]] = tc.softmax_grad %[[P]], %[[DP]] axis = 1 : tensor<2x4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DX]]
func.func @softmax(%x: tensor<2x4xf32> {tc.param = "x"}, %t: tensor<2x4xf32>) -> tensor<f32> {
  %p = tc.softmax %x axis = 1 : tensor<2x4xf32>
  %m = tc.mul %p, %t : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %l = tc.reduce_sum %m axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// layer_norm: one gradient op gives gamma's and beta's gradients; the input's
// is unused (not a parameter) and so is not returned.
// CHECK-LABEL: func.func @layer_norm_grad(
// CHECK-SAME:    -> (tensor<f32>, tensor<4xf32> {tc.grad_of = "g"}, tensor<4xf32> {tc.grad_of = "b"})
// CHECK:         %{{.*}}, %[[DG:.*]], %[[DB:.*]] = tc.layer_norm_grad %arg0, %arg1, %{{.*}} epsilon = 1.000000e-05 : tensor<2x4xf32>, tensor<4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DG]], %[[DB]]
func.func @layer_norm(%x: tensor<2x4xf32>, %g: tensor<4xf32> {tc.param = "g"}, %b: tensor<4xf32> {tc.param = "b"}) -> tensor<f32> {
  %y = tc.layer_norm %x, %g, %b epsilon = 1.0e-05 : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A residual h + dropout(h): the two gradients of h are summed; dropout's
// backward is the same dropout (same rng operand and key) on the gradient.
// CHECK-LABEL: func.func @residual_grad(
// CHECK:         %[[H:.*]] = tc.matmul %arg0, %arg1 {transpose_rhs}
// CHECK-NEXT:    tc.dropout %[[H]], %arg2 rate = 1.000000e-01 key = 7
// CHECK:         %[[DY:.*]] = tc.broadcast_to
// CHECK-NEXT:    %[[DD:.*]] = tc.dropout %[[DY]], %arg2 rate = 1.000000e-01 key = 7
// CHECK-NEXT:    %[[DH:.*]] = tc.add %[[DY]], %[[DD]]
// CHECK-NEXT:    %[[DW:.*]] = tc.matmul %[[DH]], %arg0 {transpose_lhs}
// CHECK-NEXT:    return %{{.*}}, %[[DW]]
func.func @residual(%x: tensor<2x4xf32>, %w: tensor<4x4xf32> {tc.param = "w"}, %rng: tensor<2xi64>) -> tensor<f32> {
  %h = tc.matmul %x, %w {transpose_rhs} : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
  %d = tc.dropout %h, %rng rate = 1.0e-01 key = 7 : tensor<2x4xf32>, tensor<2xi64>
  %r = tc.add %h, %d : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %l = tc.reduce_sum %r axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A broadcast bias: its gradient is summed over the broadcast rows. A
// function without a loss result (@no_loss) is left alone.
// CHECK-LABEL: func.func @bias_grad(
// CHECK:         %[[DB:.*]] = tc.reduce_sum %{{.*}} axes = [0] : tensor<3x4xf32> -> tensor<4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DB]]
// CHECK-NOT:   @no_loss_grad
func.func @bias(%x: tensor<3x4xf32>, %b: tensor<4xf32> {tc.param = "b"}) -> tensor<f32> {
  %y = tc.add %x, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  %s = tc.mul %y, %y : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %l = tc.reduce_sum %s axes = [0, 1] : tensor<3x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}
func.func @no_loss(%x: tensor<4xf32>, %b: tensor<4xf32> {tc.param = "b2"}) -> tensor<4xf32> {
  %y = tc.add %x, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Mixed precision (tc-apply-precision's form): a GEMM of bf16 conversions
// with an f32 result. The backward converts dy to bf16 once for both
// products, which give f32 gradients; the conversions' rule passes them on,
// so the parameter's gradient is f32 with no conversion back.
// CHECK-LABEL: func.func @bf16_linear_grad(
// CHECK-SAME:    -> (tensor<f32>, tensor<4x3xf32> {tc.grad_of = "w"}, tensor<4xf32> {tc.grad_of = "b"})
// CHECK:         %[[XB:.*]] = tc.convert %arg0 : tensor<2x3xf32> -> tensor<2x3xbf16>
// CHECK:         %[[DY:.*]] = tc.broadcast_to
// CHECK-NEXT:    %[[DYB:.*]] = tc.convert %[[DY]] : tensor<2x4xf32> -> tensor<2x4xbf16>
// CHECK-NEXT:    %[[DW:.*]] = tc.matmul %[[DYB]], %[[XB]] {transpose_lhs} : tensor<2x4xbf16>, tensor<2x3xbf16> -> tensor<4x3xf32>
// CHECK-NEXT:    %[[DB:.*]] = tc.reduce_sum %[[DY]] axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DW]], %[[DB]]
func.func @bf16_linear(%x: tensor<2x3xf32>, %w: tensor<4x3xf32> {tc.param = "w"},
                       %b: tensor<4xf32> {tc.param = "b"}) -> tensor<f32> {
  %xb = tc.convert %x : tensor<2x3xf32> -> tensor<2x3xbf16>
  %wb = tc.convert %w : tensor<4x3xf32> -> tensor<4x3xbf16>
  %y = tc.linear %xb, %wb, %b : tensor<2x3xbf16>, tensor<4x3xbf16>, tensor<4xf32> -> tensor<2x4xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Mixed precision through a plain tc.matmul whose lhs is a parameter: both
// gradients are f32 products of bf16 operands.
// CHECK-LABEL: func.func @bf16_matmul_grad(
// CHECK-SAME:    -> (tensor<f32>, tensor<2x3xf32> {tc.grad_of = "a"}, tensor<3x4xf32> {tc.grad_of = "b"})
// CHECK:         %[[DYB:.*]] = tc.convert %{{.*}} : tensor<2x4xf32> -> tensor<2x4xbf16>
// CHECK-NEXT:    %[[DA:.*]] = tc.matmul %[[DYB]], %{{.*}} {transpose_rhs} : tensor<2x4xbf16>, tensor<3x4xbf16> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[DB:.*]] = tc.matmul %{{.*}}, %[[DYB]] {transpose_lhs} : tensor<2x3xbf16>, tensor<2x4xbf16> -> tensor<3x4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DA]], %[[DB]]
func.func @bf16_matmul(%a: tensor<2x3xf32> {tc.param = "a"}, %b: tensor<3x4xf32> {tc.param = "b"}) -> tensor<f32> {
  %ab = tc.convert %a : tensor<2x3xf32> -> tensor<2x3xbf16>
  %bb = tc.convert %b : tensor<3x4xf32> -> tensor<3x4xbf16>
  %y = tc.matmul %ab, %bb : tensor<2x3xbf16>, tensor<3x4xbf16> -> tensor<2x4xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A lookup's padding_id goes to its gradient: tc.embedding_grad skips those
// positions (the fused tc.embed's reverse does the same).
// CHECK-LABEL: func.func @embedding_grad(
// CHECK:         tc.embedding_grad %arg1, %{{.*}} {padding_id = 2 : i64} : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<5x4xf32>
func.func @embedding(%t: tensor<5x4xf32> {tc.param = "t"}, %ids: tensor<2x3xi32>) -> tensor<f32> {
  %e = tc.embedding %t, %ids {padding_id = 2 : i64} : tensor<5x4xf32>, tensor<2x3xi32> -> tensor<2x3x4xf32>
  %l = tc.reduce_sum %e axes = [0, 1, 2] : tensor<2x3x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @embed_grad(
// CHECK:         tc.embedding_grad %arg1, %{{.*}} {padding_id = 0 : i64} : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<5x4xf32>
func.func @embed(%t: tensor<5x4xf32> {tc.param = "t"}, %ids: tensor<2x3xi32>, %pos: tensor<3x4xf32>, %rng: tensor<2xi64>) -> tensor<f32> {
  %e = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.0 key = 0 {padding_id = 0 : i64} : tensor<5x4xf32>, tensor<2x3xi32>, tensor<3x4xf32>, tensor<2xi64> -> tensor<2x3x4xf32>
  %l = tc.reduce_sum %e axes = [0, 1, 2] : tensor<2x3x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}
