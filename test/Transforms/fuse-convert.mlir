// RUN: tc-opt %s --split-input-file --tc-fuse-convert | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-fuse-convert | tc-opt --split-input-file --verify-each > /dev/null

// The dropped-out probabilities only a bf16 GEMM reads: the softmax stores
// them in bf16 and the convert goes; the f32 probs (the backward's) stay.
// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT:    %[[R:.*]], %[[P:.*]] = tc.masked_softmax %arg0, %arg1, %arg2 scale = {{.*}} : tensor<2x4x4xf32>, tensor<4x4xi1>, tensor<2xi64> narrowed tensor<2x4x4xbf16>
// CHECK-NEXT:    return %[[R]], %[[P]] : tensor<2x4x4xbf16>, tensor<2x4x4xf32>
func.func @softmax(%s: tensor<2x4x4xf32>, %m: tensor<4x4xi1>, %rng: tensor<2xi64>)
    -> (tensor<2x4x4xbf16>, tensor<2x4x4xf32>) {
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.5 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<2x4x4xf32>, tensor<4x4xi1>, tensor<2xi64>
  %b = tc.convert %0#0 : tensor<2x4x4xf32> -> tensor<2x4x4xbf16>
  return %b, %0#1 : tensor<2x4x4xbf16>, tensor<2x4x4xf32>
}

// -----

// The softmax gradient and the logits' gradient, read by GEMMs only.
// CHECK-LABEL: func.func @gradients(
// CHECK:         tc.masked_softmax_grad {{.*}} : tensor<2x4x4xf32>, tensor<4x4xi1>, tensor<2xi64> narrowed tensor<2x4x4xbf16>
// CHECK:         tc.cross_entropy_grad {{.*}} : tensor<2x4x16xf32>, tensor<2x4xi32>, tensor<f32> narrowed tensor<2x4x16xbf16>
// CHECK-NOT:     tc.convert
func.func @gradients(%p: tensor<2x4x4xf32>, %dy: tensor<2x4x4xf32>, %m: tensor<4x4xi1>,
                     %rng: tensor<2xi64>, %l: tensor<2x4x16xf32>, %t: tensor<2x4xi32>,
                     %dl: tensor<f32>) -> (tensor<2x4x4xbf16>, tensor<2x4x16xbf16>) {
  %0 = tc.masked_softmax_grad %p, %dy, %m, %rng scale = 0.5 rate = 0.1 key = 2
      : tensor<2x4x4xf32>, tensor<4x4xi1>, tensor<2xi64>
  %1 = tc.convert %0 : tensor<2x4x4xf32> -> tensor<2x4x4xbf16>
  %2 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x4x16xf32>, tensor<2x4xi32>, tensor<f32>
  %3 = tc.convert %2 : tensor<2x4x16xf32> -> tensor<2x4x16xbf16>
  return %1, %3 : tensor<2x4x4xbf16>, tensor<2x4x16xbf16>
}

// -----

// A LayerNorm output that the next residual also reads in f32 stays f32,
// and its kernel stores a bf16 copy for the GEMM (the convert goes); one
// only the GEMM reads (the last LayerNorm) is stored in bf16.
// CHECK-LABEL: func.func @layer_norms(
// CHECK:         %[[A:[a-z_0-9]+]], %{{.*}}, %{{.*}}, %[[C:[a-z_0-9]+]] = tc.residual_layer_norm {{.*}} : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x4x1xf32> bf16 copy tensor<2x4x8xbf16>
// CHECK-NEXT:    %[[B:[a-z_0-9]+]], {{.*}} = tc.residual_layer_norm %[[A]], {{.*}} : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> narrowed tensor<2x4x8xbf16> -> tensor<2x4x1xf32>
// CHECK-NEXT:    return %[[C]], %[[B]]
// CHECK-NOT:     tc.convert
func.func @layer_norms(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>)
    -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) {
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x4x1xf32>
  %1 = tc.convert %0#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %2:3 = tc.residual_layer_norm %0#0, %x, %g, %g, %rng rate = 0.1 key = 3 epsilon = 1.0e-05
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x4x1xf32>
  %3 = tc.convert %2#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %1, %3 : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
}

// -----

// Two converts of one LayerNorm output that nothing else reads: one convert
// (they are merged first), which folds: the output is stored in bf16, with
// no f32 value and no copy.
// CHECK-LABEL: func.func @two_converts(
// CHECK:         %[[N:[a-z_0-9]+]], %{{.*}}, %{{.*}} = tc.residual_layer_norm {{.*}} : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> narrowed tensor<2x4x8xbf16> -> tensor<2x4x1xf32>
// CHECK-NEXT:    return %[[N]], %[[N]]
func.func @two_converts(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>)
    -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) {
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x4x1xf32>
  %1 = tc.convert %0#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %2 = tc.convert %0#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %1, %2 : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
}

// -----

// A LayerNorm's sublayer gradient that a bias gradient sums in f32 and two
// converts narrow: one bf16 copy stored beside it, read by both; the
// residual gradient's convert (no copy for it) stays.
// CHECK-LABEL: func.func @layer_norm_grad(
// CHECK:         %[[D:[a-z_0-9]+]], %[[SG:[a-z_0-9]+]], %{{.*}}, %{{.*}}, %[[C:[a-z_0-9]+]] = tc.residual_layer_norm_grad {{.*}} : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x1xf32>, tensor<2xi64> bf16 copy tensor<2x4x8xbf16>
// CHECK-NEXT:    %[[S:.*]] = tc.reduce_sum %[[SG]]
// CHECK-NEXT:    %[[R:.*]] = tc.convert %[[D]]
// CHECK-NEXT:    return %[[S]], %[[C]], %[[C]], %[[R]]
func.func @layer_norm_grad(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %m: tensor<2x4x1xf32>,
                           %rng: tensor<2xi64>)
    -> (tensor<8xf32>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) {
  %0:4 = tc.residual_layer_norm_grad %x, %x, %g, %m, %m, %x, %rng rate = 0.1 key = 1
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x1xf32>, tensor<2xi64>
  %1 = tc.reduce_sum %0#1 axes = [0, 1] : tensor<2x4x8xf32> -> tensor<8xf32>
  %2 = tc.convert %0#1 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %3 = tc.convert %0#1 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %4 = tc.convert %0#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %1, %2, %3, %4 : tensor<8xf32>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
}

// -----

// Attention's head split, every part read by a bf16 GEMM only: the three
// converts become one of the QKV product, and the reshapes, transpose and
// split view bf16 (they fold into the GEMMs' strides, as in f32, where a
// transpose kernel moved f32 values before).
// CHECK-LABEL: func.func @head_split(
// CHECK-NEXT:    %[[C:.*]] = tc.convert %arg0 : tensor<2x4x24xf32> -> tensor<2x4x24xbf16>
// CHECK-NEXT:    %[[R:.*]] = tc.reshape %[[C]] : tensor<2x4x24xbf16> -> tensor<2x4x3x2x4xbf16>
// CHECK-NEXT:    %[[T:.*]] = tc.transpose %[[R]] permutation = [2, 0, 3, 1, 4] : tensor<2x4x3x2x4xbf16> -> tensor<3x2x2x4x4xbf16>
// CHECK-NEXT:    %[[S:.*]]:3 = tc.split %[[T]] axis = 0 : tensor<3x2x2x4x4xbf16> -> tensor<1x2x2x4x4xbf16>, tensor<1x2x2x4x4xbf16>, tensor<1x2x2x4x4xbf16>
// CHECK-NEXT:    tc.reshape %[[S]]#0 : tensor<1x2x2x4x4xbf16> -> tensor<2x2x4x4xbf16>
// CHECK-NEXT:    tc.reshape %[[S]]#1 : tensor<1x2x2x4x4xbf16> -> tensor<2x2x4x4xbf16>
// CHECK-NEXT:    tc.reshape %[[S]]#2 : tensor<1x2x2x4x4xbf16> -> tensor<2x2x4x4xbf16>
// CHECK-NOT:     tc.convert
func.func @head_split(%qkv: tensor<2x4x24xf32>)
    -> (tensor<2x2x4x4xbf16>, tensor<2x2x4x4xbf16>, tensor<2x2x4x4xbf16>) {
  %0 = tc.reshape %qkv : tensor<2x4x24xf32> -> tensor<2x4x3x2x4xf32>
  %1 = tc.transpose %0 permutation = [2, 0, 3, 1, 4] : tensor<2x4x3x2x4xf32> -> tensor<3x2x2x4x4xf32>
  %2:3 = tc.split %1 axis = 0 : tensor<3x2x2x4x4xf32> -> tensor<1x2x2x4x4xf32>, tensor<1x2x2x4x4xf32>, tensor<1x2x2x4x4xf32>
  %q = tc.reshape %2#0 : tensor<1x2x2x4x4xf32> -> tensor<2x2x4x4xf32>
  %k = tc.reshape %2#1 : tensor<1x2x2x4x4xf32> -> tensor<2x2x4x4xf32>
  %v = tc.reshape %2#2 : tensor<1x2x2x4x4xf32> -> tensor<2x2x4x4xf32>
  %bq = tc.convert %q : tensor<2x2x4x4xf32> -> tensor<2x2x4x4xbf16>
  %bk = tc.convert %k : tensor<2x2x4x4xf32> -> tensor<2x2x4x4xbf16>
  %bv = tc.convert %v : tensor<2x2x4x4xf32> -> tensor<2x2x4x4xbf16>
  return %bq, %bk, %bv : tensor<2x2x4x4xbf16>, tensor<2x2x4x4xbf16>, tensor<2x2x4x4xbf16>
}

// -----

// One part also read in f32 (returned): the split and what is above it stay
// f32; each part's own reshape still takes its convert above it.
// CHECK-LABEL: func.func @part_read_in_f32(
// CHECK:         tc.split %{{.*}} axis = 0 : tensor<2x2x4xf32> -> tensor<1x2x4xf32>, tensor<1x2x4xf32>
// CHECK-NEXT:    tc.convert %{{.*}}#0 : tensor<1x2x4xf32> -> tensor<1x2x4xbf16>
// CHECK-NEXT:    tc.reshape %{{.*}} : tensor<1x2x4xbf16> -> tensor<2x4xbf16>
// CHECK-NEXT:    tc.convert %{{.*}}#1 : tensor<1x2x4xf32> -> tensor<1x2x4xbf16>
// CHECK-NEXT:    tc.reshape %{{.*}} : tensor<1x2x4xbf16> -> tensor<2x4xbf16>
func.func @part_read_in_f32(%x: tensor<4x2x2xf32>)
    -> (tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<1x2x4xf32>) {
  %0 = tc.transpose %x permutation = [2, 1, 0] : tensor<4x2x2xf32> -> tensor<2x2x4xf32>
  %1:2 = tc.split %0 axis = 0 : tensor<2x2x4xf32> -> tensor<1x2x4xf32>, tensor<1x2x4xf32>
  %a = tc.reshape %1#0 : tensor<1x2x4xf32> -> tensor<2x4xf32>
  %b = tc.reshape %1#1 : tensor<1x2x4xf32> -> tensor<2x4xf32>
  %ba = tc.convert %a : tensor<2x4xf32> -> tensor<2x4xbf16>
  %bb = tc.convert %b : tensor<2x4xf32> -> tensor<2x4xbf16>
  return %ba, %bb, %1#1 : tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<1x2x4xf32>
}

// -----

// A convert moved above a view reaches a row op's result and folds into
// its store: the softmax stores bf16 and no convert is left.
// CHECK-LABEL: func.func @view_of_row_op(
// CHECK-NEXT:    %[[R:.*]], %{{.*}} = tc.masked_softmax {{.*}} narrowed tensor<2x4x4xbf16>
// CHECK-NEXT:    tc.transpose %[[R]] permutation = [0, 2, 1] : tensor<2x4x4xbf16> -> tensor<2x4x4xbf16>
// CHECK-NOT:     tc.convert
func.func @view_of_row_op(%s: tensor<2x4x4xf32>, %m: tensor<4x4xi1>, %rng: tensor<2xi64>)
    -> (tensor<2x4x4xbf16>, tensor<2x4x4xf32>) {
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.5 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<2x4x4xf32>, tensor<4x4xi1>, tensor<2xi64>
  %1 = tc.transpose %0#0 permutation = [0, 2, 1] : tensor<2x4x4xf32> -> tensor<2x4x4xf32>
  %b = tc.convert %1 : tensor<2x4x4xf32> -> tensor<2x4x4xbf16>
  return %b, %0#1 : tensor<2x4x4xbf16>, tensor<2x4x4xf32>
}

// -----

// Attention's head merge: the context GEMM (bf16 operands) stores its
// result in bf16, the convert gone; the transpose and the reshape view
// bf16 values (the GEMM writes the merged layout, no kernel).
// CHECK-LABEL: func.func @head_merge(
// CHECK-NEXT:    %[[M:.*]] = tc.matmul %arg0, %arg1 : tensor<2x2x4x4xbf16>, tensor<2x2x4x4xbf16> -> tensor<2x2x4x4xbf16>
// CHECK-NEXT:    %[[T:.*]] = tc.transpose %[[M]] permutation = [0, 2, 1, 3] : tensor<2x2x4x4xbf16> -> tensor<2x4x2x4xbf16>
// CHECK-NEXT:    %[[R:.*]] = tc.reshape %[[T]] : tensor<2x4x2x4xbf16> -> tensor<2x4x8xbf16>
// CHECK-NEXT:    return %[[R]]
func.func @head_merge(%p: tensor<2x2x4x4xbf16>, %v: tensor<2x2x4x4xbf16>) -> tensor<2x4x8xbf16> {
  %0 = tc.matmul %p, %v : tensor<2x2x4x4xbf16>, tensor<2x2x4x4xbf16> -> tensor<2x2x4x4xf32>
  %1 = tc.transpose %0 permutation = [0, 2, 1, 3] : tensor<2x2x4x4xf32> -> tensor<2x4x2x4xf32>
  %2 = tc.reshape %1 : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %3 = tc.convert %2 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %3 : tensor<2x4x8xbf16>
}

// -----

// The same merge of an f32 GEMM, which cannot store bf16: its result only
// the transpose reads stays f32 there (the GEMM writes the merged layout),
// and the convert stops below the transpose, above the reshape.
// CHECK-LABEL: func.func @f32_head_merge(
// CHECK-NEXT:    %[[M:.*]] = tc.matmul {{.*}} -> tensor<2x2x4x4xf32>
// CHECK-NEXT:    %[[T:.*]] = tc.transpose %[[M]] permutation = [0, 2, 1, 3] : tensor<2x2x4x4xf32> -> tensor<2x4x2x4xf32>
// CHECK-NEXT:    %[[C:.*]] = tc.convert %[[T]] : tensor<2x4x2x4xf32> -> tensor<2x4x2x4xbf16>
// CHECK-NEXT:    tc.reshape %[[C]] : tensor<2x4x2x4xbf16> -> tensor<2x4x8xbf16>
func.func @f32_head_merge(%p: tensor<2x2x4x4xf32>, %v: tensor<2x2x4x4xf32>) -> tensor<2x4x8xbf16> {
  %0 = tc.matmul %p, %v : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32> -> tensor<2x2x4x4xf32>
  %1 = tc.transpose %0 permutation = [0, 2, 1, 3] : tensor<2x2x4x4xf32> -> tensor<2x4x2x4xf32>
  %2 = tc.reshape %1 : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %3 = tc.convert %2 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %3 : tensor<2x4x8xbf16>
}

// -----

// bf16 GEMMs: a result the next GEMM alone reads is stored in bf16; one a
// reduction also reads in f32 (a bias gradient) keeps its convert, which
// joins the reduction in one kernel; a tc.linear keeps its f32 result and
// convert (its bias is f32).
// CHECK-LABEL: func.func @gemm_results(
// CHECK-NEXT:    %[[A:.*]] = tc.matmul %arg0, %arg1 : tensor<8x4xbf16>, tensor<4x4xbf16> -> tensor<8x4xbf16>
// CHECK-NEXT:    %[[B:.*]] = tc.matmul %[[A]], %arg1 : tensor<8x4xbf16>, tensor<4x4xbf16> -> tensor<8x4xf32>
// CHECK-NEXT:    %[[F:.*]]:2 = tc.fused(%[[B]]) : (tensor<8x4xf32>) -> (tensor<8x4xbf16>, tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<8x4xf32>):
// CHECK-NEXT:      %[[XC:.*]] = tc.convert %[[X]] : tensor<8x4xf32> -> tensor<8x4xbf16>
// CHECK-NEXT:      %[[XS:.*]] = tc.reduce_sum %[[X]] axes = [0]
// CHECK-NEXT:      tc.yield %[[XC]], %[[XS]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[L:.*]] = tc.linear %[[F]]#0, %arg1, %arg2 : tensor<8x4xbf16>, tensor<4x4xbf16>, tensor<4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    tc.convert %[[L]] : tensor<8x4xf32> -> tensor<8x4xbf16>
// CHECK-NEXT:    return %[[F]]#1
func.func @gemm_results(%x: tensor<8x4xbf16>, %w: tensor<4x4xbf16>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<8x4xbf16>) {
  %0 = tc.matmul %x, %w : tensor<8x4xbf16>, tensor<4x4xbf16> -> tensor<8x4xf32>
  %1 = tc.convert %0 : tensor<8x4xf32> -> tensor<8x4xbf16>
  %2 = tc.matmul %1, %w : tensor<8x4xbf16>, tensor<4x4xbf16> -> tensor<8x4xf32>
  %3 = tc.convert %2 : tensor<8x4xf32> -> tensor<8x4xbf16>
  %4 = tc.reduce_sum %2 axes = [0] : tensor<8x4xf32> -> tensor<4xf32>
  %5 = tc.linear %3, %w, %b : tensor<8x4xbf16>, tensor<4x4xbf16>, tensor<4xf32> -> tensor<8x4xf32>
  %6 = tc.convert %5 : tensor<8x4xf32> -> tensor<8x4xbf16>
  return %4, %6 : tensor<4xf32>, tensor<8x4xbf16>
}

// -----

// A slice's convert stays below it (above, each slice would convert the
// whole input).
// CHECK-LABEL: func.func @slice(
// CHECK-NEXT:    %[[S:.*]] = tc.slice %arg0
// CHECK-NEXT:    tc.convert %[[S]]
func.func @slice(%x: tensor<2x5x24xf32>) -> tensor<2x5x8xbf16> {
  %0 = tc.slice %x offsets = [0, 0, 0] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
  %1 = tc.convert %0 : tensor<2x5x8xf32> -> tensor<2x5x8xbf16>
  return %1 : tensor<2x5x8xbf16>
}

// -----

// A column sum before the convert of the same value: the two are one
// kernel all the same, at the sum's place.
// CHECK-LABEL: func.func @sum_first(
// CHECK-NEXT:    %[[F:.*]]:2 = tc.fused(%arg0) : (tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8x4xbf16>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<8x4xf32>):
// CHECK-NEXT:      %[[XS:.*]] = tc.reduce_sum %[[X]] axes = [0]
// CHECK-NEXT:      %[[XC:.*]] = tc.convert %[[X]] : tensor<8x4xf32> -> tensor<8x4xbf16>
// CHECK-NEXT:      tc.yield %[[XS]], %[[XC]]
// CHECK-NEXT:    }
// CHECK-NEXT:    tc.matmul %[[F]]#1, %arg1
// CHECK-NEXT:    return %[[F]]#0
func.func @sum_first(%g: tensor<8x4xf32>, %w: tensor<4x4xbf16>) -> (tensor<4xf32>, tensor<8x4xf32>) {
  %0 = tc.reduce_sum %g axes = [0] : tensor<8x4xf32> -> tensor<4xf32>
  %1 = tc.convert %g : tensor<8x4xf32> -> tensor<8x4xbf16>
  %2 = tc.matmul %1, %w : tensor<8x4xbf16>, tensor<4x4xbf16> -> tensor<8x4xf32>
  return %0, %2 : tensor<4xf32>, tensor<8x4xf32>
}

// -----

// Not joined: a row sum (its kernel would stride the joined stores), and a
// convert whose result nothing reads.
// CHECK-LABEL: func.func @not_column_sums(
// CHECK-NEXT:    tc.convert %arg0
// CHECK-NEXT:    tc.reduce_sum %arg0 axes = [1]
// CHECK-NEXT:    tc.matmul
// CHECK-NEXT:    tc.convert %arg1
// CHECK-NEXT:    tc.reduce_sum %arg1 axes = [0]
// CHECK-NOT:     tc.fused
func.func @not_column_sums(%g: tensor<8x4xf32>, %h: tensor<8x4xf32>, %w: tensor<4x4xbf16>)
    -> (tensor<8xf32>, tensor<8x4xf32>, tensor<4xf32>) {
  %0 = tc.convert %g : tensor<8x4xf32> -> tensor<8x4xbf16>
  %1 = tc.reduce_sum %g axes = [1] : tensor<8x4xf32> -> tensor<8xf32>
  %2 = tc.matmul %0, %w : tensor<8x4xbf16>, tensor<4x4xbf16> -> tensor<8x4xf32>
  %3 = tc.convert %h : tensor<8x4xf32> -> tensor<8x4xbf16>
  %4 = tc.reduce_sum %h axes = [0] : tensor<8x4xf32> -> tensor<4xf32>
  return %1, %2, %4 : tensor<8xf32>, tensor<8x4xf32>, tensor<4xf32>
}
