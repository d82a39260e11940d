// tc.adam updates its parameters and moments in place: its results own no
// arena bytes, so the gradient it reads dies at the Adam step and the
// negation of a new moment reuses its 64 bytes.
// RUN: tc-compile %s --stats | FileCheck %s
// CHECK: "arena_bytes": 64,
// CHECK: "no_reuse_bytes": 128,
// CHECK: "peak_activation_bytes": 64
func.func @train_step_adam(%p: tensor<16xf32> {tc.param = "p"}, %m: tensor<16xf32>,
                           %v: tensor<16xf32>, %s: tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %g = tc.exp %p : tensor<16xf32>
  %np, %nm, %nv = tc.adam params(%p : tensor<16xf32>) grads(%g : tensor<16xf32>) m(%m : tensor<16xf32>) v(%v : tensor<16xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-9} -> (tensor<16xf32>), (tensor<16xf32>), (tensor<16xf32>)
  %h = tc.neg %nm : tensor<16xf32>
  return %np, %nm, %nv, %h : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
