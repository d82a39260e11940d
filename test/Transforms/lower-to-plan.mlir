// tc-lower-to-plan on small hand-written functions: which ops become views,
// GEMMs or kernels, and the exact offsets, strides and BLAS parameters of
// each step. The numbers below are worked out by hand from the shapes (f32:
// 4 bytes; every input, output and arena buffer is 64-byte aligned):
//  * attention's head split is strides: the GEMMs read Q, K and V straight
//    out of the [B*S, 3d] projection (lda = 3d) with batch strides, and no
//    transpose kernel runs;
//  * attention's head merge is strides: the batched GEMM writes its output
//    with ldc = d into the buffer the next tc.linear reads as [B*S, d];
//  * a transpose that only a GEMM produces is folded into a column-major
//    write (C^T = B^T A^T);
//  * a transpose read by an elementwise kernel stays a kernel;
//  * identical kernels (same op, types and attributes) are one function,
//    shared by every launch, across functions too;
//  * a tc.linear over [B, S, in] folds B into M, unless its input's rows are
//    not evenly spaced across the batch;
//  * `functions=` keeps only the functions with one of the name prefixes.

// RUN: tc-opt %s --tc-lower-to-plan | FileCheck %s
// RUN: tc-opt %s --tc-lower-to-plan="functions=head_" | FileCheck %s --check-prefix=HEADS
// RUN: tc-opt %s --tc-lower-to-plan="functions=shared,gemm_column" | FileCheck %s --check-prefix=TWO

// The parameter table is that of @head_merge (the only function with
// parameters): w [8, 8] at 0, b [8] at 256.
// CHECK-LABEL: module attributes {plan.param_bytes = 288 : i64, plan.params = [{buffer = #plan.buf<params + 0 : 8x8xf32>, name = "w"}, {buffer = #plan.buf<params + 256 : 8xf32>, name = "b"}]}

//===----------------------------------------------------------------------===//
// (a) Head split: B = 2, S = 3, d = 8, h = 2, dk = 4
//===----------------------------------------------------------------------===//

// x [6, 24] at inputs + 0, reshaped to [B, S, 3, h, dk] (strides
// [72, 24, 8, 4, 1]) and transposed by [2, 0, 3, 1, 4] to [3, B, h, S, dk]
// (strides [8, 72, 4, 24, 1]); the split along axis 0 puts Q, K and V 0, 8
// and 16 elements (0, 32, 64 bytes) in, each [B, h, S, dk] with strides
// [72, 4, 24, 1]: row stride 24 = 3d is the leading dimension, [72, 4] the
// batch strides. Scores [2, 2, 3, 3] (144 bytes -> 192 in the arena) and
// their softmax are contiguous; the result goes straight to the outputs.
// CHECK-LABEL: func.func @head_split()
// CHECK-SAME: plan.arena_bytes = 384 : i64
// CHECK-SAME: plan.inputs = [{buffer = #plan.buf<inputs + 0 : 6x24xf32>, name = "arg0"}]
// CHECK-SAME: plan.outputs = [{buffer = #plan.buf<outputs + 0 : 2x2x3x4xf32>, name = "result0"}]
// S = Q K^T:
// CHECK-NEXT: plan.gemm <inputs + 0 : 2x2x3x4xf32, strides [72, 4, 24, 1]>, <inputs + 32 : 2x2x3x4xf32, strides [72, 4, 24, 1]> -> <arena + 0 : 2x2x3x3xf32>
// CHECK-SAME: batch = array<i64: 2, 2>
// CHECK-SAME: k = 4 : i64, lda = 24 : i64, ldb = 24 : i64, ldc = 3 : i64, lhs_batch_strides = array<i64: 72, 4>, m = 3 : i64, n = 3 : i64, out_batch_strides = array<i64: 18, 9>, rhs_batch_strides = array<i64: 72, 4>, transpose_rhs}
// tc.softmax along the last axis is a row kernel (the fusions make
// attention's a tc.masked_softmax): a block per row of 3, 12 rows, a warp
// a block.
// CHECK-NEXT: plan.launch @head_split_k0 ins [#plan.buf<arena + 0 : 2x2x3x3xf32>] outs [#plan.buf<arena + 192 : 2x2x3x3xf32>] grid [12, 1, 1] block [32, 1, 1]
// O = P V, V not transposed (no transpose_rhs), ldb = 24:
// CHECK-NEXT: plan.gemm <arena + 192 : 2x2x3x3xf32>, <inputs + 64 : 2x2x3x4xf32, strides [72, 4, 24, 1]> -> <outputs + 0 : 2x2x3x4xf32>
// CHECK-SAME: batch = array<i64: 2, 2>
// CHECK-SAME: k = 3 : i64, lda = 3 : i64, ldb = 24 : i64, ldc = 4 : i64, lhs_batch_strides = array<i64: 18, 9>, m = 3 : i64, n = 4 : i64, out_batch_strides = array<i64: 24, 12>, rhs_batch_strides = array<i64: 72, 4>}
// CHECK-NEXT: return
func.func @head_split(%x: tensor<6x24xf32>) -> tensor<2x2x3x4xf32> {
  %r = tc.reshape %x : tensor<6x24xf32> -> tensor<2x3x3x2x4xf32>
  %t = tc.transpose %r permutation = [2, 0, 3, 1, 4] : tensor<2x3x3x2x4xf32> -> tensor<3x2x2x3x4xf32>
  %q, %k, %v = tc.split %t axis = 0 : tensor<3x2x2x3x4xf32> -> tensor<1x2x2x3x4xf32>, tensor<1x2x2x3x4xf32>, tensor<1x2x2x3x4xf32>
  %q4 = tc.reshape %q : tensor<1x2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  %k4 = tc.reshape %k : tensor<1x2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  %v4 = tc.reshape %v : tensor<1x2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  %s = tc.matmul %q4, %k4 {transpose_rhs} : tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x3x3xf32>
  %p = tc.softmax %s axis = 3 : tensor<2x2x3x3xf32>
  %o = tc.matmul %p, %v4 : tensor<2x2x3x3xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

//===----------------------------------------------------------------------===//
// (b) Head merge
//===----------------------------------------------------------------------===//

// O [B, h, S, dk] = [2, 2, 3, 4], transposed by [0, 2, 1, 3] to [B, S, h, dk]
// and reshaped to [B*S, d] = [6, 8]: the GEMM writes O[b, i, s, :] at
// b*24 + s*8 + i*4 (strides [24, 4, 8, 1]): ldc = d = 8, batch strides
// [24, 4]. The linear reads that buffer as a contiguous [6, 8]. No kernel.
// CHECK-LABEL: func.func @head_merge()
// CHECK-SAME: plan.arena_bytes = 192 : i64
// CHECK-NEXT: plan.gemm <inputs + 0 : 2x2x3x3xf32>, <inputs + 192 : 2x2x3x4xf32> -> <arena + 0 : 2x2x3x4xf32, strides [24, 4, 8, 1]>
// CHECK-SAME: batch = array<i64: 2, 2>
// CHECK-SAME: k = 3 : i64, lda = 3 : i64, ldb = 4 : i64, ldc = 8 : i64, lhs_batch_strides = array<i64: 18, 9>, m = 3 : i64, n = 4 : i64, out_batch_strides = array<i64: 24, 4>, rhs_batch_strides = array<i64: 24, 12>}
// CHECK-NEXT: plan.gemm <arena + 0 : 6x8xf32>, <params + 0 : 8x8xf32> -> <outputs + 0 : 6x8xf32> bias <params + 256 : 8xf32>
// CHECK-SAME: batch = array<i64>
// CHECK-SAME: k = 8 : i64, lda = 8 : i64, ldb = 8 : i64, ldc = 8 : i64, lhs_batch_strides = array<i64>, m = 6 : i64, n = 8 : i64, out_batch_strides = array<i64>, rhs_batch_strides = array<i64>, transpose_rhs}
// CHECK-NEXT: return
func.func @head_merge(%p: tensor<2x2x3x3xf32>, %v: tensor<2x2x3x4xf32>, %w: tensor<8x8xf32> {tc.param = "w"}, %b: tensor<8xf32> {tc.param = "b"}) -> tensor<6x8xf32> {
  %o = tc.matmul %p, %v : tensor<2x2x3x3xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  %t = tc.transpose %o permutation = [0, 2, 1, 3] : tensor<2x2x3x4xf32> -> tensor<2x3x2x4xf32>
  %m = tc.reshape %t : tensor<2x3x2x4xf32> -> tensor<6x8xf32>
  %y = tc.linear %m, %w, %b : tensor<6x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}

//===----------------------------------------------------------------------===//
// A transposed GEMM result: a column-major write
//===----------------------------------------------------------------------===//

// Y = X W^T [4, 16] is only read transposed, by an elementwise kernel that
// needs a contiguous [16, 4]: the GEMM computes Y^T = W X^T, lhs W
// (inputs + 128, not transposed), rhs X (transposed), m = 16, n = 4, into
// the kernel's input, which is Y with strides [1, 4].
// CHECK-LABEL: func.func @gemm_column_major()
// CHECK-NEXT: plan.gemm <inputs + 128 : 16x8xf32>, <inputs + 0 : 4x8xf32> -> <arena + 0 : 4x16xf32, strides [1, 4]>
// CHECK-SAME: k = 8 : i64, lda = 8 : i64, ldb = 8 : i64, ldc = 4 : i64, lhs_batch_strides = array<i64>, m = 16 : i64, n = 4 : i64, out_batch_strides = array<i64>, rhs_batch_strides = array<i64>, transpose_rhs}
// CHECK-NEXT: plan.launch @gemm_column_major_k0 ins [#plan.buf<arena + 0 : 16x4xf32>] outs [#plan.buf<outputs + 0 : 16x4xf32>]
// CHECK-NEXT: return
func.func @gemm_column_major(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %y = tc.matmul %x, %w {transpose_rhs} : tensor<4x8xf32>, tensor<16x8xf32> -> tensor<4x16xf32>
  %t = tc.transpose %y permutation = [1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
  %e = tc.exp %t : tensor<16x4xf32>
  return %e : tensor<16x4xf32>
}

//===----------------------------------------------------------------------===//
// (c) A transpose read by an elementwise op stays a kernel
//===----------------------------------------------------------------------===//

// tc.exp reads contiguous buffers only, and the transpose's input (a
// function argument) cannot be written transposed: the transpose runs as
// its own kernel into the arena, and exp reads that.
// CHECK-LABEL: func.func @transpose_kernel()
// CHECK-SAME: plan.arena_bytes = 128 : i64
// CHECK-NEXT: plan.launch @transpose_kernel_k0 ins [#plan.buf<inputs + 0 : 2x3x4xf32>] outs [#plan.buf<arena + 0 : 2x4x3xf32>] grid [1, 1, 1] block [256, 1, 1]
// CHECK-NEXT: plan.launch @transpose_kernel_k1 ins [#plan.buf<arena + 0 : 2x4x3xf32>] outs [#plan.buf<outputs + 0 : 2x4x3xf32>] grid [1, 1, 1] block [256, 1, 1]
// CHECK-NEXT: return
func.func @transpose_kernel(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %t = tc.transpose %x permutation = [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  %e = tc.exp %t : tensor<2x4x3xf32>
  return %e : tensor<2x4x3xf32>
}

//===----------------------------------------------------------------------===//
// (d) Identical kernels are shared
//===----------------------------------------------------------------------===//

// exp on two [2, 3] inputs: one kernel, k0, launched twice; exp on [3, 2],
// neg on [2, 3] and softmax along another axis are other kernels; the two
// softmaxes along axis 1 share one; exp on [2, 4, 3] is the kernel
// @transpose_kernel already made (k1 of that function).
// CHECK-LABEL: func.func @shared_kernels()
// CHECK-NEXT: plan.launch @shared_kernels_k0 ins [#plan.buf<inputs + 0 : 2x3xf32>] outs [#plan.buf<outputs + 0 : 2x3xf32>]
// CHECK-NEXT: plan.launch @shared_kernels_k0 ins [#plan.buf<inputs + 64 : 2x3xf32>] outs [#plan.buf<outputs + 64 : 2x3xf32>]
// CHECK-NEXT: plan.launch @shared_kernels_k1 ins [#plan.buf<inputs + 128 : 3x2xf32>] outs [#plan.buf<outputs + 128 : 3x2xf32>]
// CHECK-NEXT: plan.launch @shared_kernels_k2 ins [#plan.buf<inputs + 0 : 2x3xf32>] outs [#plan.buf<outputs + 192 : 2x3xf32>]
// CHECK-NEXT: plan.launch @shared_kernels_k3 ins [#plan.buf<inputs + 0 : 2x3xf32>] outs [#plan.buf<outputs + 256 : 2x3xf32>]
// CHECK-NEXT: plan.launch @shared_kernels_k4 ins [#plan.buf<inputs + 64 : 2x3xf32>] outs [#plan.buf<outputs + 320 : 2x3xf32>]
// CHECK-NEXT: plan.launch @shared_kernels_k4 ins [#plan.buf<inputs + 0 : 2x3xf32>] outs [#plan.buf<outputs + 384 : 2x3xf32>]
// CHECK-NEXT: plan.launch @transpose_kernel_k1 ins [#plan.buf<inputs + 192 : 2x4x3xf32>] outs [#plan.buf<outputs + 448 : 2x4x3xf32>]
// CHECK-NEXT: return
func.func @shared_kernels(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<3x2xf32>, %d: tensor<2x4x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4x3xf32>) {
  %0 = tc.exp %a : tensor<2x3xf32>
  %1 = tc.exp %b : tensor<2x3xf32>
  %2 = tc.exp %c : tensor<3x2xf32>
  %3 = tc.neg %a : tensor<2x3xf32>
  %4 = tc.softmax %a axis = 0 : tensor<2x3xf32>
  %5 = tc.softmax %b axis = 1 : tensor<2x3xf32>
  %6 = tc.softmax %a axis = 1 : tensor<2x3xf32>
  %7 = tc.exp %d : tensor<2x4x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4x3xf32>
}

//===----------------------------------------------------------------------===//
// (e) tc.linear over [B, S, in]
//===----------------------------------------------------------------------===//

// x [2, 3, 8] (inputs + 0), W [16, 8] (inputs + 192), b (inputs + 704): the
// rows of every batch follow each other, so one GEMM with m = B*S = 6 and
// no batch; the ReLU is the epilogue's.
// CHECK-LABEL: func.func @linear_batch()
// CHECK-NEXT: plan.gemm <inputs + 0 : 2x3x8xf32>, <inputs + 192 : 16x8xf32> -> <outputs + 0 : 2x3x16xf32> bias <inputs + 704 : 16xf32>
// CHECK-SAME: batch = array<i64>
// CHECK-SAME: k = 8 : i64, lda = 8 : i64, ldb = 8 : i64, ldc = 16 : i64, lhs_batch_strides = array<i64>, m = 6 : i64, n = 16 : i64, out_batch_strides = array<i64>, relu, rhs_batch_strides = array<i64>, transpose_rhs}
// CHECK-NEXT: return
func.func @linear_batch(%x: tensor<2x3x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<2x3x16xf32> {
  %y = tc.linear %x, %w, %b {relu} : tensor<2x3x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x3x16xf32>
  return %y : tensor<2x3x16xf32>
}

// The input is a transposed view of x [3, 2, 8] (strides [8, 16, 1]): rows
// 16 apart within a batch, batches 8 apart, so B cannot join M: batch [2]
// with strides 8 (x), 0 (the shared W) and 48 (the output), m = 3, lda = 16.
// CHECK-LABEL: func.func @linear_transposed_input()
// CHECK-NEXT: plan.gemm <inputs + 0 : 2x3x8xf32, strides [8, 16, 1]>, <inputs + 192 : 16x8xf32> -> <outputs + 0 : 2x3x16xf32> bias <inputs + 704 : 16xf32>
// CHECK-SAME: batch = array<i64: 2>
// CHECK-SAME: k = 8 : i64, lda = 16 : i64, ldb = 8 : i64, ldc = 16 : i64, lhs_batch_strides = array<i64: 8>, m = 3 : i64, n = 16 : i64, out_batch_strides = array<i64: 48>, rhs_batch_strides = array<i64: 0>, transpose_rhs}
// CHECK-NEXT: return
func.func @linear_transposed_input(%x: tensor<3x2x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<2x3x16xf32> {
  %t = tc.transpose %x permutation = [1, 0, 2] : tensor<3x2x8xf32> -> tensor<2x3x8xf32>
  %y = tc.linear %t, %w, %b : tensor<2x3x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x3x16xf32>
  return %y : tensor<2x3x16xf32>
}

//===----------------------------------------------------------------------===//
// The kernels, in the order they were made, each holding its one op; no
// other function is left (in particular no transpose kernel of (a) or (b)).
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func private @head_split_k0(%arg0: tensor<2x2x3x3xf32>) -> tensor<2x2x3x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.softmax %arg0 axis = 3
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @gemm_column_major_k0(%arg0: tensor<16x4xf32>) -> tensor<16x4xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.exp %arg0
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @transpose_kernel_k0(%arg0: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.transpose %arg0 permutation = [0, 2, 1]
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @transpose_kernel_k1(%arg0: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.exp %arg0
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @shared_kernels_k0(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.exp %arg0
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @shared_kernels_k1(%arg0: tensor<3x2xf32>) -> tensor<3x2xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.exp %arg0
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @shared_kernels_k2(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.neg %arg0
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @shared_kernels_k3(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.softmax %arg0 axis = 0
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @shared_kernels_k4(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel}
// CHECK-NEXT: tc.softmax %arg0 axis = 1
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

//===----------------------------------------------------------------------===//
// (f) functions=
//===----------------------------------------------------------------------===//

// Only @head_split and @head_merge are left, with their own kernel; the
// parameter table is still @head_merge's.
// HEADS: module attributes {plan.param_bytes = 288 : i64, plan.params = [{buffer = #plan.buf<params + 0 : 8x8xf32>, name = "w"}, {buffer = #plan.buf<params + 256 : 8xf32>, name = "b"}]}
// HEADS-NEXT: func.func @head_split()
// HEADS-NOT: func.func
// HEADS: func.func @head_merge()
// HEADS-NOT: func.func
// HEADS: func.func private @head_split_k0(
// HEADS-NOT: func.func

// Two prefixes: @shared_kernels and @gemm_column_major. Without
// @transpose_kernel, exp on [2, 4, 3] is a new kernel of @shared_kernels
// (k5); there are no parameters.
// TWO: module attributes {plan.param_bytes = 0 : i64} {
// TWO-NEXT: func.func @gemm_column_major()
// TWO-NOT: func.func
// TWO: func.func @shared_kernels()
// TWO: plan.launch @shared_kernels_k5 ins [#plan.buf<inputs + 192 : 2x4x3xf32>]
// TWO-NEXT: return
// TWO-NOT: @transpose_kernel
// TWO-NOT: @head_
// TWO-NOT: @linear_
// TWO: func.func private @gemm_column_major_k0(
// TWO-NOT: @transpose_kernel
// TWO: func.func private @shared_kernels_k5(%arg0: tensor<2x4x3xf32>)
// TWO-NOT: func.func
