// Round trip of every plan operation and of the #plan.buf attribute: the
// custom form parses and prints back (1), printing and parsing again is
// stable (2), and the generic form parses back to the same custom form (3).
// #plan.buf prints its strides only when they are not exactly the row-major
// ones (so that the printed form parses back), in every buffer space and for every
// element width; inside plan.gemm, plan.copy, plan.allreduce and
// plan.constant the attribute prints without its `#plan.buf` prefix. The
// CHECK lines spell out the printed form, so a change to an assembly format
// fails here. Every kernel carries `plan.kernel` and every launch binds
// buffers of its kernel's types, or the module would not verify.

// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// Module attributes and plan.constant (module-level): a vector, a splat, a
// scalar and i1 constants, each in the constants space.
// CHECK-LABEL: module attributes
// CHECK-SAME: plan.param_bytes = 288 : i64
// CHECK-SAME: plan.params = [{buffer = #plan.buf<params + 0 : 8x8xf32>, init = #tc.init<xavier_uniform>, name = "w"}, {buffer = #plan.buf<params + 256 : 8xf32>, init = #tc.init<zeros>, name = "b"}]
// CHECK-NEXT: plan.constant <constants + 0 : 2xf32> = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: plan.constant <constants + 64 : 2x3xf32> = dense<5.000000e-01> : tensor<2x3xf32>
// CHECK-NEXT: plan.constant <constants + 128 : i64> = dense<7> : tensor<i64>
// CHECK-NEXT: plan.constant <constants + 192 : 4xi1> = dense<[true, false, false, true]> : tensor<4xi1>
module attributes {plan.param_bytes = 288 : i64, plan.params = [{buffer = #plan.buf<params + 0 : 8x8xf32>, init = #tc.init<xavier_uniform>, name = "w"}, {buffer = #plan.buf<params + 256 : 8xf32>, init = #tc.init<zeros>, name = "b"}]} {
  plan.constant #plan.buf<constants + 0 : 2xf32> = dense<[1.0, 2.0]> : tensor<2xf32>
  plan.constant #plan.buf<constants + 64 : 2x3xf32> = dense<0.5> : tensor<2x3xf32>
  plan.constant #plan.buf<constants + 128 : i64> = dense<7> : tensor<i64>
  plan.constant #plan.buf<constants + 192 : 4xi1> = dense<[true, false, false, true]> : tensor<4xi1>

  // The attribute in every space, contiguous (no strides printed) and
  // strided (strides printed), as function attributes where it keeps its
  // prefix. A view written with its row-major strides prints without them;
  // one whose extent-1 dimension has another stride keeps them (so that the
  // printed form parses back to the same attribute); zero-extent
  // and rank-0 views round-trip too.
  // CHECK-LABEL: func.func @buffers()
  // CHECK-SAME: plan.arena_bytes = 2048 : i64
  // CHECK-SAME: plan.inputs = [{buffer = #plan.buf<inputs + 0 : 2x6xi32>, name = "ids"}, {buffer = #plan.buf<inputs + 64 : 2xi64>, name = "rng"}]
  // CHECK-SAME: plan.outputs = [{buffer = #plan.buf<outputs + 0 : f32>, name = "loss"}]
  // CHECK-SAME: views = [#plan.buf<arena + 1024 : 2x4x6x4xf32, strides [96, 4, 16, 1]>, #plan.buf<params + 0 : 3x4xf32>, #plan.buf<grads + 16 : 4x3xf32, strides [1, 4]>, #plan.buf<adam_m + 0 : 8xf32>, #plan.buf<adam_v + 4 : 8xf32, strides [2]>, #plan.buf<inputs + 0 : 2x3xf32>, #plan.buf<outputs + 0 : 1x4xf32, strides [99, 1]>, #plan.buf<constants + 0 : 0x4xf16>, #plan.buf<arena + 8 : bf16>, #plan.buf<arena + 0 : 2x1x3xi1>, #plan.buf<arena + 0 : 3xf64, strides [0]>]
  func.func @buffers() attributes {
      plan.arena_bytes = 2048 : i64,
      plan.inputs = [{buffer = #plan.buf<inputs + 0 : 2x6xi32>, name = "ids"}, {buffer = #plan.buf<inputs + 64 : 2xi64>, name = "rng"}],
      plan.outputs = [{buffer = #plan.buf<outputs + 0 : f32>, name = "loss"}],
      views = [#plan.buf<arena + 1024 : 2x4x6x4xf32, strides [96, 4, 16, 1]>,
               #plan.buf<params + 0 : 3x4xf32, strides [4, 1]>,
               #plan.buf<grads + 16 : 4x3xf32, strides [1, 4]>,
               #plan.buf<adam_m + 0 : 8xf32>,
               #plan.buf<adam_v + 4 : 8xf32, strides [2]>,
               #plan.buf<inputs + 0 : 2x3xf32>,
               #plan.buf<outputs + 0 : 1x4xf32, strides [99, 1]>,
               #plan.buf<constants + 0 : 0x4xf16>,
               #plan.buf<arena + 8 : bf16>,
               #plan.buf<arena + 0 : 2x1x3xi1>,
               #plan.buf<arena + 0 : 3xf64, strides [0]>]} {
    return
  }

  // Every step: launches (contiguous buffers, written with or without
  // strides; one, two or no inputs), a batched strided GEMM with a bias and ReLU, a plain GEMM with
  // transpose_lhs, a GEMM of bf16 operands (f32 output and bias), one of
  // bf16 operands storing bf16 (no bias), one
  // computing in TF32 (`compute f32`, the default, is not printed), a strided copy, a rank-0 copy, allreduces of gradients and
  // of an arena token count, and the wait that ends them.
  // CHECK-LABEL: func.func @steps()
  // CHECK-NEXT: plan.launch @exp_kernel ins [#plan.buf<arena + 0 : 2x3xf32>] outs [#plan.buf<arena + 64 : 2x3xf32>] grid [1, 1, 1] block [256, 1, 1]
  // CHECK-NEXT: plan.launch @two_results ins [#plan.buf<arena + 0 : 2x3x5xf32>, #plan.buf<inputs + 0 : 2x3xi32>] outs [#plan.buf<outputs + 0 : f32>, #plan.buf<outputs + 64 : i32>] grid [6, 1, 1] block [32, 1, 1]
  // CHECK-NEXT: plan.launch @no_inputs ins [] outs [#plan.buf<arena + 256 : 4x4xi1>] grid [1, 2, 3] block [4, 5, 6]
  // CHECK-NEXT: plan.gemm <arena + 0 : 2x4x6x4xf32, strides [288, 4, 48, 1]>, <params + 0 : 8x4xf32> -> <grads + 0 : 2x4x6x8xf32> bias <params + 256 : 8xf32> {alpha = 1.000000e+00 : f32, batch = array<i64: 2, 4>, beta = 0.000000e+00 : f32, k = 4 : i64, lda = 48 : i64, ldb = 4 : i64, ldc = 8 : i64, lhs_batch_strides = array<i64: 288, 4>, m = 6 : i64, n = 8 : i64, out_batch_strides = array<i64: 192, 48>, relu, rhs_batch_strides = array<i64: 0, 0>, transpose_rhs}
  // CHECK-NEXT: plan.gemm <outputs + 0 : 10x16xf32>, <arena + 0 : 10x24xf32> -> <arena + 512 : 24x16xf32, strides [1, 24]> {alpha = 5.000000e-01 : f32, batch = array<i64>, beta = 1.000000e+00 : f32, k = 10 : i64, lda = 16 : i64, ldb = 24 : i64, ldc = 24 : i64, lhs_batch_strides = array<i64>, m = 16 : i64, n = 24 : i64, out_batch_strides = array<i64>, rhs_batch_strides = array<i64>, transpose_lhs}
  // CHECK-NEXT: plan.gemm <arena + 1152 : 4x4xbf16>, <arena + 1216 : 4x4xbf16> -> <arena + 1280 : 4x4xf32> bias <arena + 1344 : 4xf32> {alpha
  // CHECK-NEXT: plan.gemm <arena + 1152 : 4x4xbf16>, <arena + 1216 : 4x4xbf16> -> <arena + 1472 : 4x4xbf16> {alpha
  // CHECK-NEXT: plan.gemm <arena + 1280 : 4x4xf32>, <arena + 1280 : 4x4xf32> -> <arena + 1408 : 4x4xf32> compute tf32 {alpha
  // CHECK-NEXT: plan.copy <arena + 512 : 4x3xf32, strides [1, 4]> -> <outputs + 64 : 4x3xf32>
  // CHECK-NEXT: plan.copy <arena + 64 : f32> -> <outputs + 0 : f32>
  // CHECK-NEXT: plan.allreduce <grads + 0 : 72xf32>
  // CHECK-NEXT: plan.allreduce <arena + 1024 : i32>
  // CHECK-NEXT: plan.wait
  // CHECK-NEXT: return
  func.func @steps() attributes {plan.arena_bytes = 2048 : i64, plan.inputs = [], plan.outputs = []} {
    plan.launch @exp_kernel ins [#plan.buf<arena + 0 : 2x3xf32>] outs [#plan.buf<arena + 64 : 2x3xf32, strides [3, 1]>] grid [1, 1, 1] block [256, 1, 1]
    plan.launch @two_results ins [#plan.buf<arena + 0 : 2x3x5xf32, strides [15, 5, 1]>, #plan.buf<inputs + 0 : 2x3xi32>] outs [#plan.buf<outputs + 0 : f32>, #plan.buf<outputs + 64 : i32>] grid [6, 1, 1] block [32, 1, 1]
    plan.launch @no_inputs ins [] outs [#plan.buf<arena + 256 : 4x4xi1>] grid [1, 2, 3] block [4, 5, 6]
    plan.gemm #plan.buf<arena + 0 : 2x4x6x4xf32, strides [288, 4, 48, 1]>, #plan.buf<params + 0 : 8x4xf32> -> #plan.buf<grads + 0 : 2x4x6x8xf32> bias #plan.buf<params + 256 : 8xf32> {m = 6 : i64, n = 8 : i64, k = 4 : i64, lda = 48 : i64, ldb = 4 : i64, ldc = 8 : i64, batch = array<i64: 2, 4>, lhs_batch_strides = array<i64: 288, 4>, rhs_batch_strides = array<i64: 0, 0>, out_batch_strides = array<i64: 192, 48>, alpha = 1.0 : f32, beta = 0.0 : f32, transpose_rhs, relu}
    plan.gemm <outputs + 0 : 10x16xf32>, <arena + 0 : 10x24xf32> -> <arena + 512 : 24x16xf32, strides [1, 24]> {m = 16 : i64, n = 24 : i64, k = 10 : i64, lda = 16 : i64, ldb = 24 : i64, ldc = 24 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 0.5 : f32, beta = 1.0 : f32, transpose_lhs}
    plan.gemm <arena + 1152 : 4x4xbf16>, <arena + 1216 : 4x4xbf16> -> <arena + 1280 : 4x4xf32> bias <arena + 1344 : 4xf32> compute f32 {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
    plan.gemm <arena + 1152 : 4x4xbf16>, <arena + 1216 : 4x4xbf16> -> <arena + 1472 : 4x4xbf16> {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
    plan.gemm <arena + 1280 : 4x4xf32>, <arena + 1280 : 4x4xf32> -> <arena + 1408 : 4x4xf32> compute tf32 {m = 4 : i64, n = 4 : i64, k = 4 : i64, lda = 4 : i64, ldb = 4 : i64, ldc = 4 : i64, batch = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>, alpha = 1.0 : f32, beta = 0.0 : f32}
    plan.copy #plan.buf<arena + 512 : 4x3xf32, strides [1, 4]> -> #plan.buf<outputs + 64 : 4x3xf32>
    plan.copy <arena + 64 : f32> -> <outputs + 0 : f32>
    plan.allreduce #plan.buf<grads + 0 : 72xf32>
    plan.allreduce <arena + 1024 : i32>
    plan.wait
    return
  }

  // The kernels: private functions holding one tc op, marked plan.kernel;
  // their argument and result types are the launches' buffer shapes.
  // CHECK-LABEL: func.func private @exp_kernel(
  // CHECK-SAME: %{{.*}}: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel}
  // CHECK-NEXT: tc.exp
  func.func private @exp_kernel(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {plan.kernel} {
    %0 = tc.exp %x : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }

  // CHECK-LABEL: func.func private @two_results(
  // CHECK-SAME: %{{.*}}: tensor<2x3x5xf32>, %{{.*}}: tensor<2x3xi32>) -> (tensor<f32>, tensor<i32>) attributes {plan.kernel}
  // CHECK-NEXT: tc.cross_entropy
  func.func private @two_results(%logits: tensor<2x3x5xf32>, %targets: tensor<2x3xi32>) -> (tensor<f32>, tensor<i32>) attributes {plan.kernel} {
    %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 1.0e-01 ignore_index = 0 : tensor<2x3x5xf32>, tensor<2x3xi32> -> tensor<f32>, tensor<i32>
    return %loss, %tokens : tensor<f32>, tensor<i32>
  }

  // CHECK-LABEL: func.func private @no_inputs()
  // CHECK-SAME: -> tensor<4x4xi1> attributes {plan.kernel}
  // CHECK-NEXT: tc.causal_mask : tensor<4x4xi1>
  func.func private @no_inputs() -> tensor<4x4xi1> attributes {plan.kernel} {
    %0 = tc.causal_mask : tensor<4x4xi1>
    return %0 : tensor<4x4xi1>
  }
}
