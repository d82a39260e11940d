// Round trip of every tc operation and of the parameter argument attributes:
// the custom form parses and prints back unchanged (1), printing and parsing
// again is stable (2), and the generic form parses back to the same custom
// form (3). The CHECK lines spell out the printed form of each op, so a change
// to an assembly format fails here.

// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// Dense and splat constants of every element type tc.constant accepts.
// CHECK-LABEL: func.func @constants()
// CHECK-NEXT: tc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: tc.constant dense<-1.000000e+09> : tensor<f32>
// CHECK-NEXT: tc.constant dense<1.500000e+00> : tensor<2x3xf16>
// CHECK-NEXT: tc.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
// CHECK-NEXT: tc.constant dense<1.000000e-01> : tensor<f64>
// CHECK-NEXT: tc.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK-NEXT: tc.constant dense<[1, -2]> : tensor<2xi64>
// CHECK-NEXT: tc.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT: return
func.func @constants() {
  %0 = tc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = tc.constant dense<-1.0e9> : tensor<f32>
  %2 = tc.constant dense<1.5> : tensor<2x3xf16>
  %3 = tc.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  %4 = tc.constant dense<0.1> : tensor<f64>
  %5 = tc.constant dense<[1, 2, 3]> : tensor<3xi32>
  %6 = tc.constant dense<[1, -2]> : tensor<2xi64>
  %7 = tc.constant dense<[true, false]> : tensor<2xi1>
  return
}

// The result of a constant is usable as an operand.
// CHECK-LABEL: func.func @constant_use(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[C:%.*]] = tc.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: [[R:%.*]] = tc.mul [[X]], [[C]] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: return [[R]] : tensor<2x3xf32>
func.func @constant_use(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = tc.constant dense<2.0> : tensor<f32>
  %r = tc.mul %x, %c : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

// The five binary ops, with equal shapes, a broadcast row and a scalar.
// CHECK-LABEL: func.func @binary(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>, [[B:%.*]]: tensor<3xf32>, [[S:%.*]]: tensor<f32>, [[C:%.*]]: tensor<2x1xf32>)
// CHECK-NEXT: [[ADD:%.*]] = tc.add [[X]], [[B]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: [[SUB:%.*]] = tc.sub [[ADD]], [[X]] : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: [[MUL:%.*]] = tc.mul [[S]], [[SUB]] : tensor<f32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: [[DIV:%.*]] = tc.div [[MUL]], [[C]] : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
// CHECK-NEXT: [[MAX:%.*]] = tc.max [[C]], [[B]] : tensor<2x1xf32>, tensor<3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return [[DIV]], [[MAX]] : tensor<2x3xf32>, tensor<2x3xf32>
func.func @binary(%x: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>,
                  %c: tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %add = tc.add %x, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %sub = tc.sub %add, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %mul = tc.mul %s, %sub : tensor<f32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %div = tc.div %mul, %c : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %max = tc.max %c, %b : tensor<2x1xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %div, %max : tensor<2x3xf32>, tensor<2x3xf32>
}

// The seven unary ops, chained.
// CHECK-LABEL: func.func @unary(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[NEG:%.*]] = tc.neg [[X]] : tensor<2x3xf32>
// CHECK-NEXT: [[EXP:%.*]] = tc.exp [[NEG]] : tensor<2x3xf32>
// CHECK-NEXT: [[LOG:%.*]] = tc.log [[EXP]] : tensor<2x3xf32>
// CHECK-NEXT: [[SQRT:%.*]] = tc.sqrt [[LOG]] : tensor<2x3xf32>
// CHECK-NEXT: [[RSQRT:%.*]] = tc.rsqrt [[SQRT]] : tensor<2x3xf32>
// CHECK-NEXT: [[TANH:%.*]] = tc.tanh [[RSQRT]] : tensor<2x3xf32>
// CHECK-NEXT: [[RELU:%.*]] = tc.relu [[TANH]] : tensor<2x3xf32>
// CHECK-NEXT: return [[RELU]] : tensor<2x3xf32>
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tc.neg %x : tensor<2x3xf32>
  %1 = tc.exp %0 : tensor<2x3xf32>
  %2 = tc.log %1 : tensor<2x3xf32>
  %3 = tc.sqrt %2 : tensor<2x3xf32>
  %4 = tc.rsqrt %3 : tensor<2x3xf32>
  %5 = tc.tanh %4 : tensor<2x3xf32>
  %6 = tc.relu %5 : tensor<2x3xf32>
  return %6 : tensor<2x3xf32>
}

// Every comparison predicate, on floats (broadcast, scalar) and on i32 ids.
// CHECK-LABEL: func.func @compare(
// CHECK-SAME: [[A:%.*]]: tensor<4xf32>, [[B:%.*]]: tensor<f32>, [[M:%.*]]: tensor<2x4xf32>, [[I:%.*]]: tensor<2x5xi32>, [[J:%.*]]: tensor<i32>)
// CHECK-NEXT: tc.compare eq, [[A]], [[B]] : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
// CHECK-NEXT: tc.compare ne, [[A]], [[A]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT: tc.compare lt, [[M]], [[A]] : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x4xi1>
// CHECK-NEXT: tc.compare le, [[B]], [[M]] : tensor<f32>, tensor<2x4xf32> -> tensor<2x4xi1>
// CHECK-NEXT: tc.compare gt, [[I]], [[J]] : tensor<2x5xi32>, tensor<i32> -> tensor<2x5xi1>
// CHECK-NEXT: tc.compare ge, [[I]], [[I]] : tensor<2x5xi32>, tensor<2x5xi32> -> tensor<2x5xi1>
// CHECK-NEXT: return
func.func @compare(%a: tensor<4xf32>, %b: tensor<f32>, %m: tensor<2x4xf32>,
                   %i: tensor<2x5xi32>, %j: tensor<i32>) {
  %0 = tc.compare eq, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %1 = tc.compare ne, %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %2 = tc.compare lt, %m, %a : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x4xi1>
  %3 = tc.compare le, %b, %m : tensor<f32>, tensor<2x4xf32> -> tensor<2x4xi1>
  %4 = tc.compare gt, %i, %j : tensor<2x5xi32>, tensor<i32> -> tensor<2x5xi1>
  %5 = tc.compare ge, %i, %i : tensor<2x5xi32>, tensor<2x5xi32> -> tensor<2x5xi1>
  return
}

// Select broadcasts its mask, both branches, and works on i32 too.
// CHECK-LABEL: func.func @select(
// CHECK-SAME: [[MASK:%.*]]: tensor<1x1x4x4xi1>, [[S:%.*]]: tensor<2x8x4x4xf32>, [[C:%.*]]: tensor<4xi1>, [[I:%.*]]: tensor<4xi32>)
// CHECK-NEXT: [[NEG:%.*]] = tc.constant dense<-1.000000e+09> : tensor<f32>
// CHECK-NEXT: [[R:%.*]] = tc.select [[MASK]], [[S]], [[NEG]] : tensor<1x1x4x4xi1>, tensor<2x8x4x4xf32>, tensor<f32> -> tensor<2x8x4x4xf32>
// CHECK-NEXT: [[Z:%.*]] = tc.constant dense<0> : tensor<i32>
// CHECK-NEXT: [[RI:%.*]] = tc.select [[C]], [[I]], [[Z]] : tensor<4xi1>, tensor<4xi32>, tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: return [[R]], [[RI]]
func.func @select(%mask: tensor<1x1x4x4xi1>, %s: tensor<2x8x4x4xf32>,
                  %c: tensor<4xi1>, %i: tensor<4xi32>)
    -> (tensor<2x8x4x4xf32>, tensor<4xi32>) {
  %neg = tc.constant dense<-1.0e9> : tensor<f32>
  %r = tc.select %mask, %s, %neg
      : tensor<1x1x4x4xi1>, tensor<2x8x4x4xf32>, tensor<f32> -> tensor<2x8x4x4xf32>
  %z = tc.constant dense<0> : tensor<i32>
  %ri = tc.select %c, %i, %z : tensor<4xi1>, tensor<4xi32>, tensor<i32> -> tensor<4xi32>
  return %r, %ri : tensor<2x8x4x4xf32>, tensor<4xi32>
}

// Conversions between integer, mask and float element types.
// CHECK-LABEL: func.func @convert(
// CHECK-SAME: [[N:%.*]]: tensor<i32>, [[M:%.*]]: tensor<2x5xi1>, [[X:%.*]]: tensor<3xf32>)
// CHECK-NEXT: tc.convert [[N]] : tensor<i32> -> tensor<f32>
// CHECK-NEXT: tc.convert [[M]] : tensor<2x5xi1> -> tensor<2x5xf32>
// CHECK-NEXT: tc.convert [[X]] : tensor<3xf32> -> tensor<3xbf16>
// CHECK-NEXT: tc.convert [[X]] : tensor<3xf32> -> tensor<3xi32>
// CHECK-NEXT: tc.convert [[X]] : tensor<3xf32> -> tensor<3xf64>
// CHECK-NEXT: return
func.func @convert(%n: tensor<i32>, %m: tensor<2x5xi1>, %x: tensor<3xf32>) {
  %0 = tc.convert %n : tensor<i32> -> tensor<f32>
  %1 = tc.convert %m : tensor<2x5xi1> -> tensor<2x5xf32>
  %2 = tc.convert %x : tensor<3xf32> -> tensor<3xbf16>
  %3 = tc.convert %x : tensor<3xf32> -> tensor<3xi32>
  %4 = tc.convert %x : tensor<3xf32> -> tensor<3xf64>
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// The three reductions, dropping and keeping the reduced axes.
// CHECK-LABEL: func.func @reductions(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: tc.reduce_sum [[X]] axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: tc.reduce_sum [[X]] axes = [0, 2] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: tc.reduce_max [[X]] axes = [2] : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT: tc.reduce_max [[X]] axes = [2] keep_dims : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
// CHECK-NEXT: tc.reduce_mean [[X]] axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
// CHECK-NEXT: tc.reduce_mean [[X]] axes = [0] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x4xf32>
// CHECK-NEXT: return
func.func @reductions(%x: tensor<2x3x4xf32>) {
  %0 = tc.reduce_sum %x axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %1 = tc.reduce_sum %x axes = [0, 2] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %2 = tc.reduce_max %x axes = [2] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %3 = tc.reduce_max %x axes = [2] keep_dims : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %4 = tc.reduce_mean %x axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %5 = tc.reduce_mean %x axes = [0] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// Plain, transposed and batched products, and a batch broadcast of an
// activation [B, T, in] against a weight [out, in].
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: [[A:%.*]]: tensor<5x8xf32>, [[B:%.*]]: tensor<8x16xf32>, [[X:%.*]]: tensor<2x5x8xf32>, [[W:%.*]]: tensor<16x8xf32>, [[Q:%.*]]: tensor<2x4x5x8xf32>, [[K:%.*]]: tensor<1x4x8x5xf32>)
// CHECK-NEXT: tc.matmul [[A]], [[B]] : tensor<5x8xf32>, tensor<8x16xf32> -> tensor<5x16xf32>
// CHECK-NEXT: tc.matmul [[A]], [[A]] {transpose_lhs} : tensor<5x8xf32>, tensor<5x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: tc.matmul [[A]], [[W]] {transpose_rhs} : tensor<5x8xf32>, tensor<16x8xf32> -> tensor<5x16xf32>
// CHECK-NEXT: tc.matmul [[B]], [[W]] {transpose_lhs, transpose_rhs} : tensor<8x16xf32>, tensor<16x8xf32> -> tensor<16x16xf32>
// CHECK-NEXT: tc.matmul [[Q]], [[Q]] {transpose_rhs} : tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32> -> tensor<2x4x5x5xf32>
// CHECK-NEXT: tc.matmul [[X]], [[W]] {transpose_rhs} : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<2x5x16xf32>
// CHECK-NEXT: tc.matmul [[Q]], [[K]] : tensor<2x4x5x8xf32>, tensor<1x4x8x5xf32> -> tensor<2x4x5x5xf32>
// CHECK-NEXT: return
func.func @matmul(%a: tensor<5x8xf32>, %b: tensor<8x16xf32>, %x: tensor<2x5x8xf32>,
                  %w: tensor<16x8xf32>, %q: tensor<2x4x5x8xf32>,
                  %k: tensor<1x4x8x5xf32>) {
  %0 = tc.matmul %a, %b : tensor<5x8xf32>, tensor<8x16xf32> -> tensor<5x16xf32>
  %1 = tc.matmul %a, %a {transpose_lhs} : tensor<5x8xf32>, tensor<5x8xf32> -> tensor<8x8xf32>
  %2 = tc.matmul %a, %w {transpose_rhs} : tensor<5x8xf32>, tensor<16x8xf32> -> tensor<5x16xf32>
  %3 = tc.matmul %b, %w {transpose_lhs, transpose_rhs}
      : tensor<8x16xf32>, tensor<16x8xf32> -> tensor<16x16xf32>
  %4 = tc.matmul %q, %q {transpose_rhs}
      : tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32> -> tensor<2x4x5x5xf32>
  %5 = tc.matmul %x, %w {transpose_rhs}
      : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<2x5x16xf32>
  %6 = tc.matmul %q, %k : tensor<2x4x5x8xf32>, tensor<1x4x8x5xf32> -> tensor<2x4x5x5xf32>
  return
}

// Mixed precision: bf16 operands with an f32 (or bf16) result, and a linear
// of bf16 input and weight with an f32 bias and result.
// CHECK-LABEL: func.func @bf16_gemms(
// CHECK-NEXT: tc.matmul %arg0, %arg1 : tensor<5x8xbf16>, tensor<8x16xbf16> -> tensor<5x16xf32>
// CHECK-NEXT: tc.matmul %arg0, %arg1 : tensor<5x8xbf16>, tensor<8x16xbf16> -> tensor<5x16xbf16>
// CHECK-NEXT: tc.linear %arg0, %arg2, %arg3 : tensor<5x8xbf16>, tensor<16x8xbf16>, tensor<16xf32> -> tensor<5x16xf32>
func.func @bf16_gemms(%a: tensor<5x8xbf16>, %b: tensor<8x16xbf16>,
                      %w: tensor<16x8xbf16>, %bias: tensor<16xf32>) {
  %0 = tc.matmul %a, %b : tensor<5x8xbf16>, tensor<8x16xbf16> -> tensor<5x16xf32>
  %1 = tc.matmul %a, %b : tensor<5x8xbf16>, tensor<8x16xbf16> -> tensor<5x16xbf16>
  %2 = tc.linear %a, %w, %bias : tensor<5x8xbf16>, tensor<16x8xbf16>, tensor<16xf32> -> tensor<5x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// Neural-network operations
//===----------------------------------------------------------------------===//

// Softmax over the last axis and over a middle axis.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: [[X:%.*]]: tensor<2x8x4x4xf32>)
// CHECK-NEXT: [[P:%.*]] = tc.softmax [[X]] axis = 3 : tensor<2x8x4x4xf32>
// CHECK-NEXT: tc.softmax [[P]] axis = 1 : tensor<2x8x4x4xf32>
// CHECK-NEXT: return
func.func @softmax(%x: tensor<2x8x4x4xf32>) {
  %0 = tc.softmax %x axis = 3 : tensor<2x8x4x4xf32>
  %1 = tc.softmax %0 axis = 1 : tensor<2x8x4x4xf32>
  return
}

// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME: [[X:%.*]]: tensor<4x1x10xf32>)
// CHECK-NEXT: tc.log_softmax [[X]] : tensor<4x1x10xf32>
// CHECK-NEXT: return
func.func @log_softmax(%x: tensor<4x1x10xf32>) {
  %0 = tc.log_softmax %x : tensor<4x1x10xf32>
  return
}

// Layer normalisation over the last dimension.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME: [[X:%.*]]: tensor<2x5x8xf32>, [[G:%.*]]: tensor<8xf32>, [[B:%.*]]: tensor<8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT: [[Y:%.*]] = tc.layer_norm [[X]], [[G]], [[B]] epsilon = 1.000000e-05 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: return [[Y]] : tensor<2x5x8xf32>
func.func @layer_norm(%x: tensor<2x5x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>)
    -> tensor<2x5x8xf32> {
  %y = tc.layer_norm %x, %g, %b epsilon = 1.0e-05
      : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %y : tensor<2x5x8xf32>
}

// Embedding lookups with ids of rank 2 and rank 0.
// CHECK-LABEL: func.func @embedding(
// CHECK-SAME: [[T:%.*]]: tensor<100x8xf32>, [[IDS:%.*]]: tensor<2x5xi32>, [[ID:%.*]]: tensor<i32>)
// CHECK-NEXT: tc.embedding [[T]], [[IDS]] : tensor<100x8xf32>, tensor<2x5xi32> -> tensor<2x5x8xf32>
// CHECK-NEXT: tc.embedding [[T]], [[ID]] : tensor<100x8xf32>, tensor<i32> -> tensor<8xf32>
// CHECK-NEXT: return
func.func @embedding(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %id: tensor<i32>) {
  %0 = tc.embedding %t, %ids : tensor<100x8xf32>, tensor<2x5xi32> -> tensor<2x5x8xf32>
  %1 = tc.embedding %t, %id : tensor<100x8xf32>, tensor<i32> -> tensor<8xf32>
  return
}

// Dropout with a rate and a key, and the identity rate 0.
// CHECK-LABEL: func.func @dropout(
// CHECK-SAME: [[X:%.*]]: tensor<2x5x8xf32>, [[RNG:%.*]]: tensor<2xi64>)
// CHECK-NEXT: tc.dropout [[X]], [[RNG]] rate = 1.000000e-01 key = 3 : tensor<2x5x8xf32>, tensor<2xi64>
// CHECK-NEXT: tc.dropout [[X]], [[RNG]] rate = 0.000000e+00 key = 0 : tensor<2x5x8xf32>, tensor<2xi64>
// CHECK-NEXT: return
func.func @dropout(%x: tensor<2x5x8xf32>, %rng: tensor<2xi64>) {
  %0 = tc.dropout %x, %rng rate = 1.0e-01 key = 3 : tensor<2x5x8xf32>, tensor<2xi64>
  %1 = tc.dropout %x, %rng rate = 0.0 key = 0 : tensor<2x5x8xf32>, tensor<2xi64>
  return
}

// The causal and padding masks.
// CHECK-LABEL: func.func @masks(
// CHECK-SAME: [[IDS:%.*]]: tensor<2x5xi32>)
// CHECK-NEXT: tc.causal_mask : tensor<4x4xi1>
// CHECK-NEXT: tc.padding_mask [[IDS]] pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
// CHECK-NEXT: tc.padding_mask [[IDS]] pad_id = -1 : tensor<2x5xi32> -> tensor<2x5xi1>
// CHECK-NEXT: return
func.func @masks(%ids: tensor<2x5xi32>) {
  %0 = tc.causal_mask : tensor<4x4xi1>
  %1 = tc.padding_mask %ids pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
  %2 = tc.padding_mask %ids pad_id = -1 : tensor<2x5xi32> -> tensor<2x5xi1>
  return
}

// The incremental decoder's ops: a step's prefix mask, a cache update and
// the beam's parent table.
// CHECK-LABEL: func.func @incremental_decoding(
// CHECK-SAME: [[K:%[^:]*]]: tensor<4x8x16xf32>, [[NEW:%[^:]*]]: tensor<4x1x16xf32>, [[HISTORY:%[^:]*]]: tensor<4x8xi32>, [[ORIGIN:%[^:]*]]: tensor<4xi32>, [[POS:%[^:]*]]: tensor<4xi32>)
// CHECK-NEXT: tc.prefix_mask [[POS]] : tensor<4xi32> -> tensor<4x8xi1>
// CHECK-NEXT: tc.cache_update [[K]], [[NEW]], [[POS]] : tensor<4x8x16xf32>, tensor<4x1x16xf32>, tensor<4xi32>
// CHECK-NEXT: tc.beam_history [[HISTORY]], [[ORIGIN]], [[POS]] : tensor<4x8xi32>, tensor<4xi32>, tensor<4xi32>
// CHECK-NEXT: return
func.func @incremental_decoding(%k: tensor<4x8x16xf32>, %new: tensor<4x1x16xf32>, %history: tensor<4x8xi32>, %origin: tensor<4xi32>, %position: tensor<4xi32>) -> (tensor<4x8x16xf32>, tensor<4x8xi32>) {
  %0 = tc.prefix_mask %position : tensor<4xi32> -> tensor<4x8xi1>
  %1 = tc.cache_update %k, %new, %position : tensor<4x8x16xf32>, tensor<4x1x16xf32>, tensor<4xi32>
  %2 = tc.beam_history %history, %origin, %position : tensor<4x8xi32>, tensor<4xi32>, tensor<4xi32>
  return %1, %2 : tensor<4x8x16xf32>, tensor<4x8xi32>
}

// A decoder step's candidates: each row's k largest log-probabilities and
// their token ids.
// CHECK-LABEL: func.func @top_k(
// CHECK-SAME: [[X:%[^:]*]]: tensor<4x24xf32>)
// CHECK-NEXT: tc.top_k [[X]] k = 8 : tensor<4x24xf32> -> tensor<4x8xf32>, tensor<4x8xi32>
// CHECK-NEXT: return
func.func @top_k(%x: tensor<4x24xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %values, %indices = tc.top_k %x k = 8 : tensor<4x24xf32> -> tensor<4x8xf32>, tensor<4x8xi32>
  return %values, %indices : tensor<4x8xf32>, tensor<4x8xi32>
}

// The same candidates straight from the logits: log-softmax plus an addend
// per column, its top k, and one column (tc-fuse-log-softmax-top-k).
// CHECK-LABEL: func.func @log_softmax_top_k(
// CHECK-SAME: [[X:%[^:]*]]: tensor<4x24xf32>, [[A:%[^:]*]]: tensor<24xf32>)
// CHECK-NEXT: tc.log_softmax_top_k [[X]], [[A]] k = 8 column = 2 : tensor<4x24xf32>, tensor<24xf32> -> tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x1xf32>
// CHECK-NEXT: return
func.func @log_softmax_top_k(%x: tensor<4x24xf32>, %a: tensor<24xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x1xf32>) {
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 8 column = 2 : tensor<4x24xf32>, tensor<24xf32> -> tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x1xf32>
  return %v, %i, %c : tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x1xf32>
}

// The decoder's fused attention: over a row's own cache up to a limit;
// through the beam's parent table; over a shared cache row through a slot
// table, under a key mask.
// CHECK-LABEL: func.func @cached_attention(
// CHECK-SAME: [[Q:%[^:]*]]: tensor<4x1x8xf32>, [[K:%[^:]*]]: tensor<4x6x8xf32>, [[V:%[^:]*]]: tensor<4x6x8xf32>, [[POS:%[^:]*]]: tensor<4xi32>, [[HISTORY:%[^:]*]]: tensor<4x6xi32>, [[CK:%[^:]*]]: tensor<2x5x8xf32>, [[CV:%[^:]*]]: tensor<2x5x8xf32>, [[SLOT:%[^:]*]]: tensor<4xi32>, [[MASK:%[^:]*]]: tensor<2x5xi1>)
// CHECK-NEXT: tc.cached_attention [[Q]], [[K]], [[V]] limit [[POS]] {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4xi32>) -> tensor<4x1x8xf32>
// CHECK-NEXT: tc.cached_attention [[Q]], [[K]], [[V]] history [[HISTORY]] limit [[POS]] {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4x6xi32>, tensor<4xi32>) -> tensor<4x1x8xf32>
// CHECK-NEXT: tc.cached_attention [[Q]], [[CK]], [[CV]] slot [[SLOT]] mask [[MASK]] {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<4xi32>, tensor<2x5xi1>) -> tensor<4x1x8xf32>
// CHECK-NEXT: return
func.func @cached_attention(%q: tensor<4x1x8xf32>, %k: tensor<4x6x8xf32>, %v: tensor<4x6x8xf32>, %position: tensor<4xi32>, %history: tensor<4x6xi32>, %ck: tensor<2x5x8xf32>, %cv: tensor<2x5x8xf32>, %slot: tensor<4xi32>, %mask: tensor<2x5xi1>) -> (tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x1x8xf32>) {
  %0 = tc.cached_attention %q, %k, %v limit %position {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4xi32>) -> tensor<4x1x8xf32>
  %1 = tc.cached_attention %q, %k, %v history %history limit %position {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4x6xi32>, tensor<4xi32>) -> tensor<4x1x8xf32>
  %2 = tc.cached_attention %q, %ck, %cv slot %slot mask %mask {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<4xi32>, tensor<2x5xi1>) -> tensor<4x1x8xf32>
  return %0, %1, %2 : tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x1x8xf32>
}

// The sum over the ranks of a data-parallel job: result types are the
// inputs'.
// CHECK-LABEL: func.func @all_reduce(
// CHECK-SAME: [[G:%[^:]*]]: tensor<4x8xf32>, [[N:%[^:]*]]: tensor<i32>)
// CHECK-NEXT: [[E:%.*]] = tc.exp [[G]] : tensor<4x8xf32>
// CHECK-NEXT: [[C:%.*]] = tc.add [[N]], [[N]] : tensor<i32>, tensor<i32> -> tensor<i32>
// CHECK-NEXT: [[S:%.*]]:2 = tc.all_reduce [[E]], [[C]] : tensor<4x8xf32>, tensor<i32>
// CHECK-NEXT: return [[S]]#0, [[S]]#1
func.func @all_reduce(%g: tensor<4x8xf32>, %n: tensor<i32>) -> (tensor<4x8xf32>, tensor<i32>) {
  %e = tc.exp %g : tensor<4x8xf32>
  %c = tc.add %n, %n : tensor<i32>, tensor<i32> -> tensor<i32>
  %s:2 = tc.all_reduce %e, %c : tensor<4x8xf32>, tensor<i32>
  return %s#0, %s#1 : tensor<4x8xf32>, tensor<i32>
}

// The sinusoidal positional encoding.
// CHECK-LABEL: func.func @positional_encoding()
// CHECK-NEXT: tc.positional_encoding : tensor<5x8xf32>
// CHECK-NEXT: return
func.func @positional_encoding() {
  %0 = tc.positional_encoding : tensor<5x8xf32>
  return
}

// Cross-entropy, with and without label smoothing; two results.
// CHECK-LABEL: func.func @cross_entropy(
// CHECK-SAME: [[L:%.*]]: tensor<2x5x100xf32>, [[T:%.*]]: tensor<2x5xi32>, [[L1:%.*]]: tensor<100xf32>, [[T1:%.*]]: tensor<i32>) -> (tensor<f32>, tensor<i32>)
// CHECK-NEXT: [[LOSS:%.*]], [[TOKENS:%.*]] = tc.cross_entropy [[L]], [[T]] label_smoothing = 1.000000e-01 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<i32>
// CHECK-NEXT: tc.cross_entropy [[L1]], [[T1]] label_smoothing = 0.000000e+00 ignore_index = -100 : tensor<100xf32>, tensor<i32> -> tensor<f32>, tensor<i32>
// CHECK-NEXT: return [[LOSS]], [[TOKENS]] : tensor<f32>, tensor<i32>
func.func @cross_entropy(%logits: tensor<2x5x100xf32>, %targets: tensor<2x5xi32>,
                         %l1: tensor<100xf32>, %t1: tensor<i32>)
    -> (tensor<f32>, tensor<i32>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 1.0e-01
      ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<i32>
  %0:2 = tc.cross_entropy %l1, %t1 label_smoothing = 0.0 ignore_index = -100
      : tensor<100xf32>, tensor<i32> -> tensor<f32>, tensor<i32>
  return %loss, %tokens : tensor<f32>, tensor<i32>
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// Reshape, including to and from rank 0 and on i1.
// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: [[X:%.*]]: tensor<2x5x8xf32>, [[S:%.*]]: tensor<1x1xf32>, [[M:%.*]]: tensor<2x5xi1>)
// CHECK-NEXT: tc.reshape [[X]] : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
// CHECK-NEXT: tc.reshape [[S]] : tensor<1x1xf32> -> tensor<f32>
// CHECK-NEXT: tc.reshape [[M]] : tensor<2x5xi1> -> tensor<2x1x1x5xi1>
// CHECK-NEXT: return
func.func @reshape(%x: tensor<2x5x8xf32>, %s: tensor<1x1xf32>, %m: tensor<2x5xi1>) {
  %0 = tc.reshape %x : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %1 = tc.reshape %s : tensor<1x1xf32> -> tensor<f32>
  %2 = tc.reshape %m : tensor<2x5xi1> -> tensor<2x1x1x5xi1>
  return
}

// Transposes, including the identity permutation.
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: [[X:%.*]]: tensor<2x5x2x4xf32>, [[I:%.*]]: tensor<3x7xi32>)
// CHECK-NEXT: tc.transpose [[X]] permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
// CHECK-NEXT: tc.transpose [[I]] permutation = [1, 0] : tensor<3x7xi32> -> tensor<7x3xi32>
// CHECK-NEXT: tc.transpose [[I]] permutation = [0, 1] : tensor<3x7xi32> -> tensor<3x7xi32>
// CHECK-NEXT: return
func.func @transpose(%x: tensor<2x5x2x4xf32>, %i: tensor<3x7xi32>) {
  %0 = tc.transpose %x permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  %1 = tc.transpose %i permutation = [1, 0] : tensor<3x7xi32> -> tensor<7x3xi32>
  %2 = tc.transpose %i permutation = [0, 1] : tensor<3x7xi32> -> tensor<3x7xi32>
  return
}

// Broadcasts that expand a 1, add leading dimensions, and start from rank 0.
// CHECK-LABEL: func.func @broadcast_to(
// CHECK-SAME: [[X:%.*]]: tensor<1x8xf32>, [[S:%.*]]: tensor<f32>, [[M:%.*]]: tensor<4x4xi1>)
// CHECK-NEXT: tc.broadcast_to [[X]] : tensor<1x8xf32> -> tensor<5x8xf32>
// CHECK-NEXT: tc.broadcast_to [[X]] : tensor<1x8xf32> -> tensor<2x3x8xf32>
// CHECK-NEXT: tc.broadcast_to [[S]] : tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: tc.broadcast_to [[M]] : tensor<4x4xi1> -> tensor<2x8x4x4xi1>
// CHECK-NEXT: return
func.func @broadcast_to(%x: tensor<1x8xf32>, %s: tensor<f32>, %m: tensor<4x4xi1>) {
  %0 = tc.broadcast_to %x : tensor<1x8xf32> -> tensor<5x8xf32>
  %1 = tc.broadcast_to %x : tensor<1x8xf32> -> tensor<2x3x8xf32>
  %2 = tc.broadcast_to %s : tensor<f32> -> tensor<2x3xf32>
  %3 = tc.broadcast_to %m : tensor<4x4xi1> -> tensor<2x8x4x4xi1>
  return
}

// Slices at the start, in the middle and at the end of the input.
// CHECK-LABEL: func.func @slice(
// CHECK-SAME: [[QKV:%.*]]: tensor<2x5x24xf32>)
// CHECK-NEXT: tc.slice [[QKV]] offsets = [0, 0, 0] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: tc.slice [[QKV]] offsets = [0, 0, 8] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: tc.slice [[QKV]] offsets = [1, 4, 16] : tensor<2x5x24xf32> -> tensor<1x1x8xf32>
// CHECK-NEXT: return
func.func @slice(%qkv: tensor<2x5x24xf32>) {
  %0 = tc.slice %qkv offsets = [0, 0, 0] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
  %1 = tc.slice %qkv offsets = [0, 0, 8] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
  %2 = tc.slice %qkv offsets = [1, 4, 16] : tensor<2x5x24xf32> -> tensor<1x1x8xf32>
  return
}

// Concatenation of one, two and three inputs along different axes.
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: [[A:%.*]]: tensor<2x3xf32>, [[B:%.*]]: tensor<2x4xf32>, [[C:%.*]]: tensor<1x3xf32>)
// CHECK-NEXT: tc.concat [[A]], [[B]] axis = 1 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<2x7xf32>
// CHECK-NEXT: tc.concat [[A]], [[C]], [[A]] axis = 0 : tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: tc.concat [[A]] axis = 0 : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>, %c: tensor<1x3xf32>) {
  %0 = tc.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<2x7xf32>
  %1 = tc.concat %a, %c, %a axis = 0
      : tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32> -> tensor<5x3xf32>
  %2 = tc.concat %a axis = 0 : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Parameters: tc.param and tc.init argument attributes
//===----------------------------------------------------------------------===//

// Every initializer kind; the printer sorts each argument's attributes
// (tc.init before tc.param), and an argument without attributes stays bare.
// CHECK-LABEL: func.func @parameters(
// CHECK-SAME: [[W:%.*]]: tensor<16x8xf32> {tc.init = #tc.init<xavier_uniform>, tc.param = "decoder.layers.3.cross_attn.q.weight"},
// CHECK-SAME: [[B:%.*]]: tensor<16xf32> {tc.init = #tc.init<zeros>, tc.param = "decoder.layers.3.cross_attn.q.bias"},
// CHECK-SAME: [[G:%.*]]: tensor<8xf32> {tc.init = #tc.init<ones>, tc.param = "ln.gamma"},
// CHECK-SAME: [[E:%.*]]: tensor<100x8xf32> {tc.init = #tc.init<normal(2.000000e-02)>, tc.param = "embed.weight"},
// CHECK-SAME: [[U:%.*]]: tensor<8x8xf32> {tc.init = #tc.init<uniform(1.000000e-01)>, tc.param = "u.weight"},
// CHECK-SAME: [[P:%.*]]: tensor<4xf32> {tc.param = "no_init"},
// CHECK-SAME: [[X:%.*]]: tensor<2x5x8xf32>) -> tensor<2x5x16xf32>
// CHECK-NEXT: [[Y:%.*]] = tc.matmul [[X]], [[W]] {transpose_rhs} : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<2x5x16xf32>
// CHECK-NEXT: [[R:%.*]] = tc.add [[Y]], [[B]] : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
// CHECK-NEXT: return [[R]]
func.func @parameters(
    %w: tensor<16x8xf32> {tc.param = "decoder.layers.3.cross_attn.q.weight",
                          tc.init = #tc.init<xavier_uniform>},
    %b: tensor<16xf32> {tc.param = "decoder.layers.3.cross_attn.q.bias",
                        tc.init = #tc.init<zeros>},
    %g: tensor<8xf32> {tc.param = "ln.gamma", tc.init = #tc.init<ones>},
    %e: tensor<100x8xf32> {tc.param = "embed.weight", tc.init = #tc.init<normal(0.02)>},
    %u: tensor<8x8xf32> {tc.init = #tc.init<uniform(0.1)>, tc.param = "u.weight"},
    %p: tensor<4xf32> {tc.param = "no_init"},
    %x: tensor<2x5x8xf32>) -> tensor<2x5x16xf32> {
  %y = tc.matmul %x, %w {transpose_rhs}
      : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<2x5x16xf32>
  %r = tc.add %y, %b : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  return %r : tensor<2x5x16xf32>
}

// A scale that %e cannot print exactly (1/sqrt(512)) survives the round trip
// at full precision; parameters of f16/bf16/f64 are accepted.
// CHECK-LABEL: func.func @parameter_types(
// CHECK-SAME: tensor<8x8xf32> {tc.init = #tc.init<normal(0.044194173824159216)>, tc.param = "a"},
// CHECK-SAME: tensor<8xf16> {tc.init = #tc.init<zeros>, tc.param = "b"},
// CHECK-SAME: tensor<8xbf16> {tc.init = #tc.init<ones>, tc.param = "c"},
// CHECK-SAME: tensor<8x8xf64> {tc.init = #tc.init<uniform(2.500000e-01)>, tc.param = "d"})
func.func @parameter_types(
    %a: tensor<8x8xf32> {tc.param = "a", tc.init = #tc.init<normal(0.044194173824159216)>},
    %b: tensor<8xf16> {tc.param = "b", tc.init = #tc.init<zeros>},
    %c: tensor<8xbf16> {tc.param = "c", tc.init = #tc.init<ones>},
    %d: tensor<8x8xf64> {tc.param = "d", tc.init = #tc.init<uniform(0.25)>}) {
  return
}

//===----------------------------------------------------------------------===//
// f16, bf16 and f64 element types
//===----------------------------------------------------------------------===//

// A small block in f16.
// CHECK-LABEL: func.func @f16(
// CHECK-SAME: [[X:%.*]]: tensor<2x4xf16>, [[W:%.*]]: tensor<4x4xf16>, [[G:%.*]]: tensor<4xf16>)
// CHECK-NEXT: [[MM:%.*]] = tc.matmul [[X]], [[W]] : tensor<2x4xf16>, tensor<4x4xf16> -> tensor<2x4xf16>
// CHECK-NEXT: [[LN:%.*]] = tc.layer_norm [[MM]], [[G]], [[G]] epsilon = 1.000000e-05 : tensor<2x4xf16>, tensor<4xf16>, tensor<4xf16>
// CHECK-NEXT: [[SM:%.*]] = tc.softmax [[LN]] axis = 1 : tensor<2x4xf16>
// CHECK-NEXT: [[RS:%.*]] = tc.reduce_sum [[SM]] axes = [1] : tensor<2x4xf16> -> tensor<2xf16>
// CHECK-NEXT: return [[RS]] : tensor<2xf16>
func.func @f16(%x: tensor<2x4xf16>, %w: tensor<4x4xf16>, %g: tensor<4xf16>) -> tensor<2xf16> {
  %0 = tc.matmul %x, %w : tensor<2x4xf16>, tensor<4x4xf16> -> tensor<2x4xf16>
  %1 = tc.layer_norm %0, %g, %g epsilon = 1.0e-05 : tensor<2x4xf16>, tensor<4xf16>, tensor<4xf16>
  %2 = tc.softmax %1 axis = 1 : tensor<2x4xf16>
  %3 = tc.reduce_sum %2 axes = [1] : tensor<2x4xf16> -> tensor<2xf16>
  return %3 : tensor<2xf16>
}

// Elementwise ops, embedding and cross-entropy in bf16.
// CHECK-LABEL: func.func @bf16(
// CHECK-SAME: [[T:%.*]]: tensor<10x4xbf16>, [[IDS:%.*]]: tensor<3xi32>)
// CHECK-NEXT: [[E:%.*]] = tc.embedding [[T]], [[IDS]] : tensor<10x4xbf16>, tensor<3xi32> -> tensor<3x4xbf16>
// CHECK-NEXT: [[G:%.*]] = tc.tanh [[E]] : tensor<3x4xbf16>
// CHECK-NEXT: [[S:%.*]] = tc.sub [[G]], [[E]] : tensor<3x4xbf16>, tensor<3x4xbf16> -> tensor<3x4xbf16>
// CHECK-NEXT: tc.cross_entropy [[S]], [[IDS]] label_smoothing = 1.000000e-01 ignore_index = 0 : tensor<3x4xbf16>, tensor<3xi32> -> tensor<bf16>, tensor<i32>
// CHECK-NEXT: return
func.func @bf16(%t: tensor<10x4xbf16>, %ids: tensor<3xi32>) {
  %0 = tc.embedding %t, %ids : tensor<10x4xbf16>, tensor<3xi32> -> tensor<3x4xbf16>
  %1 = tc.tanh %0 : tensor<3x4xbf16>
  %2 = tc.sub %1, %0 : tensor<3x4xbf16>, tensor<3x4xbf16> -> tensor<3x4xbf16>
  %3:2 = tc.cross_entropy %2, %ids label_smoothing = 0.1 ignore_index = 0
      : tensor<3x4xbf16>, tensor<3xi32> -> tensor<bf16>, tensor<i32>
  return
}

// Elementwise ops, dropout, compare/select and a positional encoding in f64.
// CHECK-LABEL: func.func @f64(
// CHECK-SAME: [[X:%.*]]: tensor<5x8xf64>, [[RNG:%.*]]: tensor<2xi64>)
// CHECK-NEXT: [[PE:%.*]] = tc.positional_encoding : tensor<5x8xf64>
// CHECK-NEXT: [[A:%.*]] = tc.add [[X]], [[PE]] : tensor<5x8xf64>, tensor<5x8xf64> -> tensor<5x8xf64>
// CHECK-NEXT: [[D:%.*]] = tc.dropout [[A]], [[RNG]] rate = 5.000000e-01 key = 7 : tensor<5x8xf64>, tensor<2xi64>
// CHECK-NEXT: [[M:%.*]] = tc.compare gt, [[D]], [[X]] : tensor<5x8xf64>, tensor<5x8xf64> -> tensor<5x8xi1>
// CHECK-NEXT: [[S:%.*]] = tc.select [[M]], [[D]], [[X]] : tensor<5x8xi1>, tensor<5x8xf64>, tensor<5x8xf64> -> tensor<5x8xf64>
// CHECK-NEXT: return [[S]] : tensor<5x8xf64>
func.func @f64(%x: tensor<5x8xf64>, %rng: tensor<2xi64>) -> tensor<5x8xf64> {
  %pe = tc.positional_encoding : tensor<5x8xf64>
  %0 = tc.add %x, %pe : tensor<5x8xf64>, tensor<5x8xf64> -> tensor<5x8xf64>
  %1 = tc.dropout %0, %rng rate = 0.5 key = 7 : tensor<5x8xf64>, tensor<2xi64>
  %2 = tc.compare gt, %1, %x : tensor<5x8xf64>, tensor<5x8xf64> -> tensor<5x8xi1>
  %3 = tc.select %2, %1, %x : tensor<5x8xi1>, tensor<5x8xf64>, tensor<5x8xf64> -> tensor<5x8xf64>
  return %3 : tensor<5x8xf64>
}
