// RUN: tc-opt %s --split-input-file --tc-fuse-qkv | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-fuse-qkv | tc-opt --split-input-file --verify-each > /dev/null

// Self-attention: Q, K, V of one input -> one GEMM over the adjacent weights,
// one head split of all three, and a split along the outer axis.
// CHECK-LABEL: func.func @self_attention(
// CHECK-NEXT:    %[[W:.*]] = tc.concat %arg1, %arg2, %arg3 axis = 0 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32> -> tensor<24x8xf32>
// CHECK-NEXT:    %[[B:.*]] = tc.concat %arg4, %arg5, %arg6 axis = 0 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<24xf32>
// CHECK-NEXT:    %[[Y:.*]] = tc.linear %arg0, %[[W]], %[[B]] : tensor<2x5x8xf32>, tensor<24x8xf32>, tensor<24xf32> -> tensor<2x5x24xf32>
// CHECK-NEXT:    %[[R:.*]] = tc.reshape %[[Y]] : tensor<2x5x24xf32> -> tensor<2x5x3x2x4xf32>
// CHECK-NEXT:    %[[T:.*]] = tc.transpose %[[R]] permutation = [2, 0, 3, 1, 4] : tensor<2x5x3x2x4xf32> -> tensor<3x2x2x5x4xf32>
// CHECK-NEXT:    %[[S:.*]]:3 = tc.split %[[T]] axis = 0 : tensor<3x2x2x5x4xf32> -> tensor<1x2x2x5x4xf32>, tensor<1x2x2x5x4xf32>, tensor<1x2x2x5x4xf32>
// CHECK-NEXT:    %[[Q:.*]] = tc.reshape %[[S]]#0 : tensor<1x2x2x5x4xf32> -> tensor<2x2x5x4xf32>
// CHECK-NEXT:    %[[K:.*]] = tc.reshape %[[S]]#1
// CHECK-NEXT:    %[[V:.*]] = tc.reshape %[[S]]#2
// CHECK-NEXT:    return %[[Q]], %[[K]], %[[V]]
func.func @self_attention(%x: tensor<2x5x8xf32>,
    %wq: tensor<8x8xf32> {tc.param = "q.weight"}, %wk: tensor<8x8xf32> {tc.param = "k.weight"},
    %wv: tensor<8x8xf32> {tc.param = "v.weight"}, %bq: tensor<8xf32> {tc.param = "q.bias"},
    %bk: tensor<8xf32> {tc.param = "k.bias"}, %bv: tensor<8xf32> {tc.param = "v.bias"})
    -> (tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>) {
  %q0 = tc.linear %x, %wq, %bq : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %q1 = tc.reshape %q0 : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %q = tc.transpose %q1 permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  %k0 = tc.linear %x, %wk, %bk : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %k1 = tc.reshape %k0 : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %k = tc.transpose %k1 permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  %v0 = tc.linear %x, %wv, %bv : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %v1 = tc.reshape %v0 : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %v = tc.transpose %v1 permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  return %q, %k, %v : tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>
}

// -----

// Refused: projections of different inputs; weights that are not adjacent
// parameters.
// CHECK-LABEL: func.func @refused(
// CHECK-NOT:   tc.split
// CHECK:       return
func.func @refused(%x: tensor<2x5x8xf32>, %y: tensor<2x5x8xf32>,
    %w1: tensor<8x8xf32>, %b1: tensor<8xf32>, %w2: tensor<8x8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>) {
  %a0 = tc.linear %x, %w1, %b1 : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %a1 = tc.reshape %a0 : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %a = tc.transpose %a1 permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  %c0 = tc.linear %y, %w2, %b2 : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %c1 = tc.reshape %c0 : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %c = tc.transpose %c1 permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  %d0 = tc.linear %x, %w2, %b2 : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %d1 = tc.reshape %d0 : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
  %d = tc.transpose %d1 permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
  return %a, %c, %d : tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>
}

// -----

// Refused: a reshape that is not a head split of [B, L, out].
// CHECK-LABEL: func.func @not_a_head_split(
// CHECK-NOT:   tc.split
// CHECK:       return
func.func @not_a_head_split(%x: tensor<2x5x8xf32>,
    %wq: tensor<8x8xf32> {tc.param = "q.weight"}, %wk: tensor<8x8xf32> {tc.param = "k.weight"},
    %bq: tensor<8xf32> {tc.param = "q.bias"}, %bk: tensor<8xf32> {tc.param = "k.bias"})
    -> (tensor<2x2x10x2xf32>, tensor<2x2x10x2xf32>) {
  %q0 = tc.linear %x, %wq, %bq : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %q1 = tc.reshape %q0 : tensor<2x5x8xf32> -> tensor<2x10x2x2xf32>
  %q = tc.transpose %q1 permutation = [0, 2, 1, 3] : tensor<2x10x2x2xf32> -> tensor<2x2x10x2xf32>
  %k0 = tc.linear %x, %wk, %bk : tensor<2x5x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
  %k1 = tc.reshape %k0 : tensor<2x5x8xf32> -> tensor<2x10x2x2xf32>
  %k = tc.transpose %k1 permutation = [0, 2, 1, 3] : tensor<2x10x2x2xf32> -> tensor<2x2x10x2xf32>
  return %q, %k : tensor<2x2x10x2xf32>, tensor<2x2x10x2xf32>
}

// -----

// Flat projections (the incremental decoder's Q, K, V, whose consumers take
// the heads side by side): one GEMM, viewed as [3, B, L, o] and split.
// CHECK-LABEL: func.func @flat(
// CHECK-NEXT:    %[[W:.*]] = tc.concat %arg1, %arg2, %arg3 axis = 0 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32> -> tensor<24x8xf32>
// CHECK-NEXT:    %[[B:.*]] = tc.concat %arg4, %arg5, %arg6 axis = 0
// CHECK-NEXT:    %[[Y:.*]] = tc.linear %arg0, %[[W]], %[[B]] : tensor<4x1x8xf32>, tensor<24x8xf32>, tensor<24xf32> -> tensor<4x1x24xf32>
// CHECK-NEXT:    %[[R:.*]] = tc.reshape %[[Y]] : tensor<4x1x24xf32> -> tensor<4x1x3x8xf32>
// CHECK-NEXT:    %[[T:.*]] = tc.transpose %[[R]] permutation = [2, 0, 1, 3] : tensor<4x1x3x8xf32> -> tensor<3x4x1x8xf32>
// CHECK-NEXT:    %[[S:.*]]:3 = tc.split %[[T]] axis = 0
// CHECK-NEXT:    %[[Q:.*]] = tc.reshape %[[S]]#0 : tensor<1x4x1x8xf32> -> tensor<4x1x8xf32>
// CHECK-NEXT:    %[[K:.*]] = tc.reshape %[[S]]#1
// CHECK-NEXT:    %[[V:.*]] = tc.reshape %[[S]]#2
// CHECK-NEXT:    %[[U:.*]] = tc.add %[[Q]], %[[K]]
// CHECK-NEXT:    %[[O:.*]] = tc.mul %[[U]], %[[V]]
// CHECK-NEXT:    return %[[O]]
func.func @flat(%x: tensor<4x1x8xf32>,
    %wq: tensor<8x8xf32> {tc.param = "q.weight"}, %wk: tensor<8x8xf32> {tc.param = "k.weight"},
    %wv: tensor<8x8xf32> {tc.param = "v.weight"}, %bq: tensor<8xf32> {tc.param = "q.bias"},
    %bk: tensor<8xf32> {tc.param = "k.bias"}, %bv: tensor<8xf32> {tc.param = "v.bias"})
    -> tensor<4x1x8xf32> {
  %q = tc.linear %x, %wq, %bq : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %k = tc.linear %x, %wk, %bk : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %v = tc.linear %x, %wv, %bv : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %u = tc.add %q, %k : tensor<4x1x8xf32>, tensor<4x1x8xf32> -> tensor<4x1x8xf32>
  %o = tc.mul %u, %v : tensor<4x1x8xf32>, tensor<4x1x8xf32> -> tensor<4x1x8xf32>
  return %o : tensor<4x1x8xf32>
}

// -----

// Refused in the flat form: projections the function returns (the decoder
// start's keys and values of the source, which the GEMM writes straight
// into the output), and a flat projection (read by an add) beside one with
// a head split.
// CHECK-LABEL: func.func @flat_refused(
// CHECK-NOT:   tc.split
// CHECK:       return
func.func @flat_refused(%x: tensor<4x1x8xf32>,
    %wk: tensor<8x8xf32> {tc.param = "k.weight"}, %wv: tensor<8x8xf32> {tc.param = "v.weight"},
    %bk: tensor<8xf32> {tc.param = "k.bias"}, %bv: tensor<8xf32> {tc.param = "v.bias"},
    %wa: tensor<8x8xf32> {tc.param = "a.weight"}, %wb: tensor<8x8xf32> {tc.param = "b.weight"},
    %ba: tensor<8xf32> {tc.param = "a.bias"}, %bb: tensor<8xf32> {tc.param = "b.bias"})
    -> (tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x2x1x4xf32>) {
  %k = tc.linear %x, %wk, %bk : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %v = tc.linear %x, %wv, %bv : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %a0 = tc.linear %x, %wa, %ba : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %a = tc.add %a0, %x : tensor<4x1x8xf32>, tensor<4x1x8xf32> -> tensor<4x1x8xf32>
  %b0 = tc.linear %x, %wb, %bb : tensor<4x1x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x1x8xf32>
  %b1 = tc.reshape %b0 : tensor<4x1x8xf32> -> tensor<4x1x2x4xf32>
  %b = tc.transpose %b1 permutation = [0, 2, 1, 3] : tensor<4x1x2x4xf32> -> tensor<4x2x1x4xf32>
  return %k, %v, %a, %b : tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x2x1x4xf32>
}
