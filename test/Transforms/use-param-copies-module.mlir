// RUN: tc-opt %s --tc-apply-precision=precision=bf16 --tc-autodiff --tc-build-train-step --tc-fuse-adam --tc-use-param-copies | FileCheck %s

// The pass decides once for the module: the training step converts no
// weight (w is only multiplied elementwise), but the decoder function reads
// w's bf16 copy, so the step's Adam must still write every copy, or the
// decoder would read the weights as they were loaded (a review found the
// per-function decision leaving them stale).
// CHECK-LABEL: func.func @train_step_2(
// CHECK-SAME:    {tc.input = "bf16.w"}
// CHECK:         tc.adam {{.*}} copies(%{{.*}} : tensor<4x3xbf16>) {{.*}} -> {{.*}}, copies(tensor<4x3xbf16>)
// CHECK-LABEL: func.func @decode_2(
// CHECK-SAME:    {tc.input = "bf16.w"}
// CHECK-NOT:     tc.convert %arg0
func.func @forward_2(%w: tensor<4x3xf32> {tc.param = "w", tc.init = #tc.init<zeros>},
                     %x: tensor<4x3xf32> {tc.input = "x"},
                     %rng: tensor<2xi64> {tc.input = "rng"}) -> (tensor<f32>, tensor<i32>) {
  %y = tc.mul %x, %w : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<4x3xf32> -> tensor<f32>
  %n = tc.constant dense<12> : tensor<i32>
  return %l, %n : tensor<f32>, tensor<i32>
}
func.func @decode_2(%w: tensor<4x3xf32> {tc.param = "w", tc.init = #tc.init<zeros>},
                    %x: tensor<2x3xf32> {tc.input = "x"}) -> (tensor<2x4xf32> {tc.output = "logits"}) {
  %y = tc.matmul %x, %w {transpose_rhs} : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
