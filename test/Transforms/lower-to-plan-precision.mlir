// tc-lower-to-plan reads the module's precision (tc.precision, set by
// tc-apply-precision): in tf32 every f32 GEMM computes in TF32
// (`compute tf32`, which tc-compile writes as the .tcx Gemm's compute); in
// f32, or without the attribute, GEMMs compute in f32, the default, which is
// not printed.

// RUN: tc-opt %s --split-input-file --tc-lower-to-plan | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-lower-to-plan | tc-opt --split-input-file | FileCheck %s
// A name that is not a precision is refused:
// RUN: echo 'module attributes {tc.precision = "fp16"} {}' | not tc-opt --tc-lower-to-plan 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tc-lower-to-plan: tc.precision "fp16" is not a precision; expected f32, bf16 or tf32

// CHECK:      module attributes {plan.param_bytes = 0 : i64, tc.precision = "tf32"}
// CHECK-LABEL: func.func @tf32()
// CHECK-NEXT: plan.gemm <inputs + 0 : 2x3x8xf32>, <inputs + 192 : 16x8xf32> -> <arena + 0 : 2x3x16xf32> bias <inputs + 704 : 16xf32> compute tf32 {
// CHECK-NEXT: plan.gemm <arena + 0 : 2x3x16xf32>, <inputs + 768 : 2x16x4xf32> -> <outputs + 0 : 2x3x4xf32> compute tf32 {
// CHECK-NEXT: return
module attributes {tc.precision = "tf32"} {
  func.func @tf32(%x: tensor<2x3x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>, %v: tensor<2x16x4xf32>) -> tensor<2x3x4xf32> {
    %h = tc.linear %x, %w, %b : tensor<2x3x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x3x16xf32>
    %y = tc.matmul %h, %v : tensor<2x3x16xf32>, tensor<2x16x4xf32> -> tensor<2x3x4xf32>
    return %y : tensor<2x3x4xf32>
  }
}

// -----

// CHECK-LABEL: func.func @f32()
// CHECK-NEXT: plan.gemm <inputs + 0 : 2x3x8xf32>, <inputs + 192 : 16x8xf32> -> <outputs + 0 : 2x3x16xf32> bias <inputs + 704 : 16xf32> {
// CHECK-NEXT: return
module attributes {tc.precision = "f32"} {
  func.func @f32(%x: tensor<2x3x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<2x3x16xf32> {
    %y = tc.linear %x, %w, %b : tensor<2x3x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x3x16xf32>
    return %y : tensor<2x3x16xf32>
  }
}
