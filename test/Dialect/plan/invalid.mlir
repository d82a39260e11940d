// Every verifier rule of the plan dialect (dialects/plan/PlanOps.cpp) and of
// #plan.buf (BufferAttr::parse and verify in PlanDialect.cpp), one case per
// split-input-file chunk: each chunk must produce exactly the diagnostic it
// expects, and nothing else. A rule that stops firing, or a message that
// changes, fails here.

// RUN: tc-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// plan.launch: geometry and contiguous buffers
//===----------------------------------------------------------------------===//

// The grid has two extents instead of three.
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op grid and block are three positive extents (x, y, z)}}
  plan.launch @k ins [#plan.buf<arena + 0 : 4xf32>] outs [#plan.buf<arena + 64 : 4xf32>] grid [1, 1] block [256, 1, 1]
  return
}

// -----

// A block extent of 0.
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op grid and block are three positive extents (x, y, z)}}
  plan.launch @k ins [#plan.buf<arena + 0 : 4xf32>] outs [#plan.buf<arena + 64 : 4xf32>] grid [1, 1, 1] block [0, 1, 1]
  return
}

// -----

// A kernel input that is a transposed view: kernels read contiguous buffers.
func.func private @k(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op kernel buffers must be contiguous, got #plan.buf<arena + 0 : 2x3xf32, strides [1, 2]>}}
  plan.launch @k ins [#plan.buf<arena + 0 : 2x3xf32, strides [1, 2]>] outs [#plan.buf<arena + 64 : 2x3xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// A kernel output with padded rows.
func.func private @k(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op kernel buffers must be contiguous, got #plan.buf<arena + 64 : 2x3xf32, strides [4, 1]>}}
  plan.launch @k ins [#plan.buf<arena + 0 : 2x3xf32>] outs [#plan.buf<arena + 64 : 2x3xf32, strides [4, 1]>] grid [1, 1, 1] block [256, 1, 1]
  return
}

//===----------------------------------------------------------------------===//
// plan.launch: the kernel symbol and its signature
//===----------------------------------------------------------------------===//

// -----

// No function of that name.
func.func @f() {
  // expected-error @+1 {{'plan.launch' op 'missing' is not a kernel function of this module}}
  plan.launch @missing ins [] outs [#plan.buf<arena + 0 : 4xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// A function without the plan.kernel attribute is no kernel.
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tc.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op 'g' is not a kernel function of this module}}
  plan.launch @g ins [#plan.buf<arena + 0 : 4xf32>] outs [#plan.buf<arena + 64 : 4xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// Two inputs bound to a kernel of one argument.
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op kernel 'k' takes 1 inputs and returns 1 results; the launch binds 2 and 1}}
  plan.launch @k ins [#plan.buf<arena + 0 : 4xf32>, #plan.buf<arena + 0 : 4xf32>] outs [#plan.buf<arena + 64 : 4xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// No output bound to a kernel with a result.
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op kernel 'k' takes 1 inputs and returns 1 results; the launch binds 1 and 0}}
  plan.launch @k ins [#plan.buf<arena + 0 : 4xf32>] outs [] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// An input of another shape than the kernel's argument.
func.func private @k(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op input 0 is 3x2xf32 but kernel 'k' expects 'tensor<2x3xf32>'}}
  plan.launch @k ins [#plan.buf<arena + 0 : 3x2xf32>] outs [#plan.buf<arena + 64 : 2x3xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// The second input of another element type (i64 for i32 ids).
func.func private @k(%table: tensor<8x4xf32>, %ids: tensor<2x3xi32>) -> tensor<2x3x4xf32> attributes {plan.kernel} {
  %0 = tc.embedding %table, %ids : tensor<8x4xf32>, tensor<2x3xi32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op input 1 is 2x3xi64 but kernel 'k' expects 'tensor<2x3xi32>'}}
  plan.launch @k ins [#plan.buf<params + 0 : 8x4xf32>, #plan.buf<inputs + 0 : 2x3xi64>] outs [#plan.buf<arena + 0 : 2x3x4xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

// -----

// An output of another shape than the kernel's result.
func.func private @k(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel} {
  %0 = tc.exp %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @f() {
  // expected-error @+1 {{'plan.launch' op output 0 is 6xf32 but kernel 'k' expects 'tensor<2x3xf32>'}}
  plan.launch @k ins [#plan.buf<arena + 0 : 2x3xf32>] outs [#plan.buf<arena + 64 : 6xf32>] grid [1, 1, 1] block [256, 1, 1]
  return
}

//===----------------------------------------------------------------------===//
// plan.gemm
//===----------------------------------------------------------------------===//

// -----

func.func @f() {
  // expected-error @+1 {{'plan.gemm' op m, n and k must be positive, got 0, 4, 4}}
  plan.gemm <arena + 0 : 0x4xf32>, <arena + 0 : 4x4xf32> -> <arena + 64 : 0x4xf32> {m = 0 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'plan.gemm' op m, n and k must be positive, got 4, 4, -1}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf32> -> <arena + 64 : 4x4xf32> {m = 4 : i64, n = 4 : i64, k = -1 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// Two batch dimensions, but the output has one batch stride.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op needs one batch stride per batch dimension (2) for lhs, rhs and out}}
  plan.gemm <arena + 0 : 2x3x4x4xf32>, <arena + 0 : 2x3x4x4xf32> -> <arena + 1024 : 2x3x4x4xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64: 2, 3>, lhs_batch_strides = array<i64: 48, 16>, rhs_batch_strides = array<i64: 48, 16>, out_batch_strides = array<i64: 48>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// No batch, but the lhs has a batch stride.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op needs one batch stride per batch dimension (0) for lhs, rhs and out}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf32> -> <arena + 64 : 4x4xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64: 16>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// lda shorter than a row of A (k = 8).
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op leading dimensions (4, 16, 16) are shorter than the rows (8, 16, 16)}}
  plan.gemm <arena + 0 : 4x8xf32>, <arena + 0 : 8x16xf32> -> <arena + 1024 : 4x16xf32> {m = 4 : i64, n = 16 : i64, k = 8 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// With transpose_lhs, a row of A holds m elements: lda 8 < m = 16.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op leading dimensions (8, 4, 4) are shorter than the rows (16, 4, 4)}}
  plan.gemm <arena + 0 : 8x16xf32>, <arena + 0 : 8x4xf32> -> <arena + 1024 : 16x4xf32> {m = 16 : i64, n = 4 : i64, k = 8 : i64, lda = 8 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32, transpose_lhs}
  return
}

// -----

// With transpose_rhs, a row of B holds k elements: ldb 4 < k = 8.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op leading dimensions (8, 4, 16) are shorter than the rows (8, 8, 16)}}
  plan.gemm <arena + 0 : 4x8xf32>, <arena + 0 : 16x8xf32> -> <arena + 1024 : 4x16xf32> {m = 4 : i64, n = 16 : i64, k = 8 : i64, lda = 8 : i64, ldb = 4 : i64, ldc = 16 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32, transpose_rhs}
  return
}

// -----

// ldc shorter than a row of C (n = 16).
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op leading dimensions (8, 16, 8) are shorter than the rows (8, 16, 16)}}
  plan.gemm <arena + 0 : 4x8xf32>, <arena + 0 : 8x16xf32> -> <arena + 1024 : 4x16xf32> {m = 4 : i64, n = 16 : i64, k = 8 : i64, lda = 8 : i64, ldb = 16 : i64, ldc = 8 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// An f16 operand: the GEMMs are f32 x f32 or bf16 x bf16.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op operands must be both f32 or both bf16, got 'f32' and 'f16'}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf16> -> <arena + 64 : 4x4xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// An f64 output.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op GEMMs write f32, or bf16 from bf16 operands, got 'f64' from 'f32'}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf32> -> <arena + 64 : 4x4xf64> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// f32 operands write f32, not bf16 (only bf16 products store bf16).
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op GEMMs write f32, or bf16 from bf16 operands, got 'bf16' from 'f32'}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf32> -> <arena + 64 : 4x4xbf16> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// A bf16 result takes no bias (it is f32, and cuBLASLt adds a bias into bf16
// in bf16 only).
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op a bf16 result takes no bias and beta 0}}
  plan.gemm <arena + 0 : 4x4xbf16>, <arena + 0 : 4x4xbf16> -> <arena + 64 : 4x4xbf16> bias <arena + 128 : 4xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// Nor is a bf16 result accumulated into (beta != 0).
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op a bf16 result takes no bias and beta 0}}
  plan.gemm <arena + 0 : 4x4xbf16>, <arena + 0 : 4x4xbf16> -> <arena + 64 : 4x4xbf16> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 1.0 : f32}
  return
}

// -----

// TF32 is a way to compute f32 products, not bf16 ones.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op tf32 compute needs f32 operands, got 'bf16'}}
  plan.gemm <arena + 0 : 4x4xbf16>, <arena + 0 : 4x4xbf16> -> <arena + 64 : 4x4xf32> compute tf32 {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// A bias has the output's type, f32.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op bias must be 4 contiguous f32 elements}}
  plan.gemm <arena + 0 : 4x4xbf16>, <arena + 0 : 4x4xbf16> -> <arena + 64 : 4x4xf32> bias <arena + 128 : 4xbf16> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// Writing into the inputs the runtime binds.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op writes into the read-only inputs space}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf32> -> <inputs + 0 : 4x4xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// Writing into the constants stored in the executable.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op writes into the read-only constants space}}
  plan.gemm <arena + 0 : 4x4xf32>, <arena + 0 : 4x4xf32> -> <constants + 0 : 4x4xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// -----

// A bias of 8 elements for n = 4.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op bias must be 4 contiguous f32 elements}}
  plan.gemm <arena + 0 : 4x4xf32>, <params + 0 : 4x4xf32> -> <arena + 64 : 4x4xf32> bias <params + 64 : 8xf32> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32, transpose_rhs}
  return
}

// -----

// A bias of the right size but strided.
func.func @f() {
  // expected-error @+1 {{'plan.gemm' op bias must be 4 contiguous f32 elements}}
  plan.gemm <arena + 0 : 4x4xf32>, <params + 0 : 4x4xf32> -> <arena + 64 : 4x4xf32> bias <params + 64 : 4xf32, strides [2]> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32, transpose_rhs}
  return
}

//===----------------------------------------------------------------------===//
// plan.copy, plan.allreduce, plan.constant
//===----------------------------------------------------------------------===//

// -----

func.func @f() {
  // expected-error @+1 {{'plan.copy' op copies 2x3xf32 into 3x2xf32}}
  plan.copy <arena + 0 : 2x3xf32> -> <outputs + 0 : 3x2xf32>
  return
}

// -----

// Same shape, other element type: a copy does not convert.
func.func @f() {
  // expected-error @+1 {{'plan.copy' op copies 4xf32 into 4xi32}}
  plan.copy <arena + 0 : 4xf32> -> <outputs + 0 : 4xi32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'plan.allreduce' op sums gradients, a loss or a token count; its buffer must be in the grads space or the arena, not params}}
  plan.allreduce <params + 0 : 16xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'plan.allreduce' op sums f32 or i32 elements, not 'i64'}}
  plan.allreduce <arena + 0 : 2xi64>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'plan.allreduce' op needs a contiguous buffer, got #plan.buf<grads + 0 : 4x2xf32, strides [4, 1]>}}
  plan.allreduce <grads + 0 : 4x2xf32, strides [4, 1]>
  return
}

// -----

// A constant outside the constants space.
// expected-error @+1 {{'plan.constant' op needs a contiguous buffer of the constants space}}
plan.constant #plan.buf<arena + 0 : 2xf32> = dense<[1.0, 2.0]> : tensor<2xf32>

// -----

// A strided constant.
// expected-error @+1 {{'plan.constant' op needs a contiguous buffer of the constants space}}
plan.constant #plan.buf<constants + 0 : 2xf32, strides [2]> = dense<[1.0, 2.0]> : tensor<2xf32>

// -----

// A value of another shape than the buffer.
// expected-error @+1 {{'plan.constant' op value 'tensor<3xf32>' does not fill #plan.buf<constants + 0 : 2xf32>}}
plan.constant #plan.buf<constants + 0 : 2xf32> = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>

// -----

// A value of another element type than the buffer.
// expected-error @+1 {{'plan.constant' op value 'tensor<2xi64>' does not fill #plan.buf<constants + 0 : 2xi32>}}
plan.constant #plan.buf<constants + 0 : 2xi32> = dense<[1, 2]> : tensor<2xi64>

//===----------------------------------------------------------------------===//
// #plan.buf
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{unknown buffer space 'heap'; expected arena, params, grads, adam_m, adam_v, inputs, outputs, constants or param_copies}}
func.func @f() attributes {view = #plan.buf<heap + 0 : 4xf32>} {
  return
}

// -----

// expected-error @+1 {{buffer offset -4 is negative}}
func.func @f() attributes {view = #plan.buf<arena + -4 : 4xf32>} {
  return
}

// -----

// Two strides for a rank-3 view.
// expected-error @+1 {{buffer of rank 3 has 2 strides}}
func.func @f() attributes {view = #plan.buf<arena + 0 : 2x3x4xf32, strides [4, 1]>} {
  return
}

// -----

// Strides for a rank-0 view.
// expected-error @+1 {{buffer of rank 0 has 1 strides}}
func.func @f() attributes {view = #plan.buf<arena + 0 : f32, strides [1]>} {
  return
}

// -----

// expected-error @+1 {{buffer dimension 1 has extent 3 and stride -1; both must be >= 0}}
func.func @f() attributes {view = #plan.buf<arena + 0 : 2x3xf32, strides [3, -1]>} {
  return
}

// -----

// Views are bounded so that their sizes never overflow (issue 15: the
// fuzzer's 2x4444444444444444444x6x4 view overflowed computing strides).
// expected-error @+1 {{buffer dimension 1 has extent 4444444444444444444 and stride 24; a buffer spans at most 2^50 bytes}}
func.func @f() attributes {view = #plan.buf<arena + 0 : 2x4444444444444444444x6x4xf32>} {
  return
}

// -----

// Each extent is in range, their product is not.
// expected-error @+1 {{buffer at byte 0 spans beyond 2^50 bytes}}
func.func @f() attributes {view = #plan.buf<arena + 0 : 1048576x1048576x1048576xf32>} {
  return
}

// -----

// expected-error @+1 {{buffer at byte 1125899906842620 spans beyond 2^50 bytes}}
func.func @f() attributes {view = #plan.buf<arena + 1125899906842620 : 2xf32>} {
  return
}

// -----

// expected-error @+1 {{buffer element type 'index' is not an integer or float type}}
func.func @f() attributes {view = #plan.buf<arena + 0 : 4xindex>} {
  return
}

// -----

// The same rules hold where an op parses the view without its prefix.
func.func @f() {
  // expected-error @+1 {{buffer of rank 1 has 2 strides}}
  plan.allreduce <grads + 0 : 16xf32, strides [16, 1]>
  return
}
