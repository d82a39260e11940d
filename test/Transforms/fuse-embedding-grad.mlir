// RUN: tc-opt %s --split-input-file --tc-fuse-embedding-grad | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-fuse-embedding-grad | tc-opt --split-input-file --verify-each > /dev/null

// A tied table's gradient: the output layer's GEMM plus the target's and
// the source's lookups -> each lookup's rows added onto the GEMM's result in
// place, in the sum's order; a lookup's padding_id stays with its rows.
// CHECK-LABEL: func.func @tied(
// CHECK-NEXT:    %[[G:.*]] = tc.matmul
// CHECK-NEXT:    %[[T:.*]] = tc.embedding_grad_add %[[G]], %arg2, %arg3 {padding_id = 0 : i64} : tensor<6x4xf32>, tensor<2x3xi32>, tensor<2x3x4xf32>
// CHECK-NEXT:    %[[S:.*]] = tc.embedding_grad_add %[[T]], %arg4, %arg5 : tensor<6x4xf32>, tensor<2x3xi32>, tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[S]]
func.func @tied(%dl: tensor<5x6xf32>, %h: tensor<5x4xf32>, %tgt: tensor<2x3xi32>, %dt: tensor<2x3x4xf32>,
                %src: tensor<2x3xi32>, %ds: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %g = tc.matmul %dl, %h {transpose_lhs} : tensor<5x6xf32>, tensor<5x4xf32> -> tensor<6x4xf32>
  %et = tc.embedding_grad %tgt, %dt {padding_id = 0 : i64} : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a = tc.add %g, %et : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %es = tc.embedding_grad %src, %ds : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %b = tc.add %a, %es : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  return %b : tensor<6x4xf32>
}

// -----

// The lookups summed first and the GEMM last (the bf16 step's order): the
// lookups still go onto the GEMM's result, each with its own padding_id.
// CHECK-LABEL: func.func @gemm_last(
// CHECK-NEXT:    %[[G:.*]] = tc.matmul
// CHECK-NEXT:    %[[S:.*]] = tc.embedding_grad_add %[[G]], %arg4, %arg5 {padding_id = 1 : i64}
// CHECK-NEXT:    %[[T:.*]] = tc.embedding_grad_add %[[S]], %arg2, %arg3 {padding_id = 0 : i64}
// CHECK-NEXT:    return %[[T]]
func.func @gemm_last(%dl: tensor<5x6xf32>, %h: tensor<5x4xf32>, %tgt: tensor<2x3xi32>, %dt: tensor<2x3x4xf32>,
                     %src: tensor<2x3xi32>, %ds: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %es = tc.embedding_grad %src, %ds {padding_id = 1 : i64} : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %et = tc.embedding_grad %tgt, %dt {padding_id = 0 : i64} : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a = tc.add %es, %et : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %g = tc.matmul %dl, %h {transpose_lhs} : tensor<5x6xf32>, tensor<5x4xf32> -> tensor<6x4xf32>
  %b = tc.add %a, %g : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  return %b : tensor<6x4xf32>
}

// -----

// No GEMM to write into (an untied table's two lookups): the second
// lookup goes onto the first's table; a function input is never written in
// place, so it is added after.
// CHECK-LABEL: func.func @two_lookups(
// CHECK-NEXT:    %[[E:.*]] = tc.embedding_grad %arg0, %arg1
// CHECK-NEXT:    %[[A:.*]] = tc.embedding_grad_add %[[E]], %arg2, %arg3
// CHECK-NEXT:    %[[R:.*]] = tc.add %[[A]], %arg4
// CHECK-NEXT:    return %[[R]]
func.func @two_lookups(%i0: tensor<2x3xi32>, %d0: tensor<2x3x4xf32>, %i1: tensor<2x3xi32>,
                       %d1: tensor<2x3x4xf32>, %other: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %e0 = tc.embedding_grad %i0, %d0 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %e1 = tc.embedding_grad %i1, %d1 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a = tc.add %e0, %e1 : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %b = tc.add %a, %other : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  return %b : tensor<6x4xf32>
}

// -----

// Two micro-batches' gradients (gradient accumulation): each is rewritten
// on its own, and their sum stays a tc.add, as data-parallel ranks sum theirs.
// CHECK-LABEL: func.func @micro_batches(
// CHECK:         %[[G0:.*]] = tc.matmul
// CHECK-NEXT:    %[[A0:.*]] = tc.embedding_grad_add %[[G0]], %arg2, %arg3
// CHECK:         %[[G1:.*]] = tc.matmul
// CHECK-NEXT:    %[[A1:.*]] = tc.embedding_grad_add %[[G1]], %arg4, %arg5
// CHECK-NEXT:    %[[S:.*]] = tc.add %[[A0]], %[[A1]]
// CHECK-NEXT:    return %[[S]]
func.func @micro_batches(%dl: tensor<5x6xf32>, %h: tensor<5x4xf32>, %i0: tensor<2x3xi32>, %d0: tensor<2x3x4xf32>,
                         %i1: tensor<2x3xi32>, %d1: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %g0 = tc.matmul %dl, %h {transpose_lhs} : tensor<5x6xf32>, tensor<5x4xf32> -> tensor<6x4xf32>
  %e0 = tc.embedding_grad %i0, %d0 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a0 = tc.add %g0, %e0 : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %g1 = tc.matmul %dl, %h {transpose_lhs} : tensor<5x6xf32>, tensor<5x4xf32> -> tensor<6x4xf32>
  %e1 = tc.embedding_grad %i1, %d1 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a1 = tc.add %g1, %e1 : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %s = tc.add %a0, %a1 : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  return %s : tensor<6x4xf32>
}

// -----

// Unchanged: one lookup and no GEMM to write into; a GEMM result read
// elsewhere too (it is not written in place); a lookup read twice.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NOT:     tc.embedding_grad_add
// CHECK:         return
func.func @unchanged(%i0: tensor<2x3xi32>, %d0: tensor<2x3x4xf32>, %other: tensor<6x4xf32>,
                     %dl: tensor<5x6xf32>, %h: tensor<5x4xf32>)
    -> (tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
  %e0 = tc.embedding_grad %i0, %d0 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a = tc.add %e0, %other : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %g = tc.matmul %dl, %h {transpose_lhs} : tensor<5x6xf32>, tensor<5x4xf32> -> tensor<6x4xf32>
  %e1 = tc.embedding_grad %i0, %d0 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %b = tc.add %g, %e1 : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %e2 = tc.embedding_grad %i0, %d0 : tensor<2x3xi32>, tensor<2x3x4xf32> -> tensor<6x4xf32>
  %c = tc.add %e2, %e2 : tensor<6x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  return %a, %b, %g, %c : tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}
