// RUN: tc-opt %s --tc-autodiff --tc-build-train-step --tc-fuse-adam | FileCheck %s
// RUN: tc-opt %s --tc-autodiff --tc-build-train-step --tc-fuse-adam | tc-opt --verify-each > /dev/null

// The per-parameter Adam chains of the training step -> one tc.adam over both
// parameters; the step size and bias correction stay scalar ops before it,
// and the per-token normalisation 1 / max(tokens, 1) becomes its grad_scale.
// CHECK-LABEL: func.func @train_step_2(
// CHECK-SAME:    %[[W:arg0]]: tensor<3xf32>
// CHECK-SAME:    %[[B:arg1]]: tensor<2xf32>
// CHECK-SAME:    %[[MW:arg2]]: tensor<3xf32> {tc.input = "adam_m.w"}, %[[MB:arg3]]: tensor<2xf32> {tc.input = "adam_m.b"}, %[[VW:arg4]]: tensor<3xf32> {tc.input = "adam_v.w"}, %[[VB:arg5]]: tensor<2xf32> {tc.input = "adam_v.b"}
// CHECK:         %[[INV:.*]] = tc.div %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK-NOT:     tc.mul {{.*}}%[[INV]]
// CHECK-NOT:     tc.sqrt {{.*}} : tensor<3xf32>
// CHECK:         %[[P:.*]]:2, %[[M:.*]]:2, %[[V:.*]]:2 = tc.adam params(%[[W]], %[[B]] : tensor<3xf32>, tensor<2xf32>) grads(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<2xf32>) m(%[[MW]], %[[MB]] : {{.*}}) v(%[[VW]], %[[VB]] : {{.*}}) step_size(%{{.*}} : tensor<f32>) rsqrt_correction2(%{{.*}} : tensor<f32>) grad_scale(%[[INV]] : tensor<f32>) {beta1 = 0.89999997615814208 : f64, beta2 = 0.98000001907348633 : f64, epsilon = 9.9999997171806853E-10 : f64} -> (tensor<3xf32>, tensor<2xf32>), (tensor<3xf32>, tensor<2xf32>), (tensor<3xf32>, tensor<2xf32>)
// CHECK-NEXT:    return %[[P]]#0, %[[P]]#1, %[[M]]#0, %[[M]]#1, %[[V]]#0, %[[V]]#1,
func.func @forward_2(%w: tensor<3xf32> {tc.param = "w", tc.init = #tc.init<zeros>},
                     %b: tensor<2xf32> {tc.param = "b", tc.init = #tc.init<zeros>},
                     %x: tensor<2x3xf32> {tc.input = "x"},
                     %rng: tensor<2xi64> {tc.input = "rng"}) -> (tensor<f32>, tensor<i32>) {
  %y = tc.mul %x, %w : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  %s = tc.reduce_sum %b axes = [0] : tensor<2xf32> -> tensor<f32>
  %t = tc.add %l, %s : tensor<f32>, tensor<f32> -> tensor<f32>
  %n = tc.constant dense<6> : tensor<i32>
  return %t, %n : tensor<f32>, tensor<i32>
}
