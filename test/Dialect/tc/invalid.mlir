// Every verifier rule and type constraint of the tc dialect, one case per
// split-input-file chunk: each chunk must produce exactly the diagnostic it
// expects, and nothing else.

// RUN: tc-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Broadcasting (binary ops, compare, select)
//===----------------------------------------------------------------------===//

// Binary op: the operands' last dimensions 3 and 4 do not broadcast.
func.func @binary_broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.add' op operand #1 has shape [4], which does not broadcast with [2, 3] (the operands before it); dimensions aligned from the last must be equal or 1}}
  %0 = tc.add %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return
}

// -----

// Binary op: a leading dimension mismatch (2 vs 3) is caught too.
func.func @binary_broadcast_mismatch_leading(%a: tensor<2x1x4xf32>, %b: tensor<3x5x4xf32>) {
  // expected-error @+1 {{'tc.max' op operand #1 has shape [3, 5, 4], which does not broadcast with [2, 1, 4]}}
  %0 = tc.max %a, %b : tensor<2x1x4xf32>, tensor<3x5x4xf32> -> tensor<3x5x4xf32>
  return
}

// -----

// Compare: the operands do not broadcast.
func.func @compare_broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.compare' op operand #1 has shape [4], which does not broadcast with [2, 3] (the operands before it)}}
  %0 = tc.compare lt, %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xi1>
  return
}

// -----

// Select: the false branch does not broadcast with the mask and true branch.
func.func @select_broadcast_mismatch(%c: tensor<2x3xi1>, %a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.select' op operand #2 has shape [4], which does not broadcast with [2, 3] (the operands before it)}}
  %0 = tc.select %c, %a, %b : tensor<2x3xi1>, tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return
}

// -----

// Select: the mask itself (operand #0) takes part in the broadcast.
func.func @select_mask_broadcast_mismatch(%c: tensor<5x1xi1>, %a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.select' op operand #1 has shape [2, 3], which does not broadcast with [5, 1] (the operands before it)}}
  %0 = tc.select %c, %a, %b : tensor<5x1xi1>, tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Binary op: the result is not the broadcast shape of the operands.
func.func @binary_wrong_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.mul' op result has shape [3] but expected [2, 3] (the broadcast shape of the operands)}}
  %0 = tc.mul %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// Binary op: a result bigger than the broadcast shape is wrong too.
func.func @binary_result_too_big(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.sub' op result has shape [2, 3] but expected [3] (the broadcast shape of the operands)}}
  %0 = tc.sub %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Compare: the mask has the wrong shape.
func.func @compare_wrong_result(%a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'tc.compare' op result has shape [1, 4] but expected [4] (the broadcast shape of the operands)}}
  %0 = tc.compare ge, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<1x4xi1>
  return
}

// -----

// Select: the result has the wrong shape.
func.func @select_wrong_result(%c: tensor<4x4xi1>, %a: tensor<2x4x4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'tc.select' op result has shape [4, 4] but expected [2, 4, 4] (the broadcast shape of the operands)}}
  %0 = tc.select %c, %a, %b : tensor<4x4xi1>, tensor<2x4x4xf32>, tensor<f32> -> tensor<4x4xf32>
  return
}

// -----

// Unary op: the result must have the operand's type (generic form, since the
// custom form has a single type).
func.func @unary_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.exp' op requires the same type for all operands and results}}
  %0 = "tc.exp"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// Convert: only the element type may change, not the shape.
func.func @convert_wrong_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.convert' op requires the same shape for all operands and results}}
  %0 = tc.convert %a : tensor<2x3xf32> -> tensor<3x2xf16>
  return
}

// -----

// Padding mask: the mask has the ids' shape.
func.func @padding_mask_wrong_shape(%ids: tensor<2x3xi32>) {
  // expected-error @+1 {{'tc.padding_mask' op requires the same shape for all operands and results}}
  %0 = tc.padding_mask %ids pad_id = 0 : tensor<2x3xi32> -> tensor<3xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Static shapes and element types
//===----------------------------------------------------------------------===//

// A dynamic dimension is rejected: every tc tensor is statically shaped.
func.func @dynamic_operand(%a: tensor<?x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.add' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<?x3xf32>'}}
  %0 = tc.add %a, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return
}

// -----

// A dynamic result is rejected as well.
func.func @dynamic_result(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.reshape' op result #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<?x8xf32>'}}
  %0 = tc.reshape %a : tensor<2x5x8xf32> -> tensor<?x8xf32>
  return
}

// -----

// Dynamic ids are rejected by embedding.
func.func @dynamic_ids(%t: tensor<10x4xf32>, %ids: tensor<?xi32>) {
  // expected-error @+1 {{'tc.embedding' op operand #1 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<?xi32>'}}
  %0 = tc.embedding %t, %ids : tensor<10x4xf32>, tensor<?xi32> -> tensor<3x4xf32>
  return
}

// -----

// Division is on floats only: i32 is not accepted by tc.div.
func.func @div_i32(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'tc.div' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float values, but got 'tensor<2x3xi32>'}}
  %0 = tc.div %a, %a : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  return
}

// -----

// Arithmetic does not mix element types: i32 plus i64 is rejected.
func.func @add_mixed_ints(%a: tensor<2xi32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'tc.add' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = tc.add %a, %b : tensor<2xi32>, tensor<2xi64> -> tensor<2xi32>
  return
}

// -----

// Binary op: f32 and f16 operands do not mix.
func.func @add_mixed_floats(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error @+1 {{'tc.add' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = tc.add %a, %b : tensor<2x3xf32>, tensor<2x3xf16> -> tensor<2x3xf32>
  return
}

// -----

// Unary op: i1 is not a float tensor.
func.func @relu_i1(%a: tensor<4xi1>) {
  // expected-error @+1 {{'tc.relu' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float values, but got 'tensor<4xi1>'}}
  %0 = tc.relu %a : tensor<4xi1>
  return
}

// -----

// Embedding: ids must be i32, not f32.
func.func @embedding_f32_ids(%t: tensor<10x4xf32>, %ids: tensor<3xf32>) {
  // expected-error @+1 {{'tc.embedding' op operand #1 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<3xf32>'}}
  %0 = tc.embedding %t, %ids : tensor<10x4xf32>, tensor<3xf32> -> tensor<3x4xf32>
  return
}

// -----

// Select: the condition must be an i1 mask.
func.func @select_f32_condition(%c: tensor<2x3xf32>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.select' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = tc.select %c, %a, %a : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Select: both branches and the result share one element type.
func.func @select_mixed_branches(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'tc.select' op failed to verify that all of {on_true, on_false, result} have same element type}}
  %0 = tc.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

// Compare: the result is an i1 mask.
func.func @compare_f32_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = tc.compare eq, %a, %a : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Compare: a float cannot be compared with an i32.
func.func @compare_mixed_types(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) {
  // expected-error @+1 {{'tc.compare' op failed to verify that all of {lhs, rhs} have same element type}}
  %0 = tc.compare ne, %a, %b : tensor<2x3xf32>, tensor<2x3xi32> -> tensor<2x3xi1>
  return
}

// -----

// Compare: an unknown predicate is a parse error.
func.func @compare_unknown_predicate(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{custom op 'tc.compare' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = tc.compare ult, %a, %a : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xi1>
  return
}

// -----

// Convert: i8 is not a tc element type.
func.func @convert_to_i8(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'tc.convert' op result #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<2x3xi8>'}}
  %0 = tc.convert %a : tensor<2x3xi32> -> tensor<2x3xi8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// Reduce: at least one axis.
func.func @reduce_no_axes(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_sum' op needs at least one axis to reduce over}}
  %0 = tc.reduce_sum %a axes = [] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Reduce: an axis equal to the rank is out of range.
func.func @reduce_axis_too_large(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_max' op axis 2 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.reduce_max %a axes = [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// Reduce: negative axes are not accepted (no Python-style indexing).
func.func @reduce_axis_negative(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_max' op axis -1 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.reduce_max %a axes = [-1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// Reduce: an axis listed twice.
func.func @reduce_duplicate_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_mean' op axis 1 is listed twice}}
  %0 = tc.reduce_mean %a axes = [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// Reduce without keep_dims: the reduced axis is dropped, not kept as 1.
func.func @reduce_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_mean' op result has shape [2, 1] but expected [2] (the input without the reduced axes)}}
  %0 = tc.reduce_mean %a axes = [1] : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

// Reduce with keep_dims: the reduced axis is kept as 1, not dropped.
func.func @reduce_keep_dims_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_sum' op result has shape [2] but expected [2, 1] (the input with reduced axes set to 1)}}
  %0 = tc.reduce_sum %a axes = [1] keep_dims : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// Reduce: the result keeps the input's element type.
func.func @reduce_wrong_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reduce_sum' op requires the same element type for all operands and results}}
  %0 = tc.reduce_sum %a axes = [1] : tensor<2x3xf32> -> tensor<2xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// Matmul: a vector operand (rank 1) is not accepted.
func.func @matmul_rank1(%a: tensor<3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op operands must have rank >= 2, got lhs [3] and rhs [3, 4]}}
  %0 = tc.matmul %a, %b : tensor<3xf32>, tensor<3x4xf32> -> tensor<4xf32>
  return
}

// -----

// Matmul: [2, 3] x [4, 5] contracts 3 against 4.
func.func @matmul_contraction_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'tc.matmul' op contraction sizes differ: lhs [2, 3] contracts 3 but rhs [4, 5] contracts 4}}
  %0 = tc.matmul %a, %b : tensor<2x3xf32>, tensor<4x5xf32> -> tensor<2x5xf32>
  return
}

// -----

// Matmul: an activation times an [out, in] weight without transpose_rhs.
func.func @matmul_missing_transpose(%a: tensor<2x5x8xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{'tc.matmul' op contraction sizes differ: lhs [2, 5, 8] contracts 8 but rhs [16, 8] contracts 16}}
  %0 = tc.matmul %a, %b : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<2x5x16xf32>
  return
}

// -----

// Matmul: with transpose_lhs the lhs contracts its second-to-last dimension.
func.func @matmul_transpose_lhs_mismatch(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op contraction sizes differ: lhs [2, 3] (transposed) contracts 2 but rhs [3, 4] contracts 3}}
  %0 = tc.matmul %a, %b {transpose_lhs} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

// Matmul: with both transposes, each operand contracts the other dimension.
func.func @matmul_transpose_both_mismatch(%a: tensor<2x3xf32>, %b: tensor<5x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op contraction sizes differ: lhs [2, 3] (transposed) contracts 2 but rhs [5, 4] (transposed) contracts 4}}
  %0 = tc.matmul %a, %b {transpose_lhs, transpose_rhs} : tensor<2x3xf32>, tensor<5x4xf32> -> tensor<3x5xf32>
  return
}

// -----

// Matmul: batch dimensions 2 and 3 do not broadcast.
func.func @matmul_batch_mismatch(%a: tensor<2x5x8xf32>, %b: tensor<3x8x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op batch dimensions of lhs [2, 5, 8] and rhs [3, 8, 4] do not broadcast; they must be equal or 1}}
  %0 = tc.matmul %a, %b : tensor<2x5x8xf32>, tensor<3x8x4xf32> -> tensor<2x5x4xf32>
  return
}

// -----

// Matmul: the result drops the broadcast batch dimension.
func.func @matmul_wrong_result(%a: tensor<2x5x8xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{'tc.matmul' op result has shape [5, 16] but expected [2, 5, 16] (broadcast batch dimensions, then [M, N])}}
  %0 = tc.matmul %a, %b {transpose_rhs} : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<5x16xf32>
  return
}

// -----

// Matmul: the result has [N, M] instead of [M, N].
func.func @matmul_result_swapped(%a: tensor<5x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'tc.matmul' op result has shape [16, 5] but expected [5, 16] (broadcast batch dimensions, then [M, N])}}
  %0 = tc.matmul %a, %b : tensor<5x8xf32>, tensor<8x16xf32> -> tensor<16x5xf32>
  return
}

// -----

// Matmul: operands share one element type.
func.func @matmul_mixed_types(%a: tensor<5x8xf32>, %b: tensor<8x16xbf16>) {
  // expected-error @+1 {{'tc.matmul' op operands must have one element type, got 'f32' and 'bf16'}}
  %0 = tc.matmul %a, %b : tensor<5x8xf32>, tensor<8x16xbf16> -> tensor<5x16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Softmax, layer_norm, embedding, dropout
//===----------------------------------------------------------------------===//

// Softmax: axis equal to the rank.
func.func @softmax_axis_too_large(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.softmax' op axis 2 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.softmax %a axis = 2 : tensor<2x3xf32>
  return
}

// -----

// Softmax: negative axes are not accepted.
func.func @softmax_axis_negative(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.softmax' op axis -1 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.softmax %a axis = -1 : tensor<2x3xf32>
  return
}

// -----

// Softmax: a rank-0 input has no axis at all.
func.func @softmax_rank0(%a: tensor<f32>) {
  // expected-error @+1 {{'tc.softmax' op axis 0 is out of range: the operand has rank 0 and no axes}}
  %0 = tc.softmax %a axis = 0 : tensor<f32>
  return
}

// -----

// Log-softmax: no last dimension to normalise.
func.func @log_softmax_rank_zero(%a: tensor<f32>) {
  // expected-error @+1 {{'tc.log_softmax' op input has shape [] but expected rank >= 1 and a last dimension of at least 1 (the row it normalises)}}
  %0 = tc.log_softmax %a : tensor<f32>
  return
}

// -----

// Log-softmax: an empty row.
func.func @log_softmax_empty_rows(%a: tensor<4x0xf32>) {
  // expected-error @+1 {{'tc.log_softmax' op input has shape [4, 0] but expected rank >= 1 and a last dimension of at least 1 (the row it normalises)}}
  %0 = tc.log_softmax %a : tensor<4x0xf32>
  return
}

// -----

// Log-softmax: f32 only (mixed precision leaves it alone).
func.func @log_softmax_bf16(%a: tensor<2x3xbf16>) {
  // expected-error @+1 {{'tc.log_softmax' op operand #0 must be statically shaped tensor of 32-bit float values}}
  %0 = tc.log_softmax %a : tensor<2x3xbf16>
  return
}

// -----

// Layer norm: gamma is not [D].
func.func @layer_norm_gamma_shape(%a: tensor<2x3xf32>, %g: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.layer_norm' op gamma has shape [2] but expected [3] (the last dimension of input [2, 3])}}
  %0 = tc.layer_norm %a, %g, %b epsilon = 1.0e-5 : tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>
  return
}

// -----

// Layer norm: beta of shape [1, D] is not [D] (no broadcasting here).
func.func @layer_norm_beta_shape(%a: tensor<2x3xf32>, %g: tensor<3xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{'tc.layer_norm' op beta has shape [1, 3] but expected [3] (the last dimension of input [2, 3])}}
  %0 = tc.layer_norm %a, %g, %b epsilon = 1.0e-5 : tensor<2x3xf32>, tensor<3xf32>, tensor<1x3xf32>
  return
}

// -----

// Layer norm: epsilon 0 is not positive.
func.func @layer_norm_epsilon_zero(%a: tensor<2x3xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'tc.layer_norm' op epsilon must be positive, got 0.000000e+00}}
  %0 = tc.layer_norm %a, %g, %g epsilon = 0.0 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
  return
}

// -----

// Layer norm: a negative epsilon.
func.func @layer_norm_epsilon_negative(%a: tensor<2x3xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'tc.layer_norm' op epsilon must be positive, got -1.000000e-05}}
  %0 = tc.layer_norm %a, %g, %g epsilon = -1.0e-5 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
  return
}

// -----

// Layer norm: a rank-0 input has no last dimension.
func.func @layer_norm_rank0(%a: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'tc.layer_norm' op input must have rank >= 1}}
  %0 = tc.layer_norm %a, %g, %g epsilon = 1.0e-5 : tensor<f32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

// Layer norm: gamma and beta have the input's element type.
func.func @layer_norm_mixed_types(%a: tensor<2x3xf32>, %g: tensor<3xf16>) {
  // expected-error @+1 {{'tc.layer_norm' op failed to verify that all of {input, gamma, beta} have same element type}}
  %0 = tc.layer_norm %a, %g, %g epsilon = 1.0e-5 : tensor<2x3xf32>, tensor<3xf16>, tensor<3xf16>
  return
}

// -----

// Embedding: the table is [vocabulary, dim], rank 2.
func.func @embedding_table_rank3(%t: tensor<10x4x2xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'tc.embedding' op table must have rank 2 [vocabulary, dim], got [10, 4, 2]}}
  %0 = tc.embedding %t, %ids : tensor<10x4x2xf32>, tensor<3xi32> -> tensor<3x4x2xf32>
  return
}

// -----

// Embedding: padding_id names a row of the table.
func.func @embedding_padding_id(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'tc.embedding' op padding_id 10 is not a row of the table [10 rows]}}
  %0 = tc.embedding %t, %ids {padding_id = 10 : i64} : tensor<10x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
  return
}

// -----

// Embedding: a rank-1 table is rejected too.
func.func @embedding_table_rank1(%t: tensor<10xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'tc.embedding' op table must have rank 2 [vocabulary, dim], got [10]}}
  %0 = tc.embedding %t, %ids : tensor<10xf32>, tensor<3xi32> -> tensor<3xf32>
  return
}

// -----

// Embedding: the result is ids.shape + [dim], not + [vocabulary].
func.func @embedding_wrong_result(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'tc.embedding' op result has shape [3, 10] but expected [3, 4] (the ids' shape, then the table's row size)}}
  %0 = tc.embedding %t, %ids : tensor<10x4xf32>, tensor<3xi32> -> tensor<3x10xf32>
  return
}

// -----

// Dropout: a negative rate.
func.func @dropout_rate_negative(%a: tensor<2x3xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.dropout' op rate must be in [0, 1), got -1.000000e-01}}
  %0 = tc.dropout %a, %rng rate = -0.1 key = 0 : tensor<2x3xf32>, tensor<2xi64>
  return
}

// -----

// Dropout: a rate of 1 would drop everything (and divide by 0).
func.func @dropout_rate_one(%a: tensor<2x3xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.dropout' op rate must be in [0, 1), got 1.000000e+00}}
  %0 = tc.dropout %a, %rng rate = 1.0 key = 0 : tensor<2x3xf32>, tensor<2xi64>
  return
}

// -----

// Dropout: the rng state has two entries, not three.
func.func @dropout_rng_length(%a: tensor<2x3xf32>, %rng: tensor<3xi64>) {
  // expected-error @+1 {{'tc.dropout' op operand #1 must be tensor<2xi64> holding (seed, step), but got 'tensor<3xi64>'}}
  %0 = tc.dropout %a, %rng rate = 0.1 key = 0 : tensor<2x3xf32>, tensor<3xi64>
  return
}

// -----

// Dropout: the rng state is i64, not i32.
func.func @dropout_rng_i32(%a: tensor<2x3xf32>, %rng: tensor<2xi32>) {
  // expected-error @+1 {{'tc.dropout' op operand #1 must be tensor<2xi64> holding (seed, step), but got 'tensor<2xi32>'}}
  %0 = tc.dropout %a, %rng rate = 0.1 key = 0 : tensor<2x3xf32>, tensor<2xi32>
  return
}

// -----

// Dropout: the rng state has rank 1.
func.func @dropout_rng_rank2(%a: tensor<2x3xf32>, %rng: tensor<1x2xi64>) {
  // expected-error @+1 {{'tc.dropout' op operand #1 must be tensor<2xi64> holding (seed, step), but got 'tensor<1x2xi64>'}}
  %0 = tc.dropout %a, %rng rate = 0.1 key = 0 : tensor<2x3xf32>, tensor<1x2xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Masks and positional encoding
//===----------------------------------------------------------------------===//

// Causal mask: [T, T] must be square.
func.func @causal_mask_not_square() {
  // expected-error @+1 {{'tc.causal_mask' op result must be a square [T, T] mask, got [4, 5]}}
  %0 = tc.causal_mask : tensor<4x5xi1>
  return
}

// -----

// Causal mask: rank 3 is not [T, T].
func.func @causal_mask_rank3() {
  // expected-error @+1 {{'tc.causal_mask' op result must be a square [T, T] mask, got [2, 4, 4]}}
  %0 = tc.causal_mask : tensor<2x4x4xi1>
  return
}

// -----

// Causal mask: rank 1 is not [T, T].
func.func @causal_mask_rank1() {
  // expected-error @+1 {{'tc.causal_mask' op result must be a square [T, T] mask, got [4]}}
  %0 = tc.causal_mask : tensor<4xi1>
  return
}

// -----

// Causal mask: the mask is i1.
func.func @causal_mask_f32() {
  // expected-error @+1 {{'tc.causal_mask' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4x4xf32>'}}
  %0 = tc.causal_mask : tensor<4x4xf32>
  return
}

// -----

// Positional encoding: rank 3 is not [length, d_model].
func.func @positional_encoding_rank3() {
  // expected-error @+1 {{'tc.positional_encoding' op result must have shape [length, d_model], got [2, 5, 8]}}
  %0 = tc.positional_encoding : tensor<2x5x8xf32>
  return
}

// -----

// Positional encoding: rank 1 is not [length, d_model].
func.func @positional_encoding_rank1() {
  // expected-error @+1 {{'tc.positional_encoding' op result must have shape [length, d_model], got [8]}}
  %0 = tc.positional_encoding : tensor<8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

// Cross-entropy: targets are the logits' shape without the vocabulary.
func.func @cross_entropy_targets_shape(%l: tensor<2x5x100xf32>, %t: tensor<2x4xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op targets have shape [2, 4] but expected [2, 5] (the logits [2, 5, 100] without the vocabulary dimension)}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.1 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x4xi32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// Cross-entropy: targets with the vocabulary dimension are wrong too.
func.func @cross_entropy_targets_rank(%l: tensor<2x5x100xf32>, %t: tensor<2x5x100xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op targets have shape [2, 5, 100] but expected [2, 5] (the logits [2, 5, 100] without the vocabulary dimension)}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.1 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5x100xi32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// Cross-entropy: the loss is summed to rank 0, not per token.
func.func @cross_entropy_loss_rank(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op loss must be a rank-0 tensor of the logits' element type, got 'tensor<2x5xf32>'}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.1 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<2x5xf32>, tensor<i32>
  return
}

// -----

// Cross-entropy: the loss has the logits' element type.
func.func @cross_entropy_loss_type(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op loss must be a rank-0 tensor of the logits' element type, got 'tensor<f64>'}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.1 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f64>, tensor<i32>
  return
}

// -----

// Cross-entropy: the token count is rank 0.
func.func @cross_entropy_tokens_rank(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op tokens must be a rank-0 i32 tensor, got 'tensor<2xi32>'}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.1 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<2xi32>
  return
}

// -----

// Cross-entropy: the token count is i32.
func.func @cross_entropy_tokens_i64(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op result #1 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.1 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<i64>
  return
}

// -----

// Cross-entropy: label smoothing 1 is outside [0, 1).
func.func @cross_entropy_smoothing_one(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op label_smoothing must be in [0, 1), got 1.000000e+00}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 1.0 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// Cross-entropy: a negative label smoothing.
func.func @cross_entropy_smoothing_negative(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.cross_entropy' op label_smoothing must be in [0, 1), got -5.000000e-01}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = -0.5 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// Cross-entropy: rank-0 logits have no vocabulary dimension.
func.func @cross_entropy_rank0_logits(%l: tensor<f32>, %t: tensor<i32>) {
  // expected-error @+1 {{'tc.cross_entropy' op logits must have rank >= 1 [..., vocabulary]}}
  %0:2 = tc.cross_entropy %l, %t label_smoothing = 0.0 ignore_index = 0 : tensor<f32>, tensor<i32> -> tensor<f32>, tensor<i32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// Reshape: 80 elements cannot become 30.
func.func @reshape_element_count(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.reshape' op cannot reshape [2, 5, 8] (80 elements) to [2, 5, 3] (30 elements); the element counts must be equal}}
  %0 = tc.reshape %a : tensor<2x5x8xf32> -> tensor<2x5x3xf32>
  return
}

// -----

// Reshape: the element type does not change.
func.func @reshape_element_type(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.reshape' op requires the same element type for all operands and results}}
  %0 = tc.reshape %a : tensor<2x5x8xf32> -> tensor<80xf16>
  return
}

// -----

// Transpose: the permutation has one entry per dimension.
func.func @transpose_permutation_length(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation [1, 0] has 2 entries but the input [2, 5, 8] has rank 3}}
  %0 = tc.transpose %a permutation = [1, 0] : tensor<2x5x8xf32> -> tensor<5x2x8xf32>
  return
}

// -----

// Transpose: a repeated entry is not a permutation.
func.func @transpose_repeated_entry(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation [0, 1, 1] is not a permutation of 0..2}}
  %0 = tc.transpose %a permutation = [0, 1, 1] : tensor<2x5x8xf32> -> tensor<2x5x5xf32>
  return
}

// -----

// Transpose: an entry out of range is not a permutation.
func.func @transpose_entry_out_of_range(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation [0, 1, 3] is not a permutation of 0..2}}
  %0 = tc.transpose %a permutation = [0, 1, 3] : tensor<2x5x8xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Transpose: a negative entry is not a permutation.
func.func @transpose_negative_entry(%a: tensor<2x5xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation [-1, 0] is not a permutation of 0..1}}
  %0 = tc.transpose %a permutation = [-1, 0] : tensor<2x5xf32> -> tensor<5x2xf32>
  return
}

// -----

// Transpose: the result is the input's dimensions in permutation order.
func.func @transpose_wrong_result(%a: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.transpose' op result has shape [2, 5, 8] but expected [2, 8, 5] (the input's dimensions in permutation order)}}
  %0 = tc.transpose %a permutation = [0, 2, 1] : tensor<2x5x8xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Broadcast_to: 2 cannot become 5.
func.func @broadcast_to_incompatible(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [2, 8] to [5, 8]; each input dimension, aligned from the last, must equal the result's or be 1}}
  %0 = tc.broadcast_to %a : tensor<2x8xf32> -> tensor<5x8xf32>
  return
}

// -----

// Broadcast_to: the result cannot have a lower rank than the input, even when
// the dropped dimension is 1.
func.func @broadcast_to_lower_rank(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [1, 8] to [8]; each input dimension, aligned from the last, must equal the result's or be 1}}
  %0 = tc.broadcast_to %a : tensor<1x8xf32> -> tensor<8xf32>
  return
}

// -----

// Broadcast_to: broadcasting does not shrink a dimension to 1.
func.func @broadcast_to_shrink(%a: tensor<5x8xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [5, 8] to [5, 1]; each input dimension, aligned from the last, must equal the result's or be 1}}
  %0 = tc.broadcast_to %a : tensor<5x8xf32> -> tensor<5x1xf32>
  return
}

// -----

// Slice: the box [20, 28) runs past the end of the last dimension.
func.func @slice_out_of_bounds(%a: tensor<2x5x24xf32>) {
  // expected-error @+1 {{'tc.slice' op dimension 2: the box [20, 28) lies outside the input's [0, 24)}}
  %0 = tc.slice %a offsets = [0, 0, 20] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Slice: a negative offset.
func.func @slice_negative_offset(%a: tensor<2x5x24xf32>) {
  // expected-error @+1 {{'tc.slice' op dimension 1: the box [-1, 4) lies outside the input's [0, 5)}}
  %0 = tc.slice %a offsets = [0, -1, 0] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Slice: one offset per dimension.
func.func @slice_offsets_rank(%a: tensor<2x5x24xf32>) {
  // expected-error @+1 {{'tc.slice' op offsets [0, 0], input [2, 5, 24] and result [2, 5, 8] must have the same rank}}
  %0 = tc.slice %a offsets = [0, 0] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Slice: the result has the input's rank (a slice does not drop dimensions).
func.func @slice_result_rank(%a: tensor<2x5x24xf32>) {
  // expected-error @+1 {{'tc.slice' op offsets [0, 0, 0], input [2, 5, 24] and result [5, 8] must have the same rank}}
  %0 = tc.slice %a offsets = [0, 0, 0] : tensor<2x5x24xf32> -> tensor<5x8xf32>
  return
}

// -----

// Concat: the inputs disagree on a dimension other than the axis.
func.func @concat_mismatched_dims(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.concat' op input #1 has shape [3, 4] but must match input #0 [2, 3] in every dimension but axis 1}}
  %0 = tc.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x7xf32>
  return
}

// -----

// Concat: the inputs have different ranks.
func.func @concat_mismatched_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+1 {{'tc.concat' op input #1 has shape [2, 3, 1] but must match input #0 [2, 3] in every dimension but axis 1}}
  %0 = tc.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x3x1xf32> -> tensor<2x6xf32>
  return
}

// -----

// Concat: axis equal to the rank.
func.func @concat_axis_out_of_range(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.concat' op axis 2 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.concat %a, %b axis = 2 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<2x7xf32>
  return
}

// -----

// Concat: a negative axis.
func.func @concat_axis_negative(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.concat' op axis -1 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.concat %a, %b axis = -1 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<2x7xf32>
  return
}

// -----

// Concat: the result's axis is the sum 3 + 4.
func.func @concat_wrong_result(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.concat' op result has shape [2, 8] but expected [2, 7] (the inputs joined along the axis)}}
  %0 = tc.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<2x8xf32>
  return
}

// -----

// Concat: the inputs share one element type.
func.func @concat_mixed_types(%a: tensor<2x3xf32>, %b: tensor<2x4xf16>) {
  // expected-error @+1 {{'tc.concat' op requires the same element type for all operands and results}}
  %0 = tc.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x4xf16> -> tensor<2x7xf32>
  return
}

// -----

// Concat: at least one input (the element-type trait catches it first).
func.func @concat_no_inputs() {
  // expected-error @+1 {{'tc.concat' op expected 1 or more operands, but found 0}}
  %0 = "tc.concat"() {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// Constant: the result type is the value's type (shape).
func.func @constant_shape_mismatch() {
  // expected-error @+1 {{'tc.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "tc.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

// Constant: the result type is the value's type (element type).
func.func @constant_element_type_mismatch() {
  // expected-error @+1 {{'tc.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "tc.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf16>
  return
}

// -----

// Constant: a scalar attribute is not a tensor.
func.func @constant_scalar() {
  // expected-error @+1 {{custom op 'tc.constant' invalid kind of attribute specified}}
  %0 = tc.constant 1.0 : f32
  return
}

// -----

// Constant: i8 is not a tc element type.
func.func @constant_i8() {
  // expected-error @+1 {{'tc.constant' op result #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<2xi8>'}}
  %0 = tc.constant dense<1> : tensor<2xi8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Parameter argument attributes
//===----------------------------------------------------------------------===//

// tc.init needs a tc.param name on the same argument.
// expected-error @+1 {{argument #0 has 'tc.init' but no 'tc.param' name}}
func.func @init_without_param(%w: tensor<4xf32> {tc.init = #tc.init<zeros>}) {
  return
}

// -----

// tc.param on an i32 argument: parameters are float tensors.
// expected-error @+1 {{argument #0 carries 'tc.param' but has type 'tensor<4xi32>'; parameters are statically shaped tensors of f32, f16, bf16 or f64}}
func.func @param_on_i32(%w: tensor<4xi32> {tc.param = "w"}) {
  return
}

// -----

// tc.param on a scalar float: parameters are tensors.
// expected-error-re @+1 {{argument #1 carries 'tc.param' but has type 'f32'; parameters are statically shaped tensors of f32, f16, bf16 or f64}}
func.func @param_on_scalar(%x: tensor<4xf32>, %w: f32 {tc.param = "w"}) {
  return
}

// -----

// tc.param must not be empty.
// expected-error @+1 {{argument #0: 'tc.param' must be a non-empty string}}
func.func @param_empty(%w: tensor<4xf32> {tc.param = ""}) {
  return
}

// -----

// tc.param must be a string.
// expected-error @+1 {{argument #0: 'tc.param' must be a non-empty string}}
func.func @param_not_string(%w: tensor<4xf32> {tc.param = 3 : i64}) {
  return
}

// -----

// Two arguments cannot share a parameter name.
// expected-error @+1 {{arguments #0 and #2 are both named parameter "w"; parameter names must be unique}}
func.func @param_duplicate(%a: tensor<4xf32> {tc.param = "w", tc.init = #tc.init<ones>},
                           %x: tensor<4xf32>,
                           %b: tensor<4xf32> {tc.param = "w"}) {
  return
}

// -----

// Only tc.param and tc.init are tc argument attributes.
// expected-error-re @+1 {{unknown tc argument attribute 'tc.frozen'; expected 'tc.param'}}
func.func @unknown_arg_attr(%w: tensor<4xf32> {tc.param = "w", tc.frozen}) {
  return
}

// -----

// tc.init must be a #tc.init attribute, not a string.
// expected-error @+1 {{argument #0: 'tc.init' must be an initializer such as #tc.init<xavier_uniform>}}
func.func @init_not_initializer(%w: tensor<4xf32> {tc.param = "w", tc.init = "zeros"}) {
  return
}

// -----

// #tc.init<normal> needs its standard deviation.
// expected-error @+1 {{expected '('}}
func.func @init_normal_without_scale(%w: tensor<4xf32> {tc.param = "w", tc.init = #tc.init<normal>}) {
  return
}

// -----

// #tc.init<normal(std)> needs a positive standard deviation.
// expected-error @+1 {{initializer normal needs a positive scale, got -1.000000e+00}}
func.func @init_normal_negative(%w: tensor<4xf32> {tc.param = "w", tc.init = #tc.init<normal(-1.0)>}) {
  return
}

// -----

// #tc.init<uniform(bound)> needs a positive bound; 0 is not.
// expected-error @+1 {{initializer uniform needs a positive scale, got 0.000000e+00}}
func.func @init_uniform_zero(%w: tensor<4xf32> {tc.param = "w", tc.init = #tc.init<uniform(0.0)>}) {
  return
}

// -----

// #tc.init<zeros> takes no scale.
// expected-error @+1 {{expected '>'}}
func.func @init_zeros_with_scale(%w: tensor<4xf32> {tc.param = "w", tc.init = #tc.init<zeros(1.0)>}) {
  return
}

// -----

// An unknown initializer kind.
// expected-error @+1 {{unknown initializer 'kaiming'; expected zeros, ones, xavier_uniform, normal(std) or uniform(bound)}}
func.func @init_unknown_kind(%w: tensor<4xf32> {tc.param = "w", tc.init = #tc.init<kaiming>}) {
  return
}

// -----

// The argument attribute's name is quoted once, as 'tc.param'. 
// expected-error @+1 {{argument #0 carries 'tc.param' but has type 'tensor<4xi32>'; parameters are statically shaped tensors of f32, f16, bf16 or f64}}
func.func @param_on_i32(%w: tensor<4xi32> {tc.param = "w"}) {
  return
}

// -----

// Same quoting for an unknown tc argument attribute.
// expected-error @+1 {{unknown tc argument attribute 'tc.frozen'; expected 'tc.param'}}
func.func @unknown_arg_attr(%w: tensor<4xf32> {tc.param = "w", tc.frozen}) {
  return
}

// -----

// A parameter has a static shape (the runtime allocates and initialises it,
// and no tc op accepts a dynamic tensor).
// expected-error-re @+1 {{argument #0 {{.*}}tensor<?x8xf32>}}
func.func @param_dynamic_shape(%w: tensor<?x8xf32> {tc.param = "w", tc.init = #tc.init<zeros>}) {
  return
}

// -----

// A parameter's element type is one the dialect computes in (f32, f16, bf16,
// f64), not e.g. f8E4M3FN.
// expected-error-re @+1 {{argument #0 {{.*}}tensor<8xf8E4M3FN>}}
func.func @param_f8(%w: tensor<8xf8E4M3FN> {tc.param = "w"}) {
  return
}

// -----

// A prefix mask has one row per position.
func.func @prefix_mask_rows(%position: tensor<4xi32>) {
  // expected-error @+1 {{'tc.prefix_mask' op takes positions [R] to a mask [R, T], got [4] -> [3, 8]}}
  %0 = tc.prefix_mask %position : tensor<4xi32> -> tensor<3x8xi1>
  return
}

// -----

// The decoder's attention: heads divide the channels.
func.func @cached_attention_heads(%q: tensor<4x1x8xf32>, %k: tensor<4x6x8xf32>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op heads = 3 must divide the query's and the values' channels, got 8 and 8}}
  %0 = tc.cached_attention %q, %k, %k {heads = 3 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// Without a slot table or a history, row r reads cache row r.
func.func @cached_attention_rows(%q: tensor<4x1x8xf32>, %k: tensor<2x6x8xf32>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op without slot or history, row r reads cache row r: the keys must have the query's 4 rows, got 2}}
  %0 = tc.cached_attention %q, %k, %k {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// One slot per row of the query.
func.func @cached_attention_slot(%q: tensor<4x1x8xf32>, %k: tensor<2x6x8xf32>, %slot: tensor<2xi32>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op slot has shape [2] but expected [4] (one per row of the query)}}
  %0 = tc.cached_attention %q, %k, %k slot %slot {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<2xi32>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// A history names a cache row per row of the query and position of the cache.
func.func @cached_attention_history(%q: tensor<4x1x8xf32>, %k: tensor<4x6x8xf32>, %history: tensor<4x5xi32>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op history has shape [4, 5] but expected [4, 6] (the query's rows and the cache's positions)}}
  %0 = tc.cached_attention %q, %k, %k history %history {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4x5xi32>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// A slot and a history would both say where a position is read from.
func.func @cached_attention_slot_and_history(%q: tensor<4x1x8xf32>, %k: tensor<4x6x8xf32>, %slot: tensor<4xi32>, %history: tensor<4x6xi32>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op takes a slot or a history, not both: each says which cache row a position is read from}}
  %0 = tc.cached_attention %q, %k, %k slot %slot history %history {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4xi32>, tensor<4x6xi32>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// The key mask covers the cache rows and positions.
func.func @cached_attention_mask(%q: tensor<4x1x8xf32>, %k: tensor<4x6x8xf32>, %mask: tensor<4x5xi1>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op key_mask has shape [4, 5] but expected [4, 6] (the keys' cache rows and positions)}}
  %0 = tc.cached_attention %q, %k, %k mask %mask {heads = 2 : i64} : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<4x5xi1>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// f32 only: mixed precision leaves it alone.
func.func @cached_attention_bf16(%q: tensor<4x1x8xbf16>, %k: tensor<4x6x8xf32>) -> tensor<4x1x8xf32> {
  // expected-error @+1 {{'tc.cached_attention' op operand #0 must be statically shaped tensor of 32-bit float values}}
  %0 = tc.cached_attention %q, %k, %k {heads = 2 : i64} : (tensor<4x1x8xbf16>, tensor<4x6x8xf32>, tensor<4x6x8xf32>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// A cache update's value is one position of the cache.
func.func @cache_update_value(%k: tensor<4x8x16xf32>, %new: tensor<4x2x16xf32>, %rows: tensor<4xi32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'tc.cache_update' op value has shape [4, 2, 16] but expected [4, 1, 16] (one position of the cache)}}
  %0 = tc.cache_update %k, %new, %rows : tensor<4x8x16xf32>, tensor<4x2x16xf32>, tensor<4xi32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// One position per row.
func.func @cache_update_position(%k: tensor<4x8x16xf32>, %new: tensor<4x1x16xf32>, %position: tensor<3xi32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'tc.cache_update' op position has shape [3] but expected [4] (one per row of the cache)}}
  %0 = tc.cache_update %k, %new, %position : tensor<4x8x16xf32>, tensor<4x1x16xf32>, tensor<3xi32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// The cache is updated in place: nothing else may read it.
func.func @cache_update_shared(%k: tensor<4x8x16xf32>, %new: tensor<4x1x16xf32>, %rows: tensor<4xi32>) -> (tensor<4x8x16xf32>, tensor<4x8x16xf32>) {
  // expected-error @+1 {{'tc.cache_update' op cache has other uses; it is updated in place, so nothing else may read it}}
  %0 = tc.cache_update %k, %new, %rows : tensor<4x8x16xf32>, tensor<4x1x16xf32>, tensor<4xi32>
  return %0, %k : tensor<4x8x16xf32>, tensor<4x8x16xf32>
}

// -----

// The beam's parent table is [rows, positions].
func.func @beam_history_rank(%h: tensor<4x8x1xi32>, %rows: tensor<4xi32>) -> tensor<4x8x1xi32> {
  // expected-error @+1 {{'tc.beam_history' op history must have rank 2 [rows, positions], got [4, 8, 1]}}
  %0 = tc.beam_history %h, %rows, %rows : tensor<4x8x1xi32>, tensor<4xi32>, tensor<4xi32>
  return %0 : tensor<4x8x1xi32>
}

// -----

// One origin per row.
func.func @beam_history_origin(%h: tensor<4x8xi32>, %origin: tensor<3xi32>, %position: tensor<4xi32>) -> tensor<4x8xi32> {
  // expected-error @+1 {{'tc.beam_history' op origin has shape [3] but expected [4] (one per row of the history)}}
  %0 = tc.beam_history %h, %origin, %position : tensor<4x8xi32>, tensor<3xi32>, tensor<4xi32>
  return %0 : tensor<4x8xi32>
}

// -----

// The table is updated in place: nothing else may read it.
func.func @beam_history_shared(%h: tensor<4x8xi32>, %rows: tensor<4xi32>) -> (tensor<4x8xi32>, tensor<4x8xi32>) {
  // expected-error @+1 {{'tc.beam_history' op history has other uses; it is updated in place, so nothing else may read it}}
  %0 = tc.beam_history %h, %rows, %rows : tensor<4x8xi32>, tensor<4xi32>, tensor<4xi32>
  return %0, %h : tensor<4x8xi32>, tensor<4x8xi32>
}

// -----

// top_k takes at most the row's elements.
func.func @top_k_too_many(%x: tensor<4x6xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  // expected-error @+1 {{'tc.top_k' op k = 8 must lie in [1, 6] (the last dimension)}}
  %v, %i = tc.top_k %x k = 8 : tensor<4x6xf32> -> tensor<4x8xf32>, tensor<4x8xi32>
  return %v, %i : tensor<4x8xf32>, tensor<4x8xi32>
}

// -----

// log_softmax_top_k: rows, an addend per column, k and the column within
// the row, results of the rows' count.
func.func @log_softmax_top_k_addend(%x: tensor<4x6xf32>, %a: tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>) {
  // expected-error @+1 {{'tc.log_softmax_top_k' op addend must have shape [6] (a value per column), got [4, 6]}}
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 2 column = 0 : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
  return %v, %i, %c : tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
}

// -----

func.func @log_softmax_top_k_column(%x: tensor<4x6xf32>, %a: tensor<6xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>) {
  // expected-error @+1 {{'tc.log_softmax_top_k' op column = 6 must lie in [0, 6)}}
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 2 column = 6 : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
  return %v, %i, %c : tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
}

// -----

func.func @log_softmax_top_k_k(%x: tensor<4x6xf32>, %a: tensor<6xf32>) -> (tensor<4x7xf32>, tensor<4x7xi32>, tensor<4x1xf32>) {
  // expected-error @+1 {{'tc.log_softmax_top_k' op k = 7 must lie in [1, 6]}}
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 7 column = 0 : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x7xf32>, tensor<4x7xi32>, tensor<4x1xf32>
  return %v, %i, %c : tensor<4x7xf32>, tensor<4x7xi32>, tensor<4x1xf32>
}

// -----

func.func @log_softmax_top_k_results(%x: tensor<4x6xf32>, %a: tensor<6xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<3x1xf32>) {
  // expected-error @+1 {{'tc.log_softmax_top_k' op column_values must have shape [4, 1], got [3, 1]}}
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 2 column = 0 : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x2xf32>, tensor<4x2xi32>, tensor<3x1xf32>
  return %v, %i, %c : tensor<4x2xf32>, tensor<4x2xi32>, tensor<3x1xf32>
}

// -----

func.func @log_softmax_top_k_rank(%x: tensor<4x1x6xf32>, %a: tensor<6xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>) {
  // expected-error @+1 {{'tc.log_softmax_top_k' op input must be rows [R, N] with N >= 1, got [4, 1, 6]}}
  %v, %i, %c = tc.log_softmax_top_k %x, %a k = 2 column = 0 : tensor<4x1x6xf32>, tensor<6xf32> -> tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
  return %v, %i, %c : tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x1xf32>
}

// -----

// top_k's results are the input's rows cut to k.
func.func @top_k_shape(%x: tensor<4x6xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  // expected-error @+1 {{'tc.top_k' op results must have shape [4, 2], got [3, 2]}}
  %v, %i = tc.top_k %x k = 2 : tensor<4x6xf32> -> tensor<3x2xf32>, tensor<3x2xi32>
  return %v, %i : tensor<3x2xf32>, tensor<3x2xi32>
}

// -----

// tc.all_reduce sums in place: nothing else may read its inputs.
func.func @all_reduce_input_read_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = tc.exp %x : tensor<4xf32>
  // expected-error @+1 {{'tc.all_reduce' op input 0 has other uses; it is reduced in place, so nothing else may read it}}
  %s = tc.all_reduce %y : tensor<4xf32>
  return %s, %y : tensor<4xf32>, tensor<4xf32>
}

// -----

// Matmul: both operands have one element type.
func.func @matmul_mixed_operands(%a: tensor<2x3xbf16>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op operands must have one element type, got 'bf16' and 'f32'}}
  %0 = tc.matmul %a, %b : tensor<2x3xbf16>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

// Matmul: f32 operands give an f32 result, never a narrower one.
func.func @matmul_narrowing_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op a GEMM of 'f32' operands gives 'f32' results, not 'bf16'}}
  %0 = tc.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xbf16>
  return
}

// -----

// Matmul: bf16 operands give bf16 or f32 (f32 accumulation), not f64.
func.func @matmul_bf16_to_f64(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) {
  // expected-error @+1 {{'tc.matmul' op a GEMM of 'bf16' operands gives 'bf16' or f32 results, not 'f64'}}
  %0 = tc.matmul %a, %b : tensor<2x3xbf16>, tensor<3x4xbf16> -> tensor<2x4xf64>
  return
}

// -----

// Linear: the bias has the result's element type.
func.func @linear_bias_type(%x: tensor<2x3xbf16>, %w: tensor<4x3xbf16>, %b: tensor<4xbf16>) {
  // expected-error @+1 {{'tc.linear' op bias must have the result's element type 'f32', got 'bf16'}}
  %0 = tc.linear %x, %w, %b : tensor<2x3xbf16>, tensor<4x3xbf16>, tensor<4xbf16> -> tensor<2x4xf32>
  return
}
