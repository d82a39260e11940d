// tc-apply-precision: the module records its precision; in bf16 every f32
// GEMM reads its operands through one tc.convert per value and keeps its f32
// result (a linear's bias stays f32); f32 and tf32 change no op.

// RUN: tc-opt %s --split-input-file --tc-apply-precision=precision=bf16 | FileCheck %s --check-prefix=BF16
// RUN: tc-opt %s --split-input-file --tc-apply-precision=precision=tf32 | FileCheck %s --check-prefix=TF32
// RUN: tc-opt %s --split-input-file --tc-apply-precision | FileCheck %s --check-prefix=F32
// Running it twice in the same precision changes nothing more.
// RUN: tc-opt %s --split-input-file --tc-apply-precision=precision=bf16 --tc-apply-precision=precision=bf16 | FileCheck %s --check-prefix=BF16

// A precision that is not one of support/Precision.h is refused, fp16 too.
// RUN: not tc-opt %s --tc-apply-precision=precision=fp16 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tc-opt %s --tc-apply-precision=precision=BF16 2>&1 | FileCheck %s --check-prefix=BAD-CASE
// BAD: error: tc-apply-precision: unknown precision 'fp16' in precision=; expected f32, bf16 or tf32
// BAD-NOT: Stack dump
// BAD-CASE: error: tc-apply-precision: unknown precision 'BF16' in precision=; expected f32, bf16 or tf32

// A module already in another precision is refused.
// RUN: not tc-opt %s --split-input-file --tc-apply-precision=precision=bf16 --tc-apply-precision=precision=tf32 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: error: tc-apply-precision: the module is already in "bf16", not tf32; apply the precision to the f32 graph

// The feed-forward network and a product of two activations: x and w1 are
// converted once, before the GEMMs; h (the first linear's output) right
// after it is computed; the biases stay f32; every result stays f32.
// BF16:      module attributes {tc.precision = "bf16"}
// BF16-LABEL: func.func @gemms(
// BF16-NEXT:   %[[X:.*]] = tc.convert %arg0 : tensor<2x5x8xf32> -> tensor<2x5x8xbf16>
// BF16-NEXT:   %[[W1:.*]] = tc.convert %arg1 : tensor<32x8xf32> -> tensor<32x8xbf16>
// BF16-NEXT:   %[[W2:.*]] = tc.convert %arg3 : tensor<8x32xf32> -> tensor<8x32xbf16>
// BF16-NEXT:   %[[H:.*]] = tc.linear %[[X]], %[[W1]], %arg2 {relu} : tensor<2x5x8xbf16>, tensor<32x8xbf16>, tensor<32xf32> -> tensor<2x5x32xf32>
// BF16-NEXT:   %[[H16:.*]] = tc.convert %[[H]] : tensor<2x5x32xf32> -> tensor<2x5x32xbf16>
// BF16-NEXT:   %[[Y:.*]] = tc.linear %[[H16]], %[[W2]], %arg4 : tensor<2x5x32xbf16>, tensor<8x32xbf16>, tensor<8xf32> -> tensor<2x5x8xf32>
// BF16-NEXT:   %[[P:.*]] = tc.matmul %[[X]], %[[W1]] {transpose_rhs} : tensor<2x5x8xbf16>, tensor<32x8xbf16> -> tensor<2x5x32xf32>
// BF16-NEXT:   %[[S:.*]] = tc.add %[[H]], %[[P]] : tensor<2x5x32xf32>, tensor<2x5x32xf32> -> tensor<2x5x32xf32>
// BF16-NEXT:   return %[[Y]], %[[S]]
// TF32:      module attributes {tc.precision = "tf32"}
// TF32-LABEL: func.func @gemms(
// TF32-NOT:    tc.convert
// TF32:        return
// F32:       module attributes {tc.precision = "f32"}
// F32-LABEL: func.func @gemms(
// F32-NOT:     tc.convert
// F32:         return
func.func @gemms(%x: tensor<2x5x8xf32>, %w1: tensor<32x8xf32>, %b1: tensor<32xf32>, %w2: tensor<8x32xf32>, %b2: tensor<8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x32xf32>) {
  %h = tc.linear %x, %w1, %b1 {relu} : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
  %y = tc.linear %h, %w2, %b2 : tensor<2x5x32xf32>, tensor<8x32xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %p = tc.matmul %x, %w1 {transpose_rhs} : tensor<2x5x8xf32>, tensor<32x8xf32> -> tensor<2x5x32xf32>
  %s = tc.add %h, %p : tensor<2x5x32xf32>, tensor<2x5x32xf32> -> tensor<2x5x32xf32>
  return %y, %s : tensor<2x5x8xf32>, tensor<2x5x32xf32>
}

// -----

// Every function of the module (an encoder and a decoder, say), and the
// batched attention GEMMs; an f64 GEMM is not one tc trains in: untouched.
// BF16-LABEL: func.func @scores(
// BF16-NEXT:   %[[Q:.*]] = tc.convert %arg0 : tensor<2x4x3x8xf32> -> tensor<2x4x3x8xbf16>
// BF16-NEXT:   %[[K:.*]] = tc.convert %arg1 : tensor<2x4x3x8xf32> -> tensor<2x4x3x8xbf16>
// BF16-NEXT:   tc.matmul %[[Q]], %[[K]] {transpose_rhs} : tensor<2x4x3x8xbf16>, tensor<2x4x3x8xbf16> -> tensor<2x4x3x3xf32>
// BF16-LABEL: func.func @wide(
// BF16-NOT:    tc.convert
// BF16:        tc.matmul %arg0, %arg1 : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
func.func @scores(%q: tensor<2x4x3x8xf32>, %k: tensor<2x4x3x8xf32>) -> tensor<2x4x3x3xf32> {
  %0 = tc.matmul %q, %k {transpose_rhs} : tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32> -> tensor<2x4x3x3xf32>
  return %0 : tensor<2x4x3x3xf32>
}
func.func @wide(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %0 = tc.matmul %a, %b : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}
