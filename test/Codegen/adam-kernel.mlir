// tc.adam's kernel (one loop over the parameters, their sizes in a table)
// with no parameters is its prologue alone, which NVRTC compiles (a table of
// zero sizes it refuses); parameters of two element types are refused with
// a message naming them, for either target.
// REQUIRES: cuda-standin
// RUN: split-file %s %t
// RUN: tc-compile %t/empty.mlir -o %t/empty.tcx --target=cuda --arch=sm_80
// RUN: tc-compile %t/empty.mlir --emit=cpp | FileCheck %s --check-prefix=EMPTY
// RUN: tc-compile %t/empty.mlir --emit=cuda 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: void train_step_adam_k0(void **buffers) {
// EMPTY: eps =
// EMPTY-NOT: kElements
// EMPTY: }
// RUN: not tc-compile %t/mixed.mlir --emit=cpp 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: tc-compile %t/mixed.mlir --emit=cuda 2>&1 >/dev/null | FileCheck %s --check-prefix=MIXED
// MIXED: 'tc.adam': parameter #1 is f64 and parameter #0 f32, but its kernel updates parameters of one element type; give them one type (f32)

//--- empty.mlir
func.func @train_step_adam(%s: tensor<f32>) -> (tensor<f32>) {
  "tc.adam"(%s, %s, %s) <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 1, 1, 1, 0>, resultSegmentSizes = array<i32: 0, 0, 0, 0>, beta1 = 0.9 : f64, beta2 = 0.98 : f64, epsilon = 1.0e-9 : f64}> : (tensor<f32>, tensor<f32>, tensor<f32>) -> ()
  return %s : tensor<f32>
}

//--- mixed.mlir
func.func @train_step_adam(%p: tensor<16xf32> {tc.param = "p"}, %q: tensor<16xf64> {tc.param = "q"},
                           %g1: tensor<16xf32> {tc.input = "g1"}, %g2: tensor<16xf64> {tc.input = "g2"},
                           %m: tensor<16xf32> {tc.input = "adam_m.p"}, %m2: tensor<16xf64> {tc.input = "adam_m.q"},
                           %v: tensor<16xf32> {tc.input = "adam_v.p"}, %v2: tensor<16xf64> {tc.input = "adam_v.q"},
                           %s: tensor<f32>) -> (tensor<16xf32>, tensor<16xf64>) {
  %np:2, %nm:2, %nv:2 = tc.adam params(%p, %q : tensor<16xf32>, tensor<16xf64>) grads(%g1, %g2 : tensor<16xf32>, tensor<16xf64>) m(%m, %m2 : tensor<16xf32>, tensor<16xf64>) v(%v, %v2 : tensor<16xf32>, tensor<16xf64>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-9} -> (tensor<16xf32>, tensor<16xf64>), (tensor<16xf32>, tensor<16xf64>), (tensor<16xf32>, tensor<16xf64>)
  return %np#0, %np#1 : tensor<16xf32>, tensor<16xf64>
}
