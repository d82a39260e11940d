// RUN: not tc-opt %s --split-input-file --tc-autodiff 2>&1 | FileCheck %s
// RUN: not tc-opt %s --split-input-file --tc-autodiff=functions=nowhere 2>&1 | FileCheck %s --check-prefix=NAMED

// An op without a reverse rule on the path from a parameter to the loss.
// CHECK: autodiff-errors.mlir:[[@LINE+3]]:8: error: 'tc.softmax_grad' op has no reverse rule, but the loss depends on it through a parameter; tc-autodiff cannot differentiate f_grad
func.func @f(%x: tensor<4xf32> {tc.param = "x"}) -> tensor<f32> {
  %y = tc.softmax %x axis = 0 : tensor<4xf32>
  %g = tc.softmax_grad %y, %x axis = 0 : tensor<4xf32>
  %l = tc.reduce_sum %g axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// NAMED: error: tc-autodiff: @nowhere is not a function of this module

// -----

// The incremental decoder's attention is inference-only.
// CHECK: autodiff-errors.mlir:[[@LINE+2]]:8: error: 'tc.cached_attention' op is inference-only (the incremental decoder's attention over its caches) and has no gradient; a training graph attends with tc.matmul and tc.softmax
func.func @decoding(%q: tensor<2x1x4xf32> {tc.param = "q"}, %k: tensor<2x3x4xf32>, %v: tensor<2x3x4xf32>) -> tensor<f32> {
  %c = tc.cached_attention %q, %k, %v {heads = 1 : i64} : (tensor<2x1x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %l = tc.reduce_sum %c axes = [0, 1, 2] : tensor<2x1x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The decoder's log-probabilities are inference-only.
// CHECK: autodiff-errors.mlir:[[@LINE+2]]:8: error: 'tc.log_softmax' op is inference-only (the incremental decoder's log-probabilities) and has no gradient; a training graph takes its loss from tc.cross_entropy
func.func @log_probabilities(%x: tensor<2x4xf32> {tc.param = "x"}) -> tensor<f32> {
  %p = tc.log_softmax %x : tensor<2x4xf32>
  %l = tc.reduce_sum %p axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// So are the decoder step's fused candidates.
// CHECK: autodiff-errors.mlir:[[@LINE+3]]:16: error: 'tc.log_softmax_top_k' op is inference-only (the incremental decoder's log-probabilities) and has no gradient; a training graph takes its loss from tc.cross_entropy
func.func @candidates(%x: tensor<2x4xf32> {tc.param = "x"}) -> tensor<f32> {
  %a = tc.constant dense<0.0> : tensor<4xf32>
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 2 column = 3 : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x1xf32>
  %l = tc.reduce_sum %v axes = [0, 1] : tensor<2x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The statistics a fused op saves for its backward are not differentiated.
// CHECK: autodiff-errors.mlir:[[@LINE+3]]:22: error: 'tc.residual_layer_norm' op saves results for its backward only; the loss must not depend on them
func.func @stats(%x: tensor<2x4xf32> {tc.param = "x"}, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %rng = tc.constant dense<0> : tensor<2xi64>
  %y, %mean, %rstd = tc.residual_layer_norm %x, %x, %g, %b, %rng rate = 0.0 key = 0 epsilon = 1.0e-05 : tensor<2x4xf32>, tensor<4xf32>, tensor<2xi64> -> tensor<2x1xf32>
  %l = tc.reduce_sum %mean axes = [0, 1] : tensor<2x1xf32> -> tensor<f32>
  return %l : tensor<f32>
}
