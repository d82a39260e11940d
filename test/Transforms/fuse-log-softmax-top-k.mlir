// RUN: tc-opt %s --split-input-file --tc-fuse-log-softmax-top-k | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-fuse-log-softmax-top-k | tc-opt --split-input-file --verify-each > /dev/null

// A decoder step's candidates: the log-softmax of [R, 1, N] viewed as rows,
// plus the never-continued tokens' -inf, its top k, and the end of
// sentence's column -> one tc.log_softmax_top_k over the logits viewed as
// rows.
// CHECK-LABEL: func.func @decoder_step(
// CHECK-NEXT:    %[[NEVER:.*]] = tc.constant
// CHECK-NEXT:    %[[ROWS:.*]] = tc.reshape %arg0 : tensor<4x1x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]], %[[EOS:.*]] = tc.log_softmax_top_k %[[ROWS]], %[[NEVER]] k = 2 column = 3 : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
// CHECK-NEXT:    return %[[V]], %[[I]], %[[EOS]]
func.func @decoder_step(%logits: tensor<4x1x6xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>) {
  %logp = tc.log_softmax %logits : tensor<4x1x6xf32>
  %rows = tc.reshape %logp : tensor<4x1x6xf32> -> tensor<4x6xf32>
  %never = tc.constant dense<[0xFF800000, 0xFF800000, 0.0, 0.0, 0.0, 0.0]> : tensor<6xf32>
  %c = tc.add %rows, %never : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xf32>
  %v, %i = tc.top_k %c k = 2 : tensor<4x6xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  %eos = tc.slice %c offsets = [0, 3] : tensor<4x6xf32> -> tensor<4x1xf32>
  return %v, %i, %eos : tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
}

// -----

// Rows already [R, N]: no view.
// CHECK-LABEL: func.func @rows(
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]], %[[C:.*]] = tc.log_softmax_top_k %arg0, %arg1 k = 3 column = 0
// CHECK-NEXT:    return %[[V]], %[[I]], %[[C]]
func.func @rows(%logits: tensor<2x5xf32>, %addend: tensor<5xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x1xf32>) {
  %logp = tc.log_softmax %logits : tensor<2x5xf32>
  %c = tc.add %logp, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %v, %i = tc.top_k %c k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %col = tc.slice %c offsets = [0, 0] : tensor<2x5xf32> -> tensor<2x1xf32>
  return %v, %i, %col : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x1xf32>
}

// -----

// The column's slice before the top-k, read in between: the fused op goes
// right after the add, before both.
// CHECK-LABEL: func.func @column_first(
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]], %[[C:.*]] = tc.log_softmax_top_k %arg0, %arg1 k = 2 column = 4
// CHECK-NEXT:    %[[N:.*]] = tc.neg %[[C]]
// CHECK-NEXT:    return %[[V]], %[[I]], %[[N]]
func.func @column_first(%logits: tensor<2x5xf32>, %addend: tensor<5xf32>)
    -> (tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x1xf32>) {
  %logp = tc.log_softmax %logits : tensor<2x5xf32>
  %c = tc.add %logp, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %col = tc.slice %c offsets = [0, 4] : tensor<2x5xf32> -> tensor<2x1xf32>
  %n = tc.neg %col : tensor<2x1xf32>
  %v, %i = tc.top_k %c k = 2 : tensor<2x5xf32> -> tensor<2x2xf32>, tensor<2x2xi32>
  return %v, %i, %n : tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x1xf32>
}

// -----

// Refused: the candidates read whole (returned), the log-probabilities read
// by another op, no column slice, and an addend per element rather than per
// column.
// CHECK-LABEL: func.func @refused(
// CHECK-NOT:   tc.log_softmax_top_k
// CHECK:       return
func.func @refused(%logits: tensor<2x5xf32>, %addend: tensor<5xf32>, %full: tensor<2x5xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x5xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x1xf32>, tensor<2x5xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x1xf32>) {
  %l0 = tc.log_softmax %logits : tensor<2x5xf32>
  %c0 = tc.add %l0, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %v0, %i0 = tc.top_k %c0 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %l1 = tc.log_softmax %logits : tensor<2x5xf32>
  %c1 = tc.add %l1, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %v1, %i1 = tc.top_k %c1 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %s1 = tc.slice %c1 offsets = [0, 1] : tensor<2x5xf32> -> tensor<2x1xf32>
  %l2 = tc.log_softmax %logits : tensor<2x5xf32>
  %c2 = tc.add %l2, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %v2, %i2 = tc.top_k %c2 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %l3 = tc.log_softmax %logits : tensor<2x5xf32>
  %c3 = tc.add %l3, %full : tensor<2x5xf32>, tensor<2x5xf32> -> tensor<2x5xf32>
  %v3, %i3 = tc.top_k %c3 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %s3 = tc.slice %c3 offsets = [0, 1] : tensor<2x5xf32> -> tensor<2x1xf32>
  return %v0, %i0, %c0, %v1, %i1, %s1, %l1, %v2, %i2, %v3, %i3, %s3
      : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x5xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x1xf32>, tensor<2x5xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x1xf32>
}

// -----

// Refused: the addend first (the pass matches the frontend's order only), a
// second top-k of the same candidates, two column slices.
// CHECK-LABEL: func.func @refused_shapes(
// CHECK-NOT:   tc.log_softmax_top_k
// CHECK:       return
func.func @refused_shapes(%logits: tensor<2x5xf32>, %addend: tensor<5xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x1xf32>, tensor<2x1xf32>) {
  %l0 = tc.log_softmax %logits : tensor<2x5xf32>
  %c0 = tc.add %addend, %l0 : tensor<5xf32>, tensor<2x5xf32> -> tensor<2x5xf32>
  %v0, %i0 = tc.top_k %c0 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %s0 = tc.slice %c0 offsets = [0, 1] : tensor<2x5xf32> -> tensor<2x1xf32>
  %l1 = tc.log_softmax %logits : tensor<2x5xf32>
  %c1 = tc.add %l1, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %v1, %i1 = tc.top_k %c1 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %w1, %j1 = tc.top_k %c1 k = 2 : tensor<2x5xf32> -> tensor<2x2xf32>, tensor<2x2xi32>
  %s1 = tc.slice %c1 offsets = [0, 1] : tensor<2x5xf32> -> tensor<2x1xf32>
  %l2 = tc.log_softmax %logits : tensor<2x5xf32>
  %c2 = tc.add %l2, %addend : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %v2, %i2 = tc.top_k %c2 k = 3 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  %s2 = tc.slice %c2 offsets = [0, 1] : tensor<2x5xf32> -> tensor<2x1xf32>
  %t2 = tc.slice %c2 offsets = [0, 2] : tensor<2x5xf32> -> tensor<2x1xf32>
  return %v0, %i0, %s0, %v1, %i1, %w1, %j1, %s1, %v2, %i2, %s2, %t2
      : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x3xi32>,
        tensor<2x1xf32>, tensor<2x1xf32>
}
