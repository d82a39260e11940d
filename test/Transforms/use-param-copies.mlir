// RUN: tc-opt %s --tc-apply-precision=precision=bf16 --tc-autodiff --tc-build-train-step --tc-fuse-adam --tc-use-param-copies | FileCheck %s
// RUN: tc-opt %s --tc-apply-precision=precision=bf16 --tc-autodiff --tc-build-train-step --tc-fuse-adam --tc-use-param-copies | tc-opt --verify-each > /dev/null
// RUN: tc-opt %s --tc-apply-precision=precision=bf16 --tc-autodiff --tc-build-train-step --tc-use-param-copies | FileCheck %s --check-prefix=NO-ADAM
// RUN: tc-opt %s --tc-autodiff --tc-build-train-step --tc-fuse-adam --tc-use-param-copies | FileCheck %s --check-prefix=F32

// bf16: the weight's convert goes; the GEMM reads the copy bf16.w, an input
// after Adam's moments (the bias, read in f32, has no convert). The fused
// Adam takes every parameter's copy and returns the new copies after the
// moments, in place (bf16.w, bf16.b).
// CHECK-LABEL: func.func @train_step_2(
// CHECK-SAME:    {tc.input = "adam_v.b"}, %[[CW:arg6]]: tensor<4x3xbf16> {tc.input = "bf16.w"}, %[[CB:arg7]]: tensor<4xbf16> {tc.input = "bf16.b"}, %{{.*}}: tensor<2x3xf32> {tc.input = "x"}
// CHECK-SAME:    {tc.output = "adam_v.b"}, tensor<4x3xbf16> {tc.output = "bf16.w"}, tensor<4xbf16> {tc.output = "bf16.b"}, tensor<f32> {tc.output = "loss"}
// CHECK-NOT:     tc.convert %arg0
// CHECK:         tc.linear %{{.*}}, %[[CW]], %arg1 : tensor<2x3xbf16>, tensor<4x3xbf16>, tensor<4xf32>
// CHECK:         %{{.*}}, %[[NEW:new_param_copies]]:2 = tc.adam params(%arg0, %arg1 : {{.*}}) copies(%[[CW]], %[[CB]] : tensor<4x3xbf16>, tensor<4xbf16>) {{.*}} -> {{.*}}, copies(tensor<4x3xbf16>, tensor<4xbf16>)
// CHECK-NEXT:    return {{.*}}, %new_second_moments#1, %[[NEW]]#0, %[[NEW]]#1, %{{.*}} :

// A decoder function (no Adam): only the weight it converts has a copy.
// CHECK-LABEL: func.func @decode_2(
// CHECK-SAME:    tc.param = "b"}, %[[DW:arg2]]: tensor<4x3xbf16> {tc.input = "bf16.w"}, %{{.*}}: tensor<2x3xf32> {tc.input = "x"}
// CHECK-NOT:     tc.convert %arg0
// CHECK:         tc.linear %{{.*}}, %[[DW]], %arg1

// A convert of adjacent parameters joined (the Q/K/V weights) reads the
// concatenation of their copies, which lie adjacent too: a view.
// CHECK-LABEL: func.func @decode_3(
// CHECK-SAME:    %[[Q:arg3]]: tensor<2x3xbf16> {tc.input = "bf16.q"}, %[[K:arg4]]: tensor<2x3xbf16> {tc.input = "bf16.k"}
// CHECK-NOT:     tc.concat %arg0
// CHECK:         %[[QK:.*]] = tc.concat %[[Q]], %[[K]] axis = 0 : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<4x3xbf16>
// CHECK:         tc.linear %{{.*}}, %[[QK]], %arg2

// Without the fused Adam the training step would leave the copies stale:
// nothing changes, in any function.
// NO-ADAM-NOT: bf16.
// NO-ADAM: tc.convert %arg0 : tensor<4x3xf32> -> tensor<4x3xbf16>
// NO-ADAM-NOT: bf16.

// f32: no converts, no copies.
// F32-NOT: bf16
func.func @forward_2(%w: tensor<4x3xf32> {tc.param = "w", tc.init = #tc.init<zeros>},
                     %b: tensor<4xf32> {tc.param = "b", tc.init = #tc.init<zeros>},
                     %x: tensor<2x3xf32> {tc.input = "x"},
                     %rng: tensor<2xi64> {tc.input = "rng"}) -> (tensor<f32>, tensor<i32>) {
  %y = tc.linear %x, %w, %b : tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32> -> tensor<2x4xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  %n = tc.constant dense<8> : tensor<i32>
  return %l, %n : tensor<f32>, tensor<i32>
}
func.func @decode_2(%w: tensor<4x3xf32> {tc.param = "w", tc.init = #tc.init<zeros>},
                    %b: tensor<4xf32> {tc.param = "b", tc.init = #tc.init<zeros>},
                    %x: tensor<2x3xf32> {tc.input = "x"}) -> (tensor<2x4xf32> {tc.output = "logits"}) {
  %y = tc.linear %x, %w, %b : tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
func.func @decode_3(%q: tensor<2x3xf32> {tc.param = "q", tc.init = #tc.init<zeros>},
                    %k: tensor<2x3xf32> {tc.param = "k", tc.init = #tc.init<zeros>},
                    %b: tensor<4xf32> {tc.param = "b", tc.init = #tc.init<zeros>},
                    %x: tensor<2x3xf32> {tc.input = "x"}) -> (tensor<2x4xf32> {tc.output = "logits"}) {
  %qk = tc.concat %q, %k axis = 0 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  %y = tc.linear %x, %qk, %b : tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
